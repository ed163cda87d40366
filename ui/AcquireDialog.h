#pragma once

#include "core/SemaphoreTypes.h"
#include "model/StatusColors.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QWidget;

namespace semscope::model {
class OperatorActions;
}

namespace semscope::ui {

// Asks for the holder id (default user@host) and lease TTL of an operator's own acquire.
//
// Attached to a connection's OperatorActions, the dialog makes the acquire itself: for Redis `leased`
// and `lock` it offers "Wait for N replicas" (0 up to the replicas the serving master has, read
// off the GUI thread) with a timeout; Acquire stays in the dialog until the answer comes, closes
// (accepted) on a grant — or, when the grant came with warnings (no lease kept, a limit not used),
// shows them with a Close button — and otherwise says why in the dialog — "not replicated to 1 replica within
// 1000 ms (acknowledged by 0): released" — so the operator can change something and try again.
class AcquireDialog : public QDialog {
    Q_OBJECT
public:
    AcquireDialog(const QString &semaphore, const QString &defaultHolder, QWidget *parent = nullptr);
    QString holder() const;
    qint64 ttlMs() const;  // -1 when the text is not a duration; the default when it is empty
    bool ttlGiven() const; // a TTL was typed: the acquire never holds the slot longer

    // `node`: the master serving the semaphore ("host:port"; empty when unknown).
    void attach(model::OperatorActions *actions, const core::SemaphoreRef &ref, const QString &node);
    bool offersReplicas() const;
    int replicas() const;            // 0: trust the master's reply
    qint64 replicaTimeoutMs() const; // -1 when the text is not a duration of 1 ms to 5 s
    // The answer to the last Acquire (attached dialogs).
    const core::AcquireResult &acquireResult() const { return m_result; }
    // Attached: acquires first and closes (accepted) only on a grant. Otherwise as QDialog's.
    void accept() override;
    // After a grant, closing in any way accepts: the slot is held.
    void reject() override;

Q_SIGNALS:
    void acquireFinished(const semscope::core::AcquireResult &result);

private:
    void validate();
    void startAcquire();
    // The answer below the form: plain (progress), or in a tone (Bad: refused, Caution: granted, but).
    void showOutcome(const QString &text, std::optional<model::Tone> tone);
    void showGrantWarnings(const core::Grant &grant, const QStringList &warnings);

    QLineEdit *m_holder;
    QLineEdit *m_ttl;
    QWidget *m_replicaRow = nullptr;
    QSpinBox *m_replicas = nullptr;
    QLabel *m_replicaNote = nullptr;
    QLineEdit *m_replicaTimeout = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_acquire = nullptr;
    QPushButton *m_cancel = nullptr;
    model::OperatorActions *m_actions = nullptr;
    core::SemaphoreRef m_ref;
    core::AcquireResult m_result;
    bool m_busy = false;
};

} // namespace semscope::ui
