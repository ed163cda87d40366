#pragma once

#include "ForceReleaseDialog.h"
#include "core/ProfileStore.h"
#include "core/SemaphoreTypes.h"
#include "model/OperatorActions.h"

#include <QObject>
#include <QPointer>

namespace semscope::ui {

class InvalidateSessionDialog;

// The operator's commands on the semaphore a page shows: each asks (a dialog, or a question for
// the maintenance writes), calls the store through the session's OperatorActions and says how it
// went. The page decides what is offered (model/SemaphoreActionRules) and hands in what the operator
// sees; this does the rest, so the page only lays out and reads.
class SemaphoreCommands : public QObject {
    Q_OBJECT
public:
    // Dialogs open over `dialogParent`; limits and timeouts come from `profiles` (may be null).
    SemaphoreCommands(core::ProfileStore *profiles, QWidget *dialogParent);

    // The semaphore the commands act on, through its connection's `actions`; `endpoint` keys its
    // profile. nullptr actions: none (every command does nothing).
    void setTarget(model::OperatorActions *actions, const QString &endpoint, const core::SemaphoreRef &ref);
    // The semaphore with its profile (limit, timeout) as the operator set it for this endpoint.
    core::SemaphoreRef resolvedRef() const;

    // Acquire… (modal): `node` is the master that served the last read, for "wait for replicas".
    void acquire(const QString &node);
    // The selected holders this window acquired itself are renewed (30 s) or given back.
    void renewMine(const QList<ObservedHolder> &selected);
    void releaseMine(const QList<ObservedHolder> &selected);
    // `expiredShown`: how many expired records the operator sees now, for the question.
    void purgeExpired(qint64 expiredShown);
    void repair();
    void editProfile();
    // Opens the force-release / invalidate-session dialog (non-modal, deleted on close).
    ForceReleaseDialog *forceRelease(const QList<ObservedHolder> &selected, std::optional<qint64> version);
    InvalidateSessionDialog *invalidateSession(const ObservedHolder &holder);

Q_SIGNALS:
    void statusMessage(const QString &message);
    // Something was written (or tried): the page reads again at once.
    void changed();
    // A slot acquired here: the page selects it as soon as a read shows it.
    void acquired(const QString &holder);

private:
    core::ProfileStore *m_profiles;
    QWidget *m_dialogParent;
    QPointer<model::OperatorActions> m_actions;
    QString m_endpoint;
    core::SemaphoreRef m_ref;
};

} // namespace semscope::ui
