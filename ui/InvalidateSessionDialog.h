#pragma once

#include "ForceReleaseDialog.h"
#include "model/ConsulSessionEntry.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace semscope::ui {

// Invalidates the Consul session of one holder. Shows whose session it is (name, node, TTL,
// behavior, checks) and what ending it does before anything happens: Consul releases or deletes
// every key the session holds, so the owner loses this slot and every other lock taken with it.
// On a production connection the semaphore name must be typed to enable the button. The outcome
// stays in the dialog: invalidated, gone (the session had already ended) or the error.
// Opened from the sessions window it names a session instead of a holder: it lists the semaphores
// the session was seen in, and on production the session's name is typed instead.
class InvalidateSessionDialog : public QDialog {
    Q_OBJECT
public:
    InvalidateSessionDialog(model::OperatorActions *actions, const core::SemaphoreRef &ref,
                            const ObservedHolder &holder, QWidget *parent = nullptr);
    InvalidateSessionDialog(model::OperatorActions *actions, const model::SessionEntry &session,
                            QWidget *parent = nullptr);

    static QString consequences(const core::Holder &holder);
    // The same for a session chosen from the session list (`behavior` "release" or "delete").
    static QString sessionConsequences(const QString &behavior);
    // "invalidated", "gone", "error" or "refused"; empty until the answer came.
    QString outcome() const { return m_outcome; }
    bool isFinished() const { return !m_outcome.isEmpty(); }

Q_SIGNALS:
    void answered(const QString &outcome); // the page should re-read

private:
    // The parts both kinds of target share: title with the environment, who (form rows), what it
    // does, the typed confirmation on production, the outcome line and the buttons.
    void build(const QString &titleHtml, const QList<QPair<QString, QString>> &rows,
               const QString &consequencesHtml, const QString &confirmWord, const QString &confirmWhat);
    void updateConfirm();
    void start();
    void showOutcome(const core::MaintenanceResult &result);

    model::OperatorActions *m_actions;
    core::SemaphoreRef m_ref;
    ObservedHolder m_holder;
    std::optional<model::SessionEntry> m_session; // set when opened from the session list
    QString m_confirmWord;
    QLineEdit *m_confirm = nullptr;
    QLabel *m_result = nullptr;
    QPushButton *m_invalidateButton = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QString m_outcome;
    bool m_started = false;
};

} // namespace semscope::ui
