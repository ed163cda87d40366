#pragma once

#include "core/ClientLiveness.h"
#include "model/OperatorActions.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

namespace semscope::ui {

// A holder as the operator saw it when asking to force-release it.
struct ObservedHolder {
    core::Holder holder;
    qint64 ageMs = 0;
    std::optional<qint64> ttlMs;
    // Whether its client was still there at the last look (model::ClientLivenessWatcher); nullopt
    // when its record names no client or nothing was read yet.
    std::optional<core::ClientLiveness> client;
};

// Shows who would be released, since when, and what it does to them before anything happens; on a
// production connection the semaphore name must be typed to enable the button. Then releases each
// holder compare-and-act on what was shown and reports per holder: released, changed since you
// looked (nothing done), or gone.
class ForceReleaseDialog : public QDialog {
    Q_OBJECT
public:
    ForceReleaseDialog(model::OperatorActions *actions, const core::SemaphoreRef &ref,
                       QList<ObservedHolder> holders, std::optional<qint64> observedVersion,
                       QWidget *parent = nullptr);

    static QString consequences(core::Kind kind);
    // Per holder, in the order shown: "released", "changed", "gone", "error", "refused"; empty until done.
    QStringList outcomes() const { return m_outcomes; }
    bool isFinished() const { return m_done == m_holders.size() && m_started; }

Q_SIGNALS:
    void released(); // every holder has its outcome; the page should re-read

private:
    void updateConfirm();
    void start();
    void showOutcome(int index, const core::ForceReleaseResult &result);

    model::OperatorActions *m_actions;
    core::SemaphoreRef m_ref;
    QList<ObservedHolder> m_holders;
    std::optional<qint64> m_version;
    QTreeWidget *m_list = nullptr;
    QLineEdit *m_confirm = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_stillConnected = nullptr;
    QPushButton *m_releaseButton = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QStringList m_outcomes;
    int m_done = 0;
    bool m_started = false;
};

} // namespace semscope::ui
