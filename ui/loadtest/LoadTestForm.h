#pragma once

#include "core/Kind.h"
#include "core/SemaphoreTypes.h"
#include "core/loadtest/LoadTestConfig.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSettings;
class QSpinBox;

namespace semscope::ui {

class DistributionEdit;

// Every parameter of a load test, the same ones `semscope-cli loadtest` takes: kind and semaphore,
// limit, virtual clients over connections and threads, hold and think time, TTL and refresh, try
// once or wait, duration or number of pairs, crash rate and clock skew, and for Redis `leased` and
// `lock` replica-acknowledged grants (--replicas, --replica-timeout).
class LoadTestForm : public QWidget {
    Q_OBJECT
public:
    explicit LoadTestForm(QWidget *parent = nullptr);

    // Offers the kinds semscope can acquire on this backend.
    void setBackend(core::Backend backend);
    // Takes kind and name from a semaphore the operator selected (kinds it can acquire only).
    void prefill(const core::SemaphoreRef &ref);

    core::LoadTestConfig config() const;
    void setConfig(const core::LoadTestConfig &config);
    // Empty when the form describes a run that can start; otherwise one line saying what is wrong.
    QString problem() const;

    // Remembers the values between runs and sessions (the current QSettings group).
    void save(QSettings &settings) const;
    void restore(const QSettings &settings);

    QComboBox *kindBox() const { return m_kind; }
    QLineEdit *nameEdit() const { return m_name; }
    QSpinBox *limitBox() const { return m_limit; }
    QSpinBox *clientsBox() const { return m_clients; }
    QSpinBox *connectionsBox() const { return m_connections; }
    QSpinBox *threadsBox() const { return m_threads; }
    DistributionEdit *holdEdit() const { return m_hold; }
    DistributionEdit *thinkEdit() const { return m_think; }
    QSpinBox *ttlBox() const { return m_ttl; }
    QSpinBox *refreshBox() const { return m_refresh; }
    QComboBox *acquireModeBox() const { return m_acquireMode; }
    QSpinBox *waitBox() const { return m_wait; }
    QComboBox *stopModeBox() const { return m_stopMode; }
    QDoubleSpinBox *durationBox() const { return m_duration; }
    QSpinBox *opsBox() const { return m_ops; }
    QDoubleSpinBox *crashRateBox() const { return m_crashRate; }
    QSpinBox *skewBox() const { return m_skew; }
    QSpinBox *replicasBox() const { return m_replicas; }
    QSpinBox *replicaTimeoutBox() const { return m_replicaTimeout; }

    enum AcquireMode { TryOnce, WaitUpTo };
    enum StopMode { AfterDuration, AfterOps };

private:
    void kindChanged();
    void modesChanged();
    // The acquire semscope recommends for the kind (LoadTestConfig::recommendedWaitMs), marked in
    // the list, and chosen unless the operator picked a mode himself.
    void showRecommendedAcquire();
    std::optional<core::Kind> currentKind() const;

    QComboBox *m_kind = nullptr;
    QLineEdit *m_name = nullptr;
    QSpinBox *m_limit = nullptr;
    QSpinBox *m_clients = nullptr;
    QSpinBox *m_connections = nullptr;
    QSpinBox *m_threads = nullptr;
    DistributionEdit *m_hold = nullptr;
    DistributionEdit *m_think = nullptr;
    QSpinBox *m_ttl = nullptr;
    QSpinBox *m_refresh = nullptr;
    QComboBox *m_acquireMode = nullptr;
    QSpinBox *m_wait = nullptr;
    QComboBox *m_stopMode = nullptr;
    QDoubleSpinBox *m_duration = nullptr;
    QSpinBox *m_ops = nullptr;
    QDoubleSpinBox *m_crashRate = nullptr;
    QSpinBox *m_skew = nullptr;
    QSpinBox *m_replicas = nullptr;
    QSpinBox *m_replicaTimeout = nullptr;
    core::Backend m_backend = core::Backend::Redis;
    bool m_acquireModeChosen = false; // the operator picked the acquire mode: kinds no longer change it
};

} // namespace semscope::ui
