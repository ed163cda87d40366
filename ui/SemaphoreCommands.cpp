#include "SemaphoreCommands.h"

#include "core/CountText.h"

#include "AcquireDialog.h"
#include "InvalidateSessionDialog.h"
#include "ProfileDialog.h"

#include <QMessageBox>

namespace semscope::ui {

using namespace semscope::core;

SemaphoreCommands::SemaphoreCommands(ProfileStore *profiles, QWidget *dialogParent)
    : QObject(dialogParent)
    , m_profiles(profiles)
    , m_dialogParent(dialogParent) {}

void SemaphoreCommands::setTarget(model::OperatorActions *actions, const QString &endpoint,
                                  const SemaphoreRef &ref) {
    m_actions = actions;
    m_endpoint = endpoint;
    m_ref = actions ? ref : SemaphoreRef{};
}

SemaphoreRef SemaphoreCommands::resolvedRef() const {
    SemaphoreRef r = m_ref;
    if (m_profiles && m_actions)
        r.profile = m_profiles->resolve(m_endpoint, m_ref);
    return r;
}

void SemaphoreCommands::acquire(const QString &node) {
    if (!m_actions)
        return;
    // The dialog acquires itself (with "Wait for N replicas" where the kind can) and says in place
    // why an acquire did not go through; it closes accepted on a grant.
    AcquireDialog dialog(m_ref.name, model::OperatorActions::defaultHolderId(), m_dialogParent);
    dialog.attach(m_actions, resolvedRef(), node);
    if (dialog.exec() == QDialog::Accepted) {
        const Grant &grant = dialog.acquireResult().grant;
        const QStringList warnings = grant.warnings();
        Q_EMIT statusMessage(warnings.isEmpty()
                                 ? tr("Acquired %1 as %2").arg(m_ref.name, grant.holder)
                                 : tr("Acquired %1 as %2, but: %3")
                                       .arg(m_ref.name, grant.holder, warnings.join(QStringLiteral("; "))));
        Q_EMIT acquired(grant.holder);
    }
    Q_EMIT changed();
}

void SemaphoreCommands::renewMine(const QList<ObservedHolder> &selected) {
    if (!m_actions)
        return;
    for (const auto &o : selected) {
        if (auto grant = m_actions->grantFor(m_ref, o.holder.rawId))
            m_actions->refresh(*grant, 30000, this, [this](RefreshResult) { Q_EMIT changed(); });
    }
}

void SemaphoreCommands::releaseMine(const QList<ObservedHolder> &selected) {
    if (!m_actions)
        return;
    for (const auto &o : selected) {
        if (auto grant = m_actions->grantFor(m_ref, o.holder.rawId))
            m_actions->release(*grant, this, [this](ReleaseResult) { Q_EMIT changed(); });
    }
}

void SemaphoreCommands::purgeExpired(qint64 expiredShown) {
    if (!m_actions)
        return;
    const auto answer = QMessageBox::question(
        m_dialogParent, tr("Purge expired holders"),
        tr("Remove the %1 of %2 whose lease has run out but whose record is still there?\nHolders "
           "whose lease is still running are not touched.")
            .arg(countText(expiredShown, tr("holder"), tr("holders")), m_ref.name));
    if (answer != QMessageBox::Yes)
        return;
    const QString name = m_ref.name;
    m_actions->purgeExpired(resolvedRef(), this, [this, name](MaintenanceResult r) {
        Q_EMIT statusMessage(
            r.ok ? tr("Purged %1 from %2")
                       .arg(countText(r.affected, tr("expired holder"), tr("expired holders")), name)
                 : tr("Purge failed: %1").arg(r.message));
        Q_EMIT changed();
    });
}

void SemaphoreCommands::repair() {
    if (!m_actions)
        return;
    const auto answer = QMessageBox::question(
        m_dialogParent, tr("Repair slots"),
        tr("Put missing slot numbers of %1 back on the free list and remove duplicates? Holders are kept.")
            .arg(m_ref.name));
    if (answer != QMessageBox::Yes)
        return;
    const QString name = m_ref.name;
    m_actions->repair(resolvedRef(), this, [this, name](MaintenanceResult r) {
        Q_EMIT statusMessage(
            r.ok ? tr("Repaired %1: %2")
                       .arg(name, r.message.isEmpty() ? QString::number(r.affected) : r.message)
                 : tr("Repair failed: %1").arg(r.message));
        Q_EMIT changed();
    });
}

void SemaphoreCommands::editProfile() {
    if (!m_actions || !m_profiles)
        return;
    ProfileDialog dialog(resolvedRef(), m_dialogParent);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_profiles->save(m_endpoint, m_ref.kind, m_ref.name, dialog.profile());
    Q_EMIT changed();
}

ForceReleaseDialog *SemaphoreCommands::forceRelease(const QList<ObservedHolder> &selected,
                                                    std::optional<qint64> version) {
    if (!m_actions || selected.isEmpty())
        return nullptr;
    auto *dialog = new ForceReleaseDialog(m_actions, m_ref, selected, version, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ForceReleaseDialog::released, this, &SemaphoreCommands::changed);
    dialog->open();
    return dialog;
}

InvalidateSessionDialog *SemaphoreCommands::invalidateSession(const ObservedHolder &holder) {
    if (!m_actions)
        return nullptr;
    auto *dialog = new InvalidateSessionDialog(m_actions, m_ref, holder, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &InvalidateSessionDialog::answered, this, &SemaphoreCommands::changed);
    dialog->open();
    return dialog;
}

} // namespace semscope::ui
