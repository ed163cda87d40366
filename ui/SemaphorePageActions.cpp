#include "SemaphorePageActions.h"

#include <QAction>
#include <QKeySequence>
#include <QSignalBlocker>
#include <QToolBar>
#include <QWidget>

namespace semscope::ui {

namespace {
QAction *action(QWidget *page, const QString &text, const QString &objectName, const QString &toolTip = {}) {
    auto *a = new QAction(text, page);
    if (!objectName.isEmpty())
        a->setObjectName(objectName);
    if (!toolTip.isEmpty())
        a->setToolTip(toolTip);
    return a;
}
} // namespace

SemaphorePageActions::SemaphorePageActions(QWidget *page)
    : QObject(page)
    , refreshNow(action(page, tr("&Refresh now"), {}, tr("Read the semaphore again now (F5)")))
    , acquire(action(page, tr("&Acquire…"), QStringLiteral("acquireAction"),
                     tr("Take a slot yourself (holder id defaults to user@host)")))
    , renewMine(action(page, tr("Re&new my slot"), {}, tr("Extend the lease of a slot this window acquired")))
    , releaseMine(action(page, tr("Re&lease my slot"), {}, tr("Give back a slot this window acquired")))
    , forceRelease(action(page, tr("&Force-release…"), QStringLiteral("forceReleaseAction"),
                          tr("Remove the selected holders, only if they are still exactly what you see "
                             "(Del, Ctrl+Shift+Del)")))
    , invalidate(action(page, tr("&Invalidate session…"), QStringLiteral("invalidateAction"),
                        tr("Consul: destroy the selected holder's session. Consul then releases or deletes "
                           "its keys (per the session's behavior) and its owner loses the slot.")))
    , purge(action(page, tr("&Purge expired"), QStringLiteral("purgeAction"),
                   tr("Remove every holder whose lease ran out but whose record is still there")))
    , repair(action(page, tr("Repair &slots"), QStringLiteral("repairAction"),
                    tr("slots layout: put missing slot numbers back and drop duplicates")))
    , rawKeys(action(page, tr("Raw &keys…"), QStringLiteral("rawKeysAction")))
    , editProfile(action(page, tr("&Edit profile…"), {}))
    , copyRows(action(page, tr("&Copy rows"), QStringLiteral("copyRowsAction"),
                      tr("Copy the selected holders as text: holder, token, TTL, state (Ctrl+C)")))
    , copyId(action(page, tr("Copy holder &id"), {}))
    , watch(action(page, QString(), QStringLiteral("watchToggle"))) {
    refreshNow->setShortcut(QKeySequence::Refresh);
    forceRelease->setShortcuts({QKeySequence::Delete, QKeySequence(QStringLiteral("Ctrl+Shift+Del"))});
    // Only where the holders are in view and focused: a window-wide Delete would reach a holder the
    // operator is not looking at (while typing in the filter, or with another pane in front).
    forceRelease->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    rawKeys->setShortcut(QKeySequence(QStringLiteral("Ctrl+K")));
    copyRows->setShortcut(QKeySequence::Copy);
    copyRows->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    watch->setCheckable(true);
    // The tooltip each write was built with: apply() adds why it is greyed to it.
    for (QAction *a : writes())
        a->setProperty("baseToolTip", a->toolTip());
}

QList<QAction *> SemaphorePageActions::writes() const {
    return {acquire, renewMine, releaseMine, forceRelease, invalidate, purge, repair};
}

QList<QAction *> SemaphorePageActions::all() const {
    return {refreshNow, acquire, renewMine, releaseMine, forceRelease,
            invalidate, purge,   repair,    editProfile, rawKeys};
}

QList<QAction *> SemaphorePageActions::contextMenu() const {
    QList<QAction *> out{copyRows, copyId, nullptr};
    for (QAction *a : {renewMine, releaseMine, forceRelease, invalidate, purge}) {
        if (a->isVisible())
            out.append(a);
    }
    out.append(nullptr);
    out.append(refreshNow);
    return out;
}

QToolBar *SemaphorePageActions::makeToolBar(QWidget *parent) const {
    auto *toolbar = new QToolBar(parent);
    toolbar->setObjectName(QStringLiteral("holderActions"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolbar->addActions(writes());
    return toolbar;
}

void SemaphorePageActions::apply(const model::SemaphoreActionRules &rules) {
    using A = model::SemaphoreAction;
    const QList<std::pair<QAction *, A>> actions{{acquire, A::Acquire},
                                                 {renewMine, A::RenewMine},
                                                 {releaseMine, A::ReleaseMine},
                                                 {forceRelease, A::ForceRelease},
                                                 {purge, A::Purge},
                                                 {repair, A::Repair},
                                                 {invalidate, A::InvalidateSession}};
    for (const auto &[a, which] : actions) {
        const model::SemaphoreActionVerdict v = rules.verdict(which);
        const QString base = a->property("baseToolTip").toString();
        a->setVisible(v.offered);
        a->setEnabled(v.offered && v.allowed);
        // The tooltip it was built with, then why it is greyed (rich text, so a long reason wraps).
        a->setToolTip(v.why.isEmpty() ? base
                                      : QStringLiteral("<p>%1</p><p><b>%2</b> %3</p>")
                                            .arg(base.toHtmlEscaped(), tr("Not available:").toHtmlEscaped(),
                                                 v.why.toHtmlEscaped().replace(QLatin1Char('\n'),
                                                                               QStringLiteral("<br>"))));
    }
}

void SemaphorePageActions::setWritesVisible(bool visible) {
    for (QAction *a : writes())
        a->setVisible(visible);
}

void SemaphorePageActions::setWatched(bool on, bool available, bool enabled) {
    const QSignalBlocker block(watch); // showing the state is not the operator toggling it
    watch->setChecked(on);
    watch->setText(on ? tr("★ Watched") : tr("☆ Watch"));
    watch->setToolTip(on ? tr("Watched in the background: a desktop notification when a holder turns "
                              "stale or over-limit, the semaphore stays full, or someone else "
                              "force-releases a holder. Click to stop watching.")
                         : tr("Watch this semaphore in the background and get desktop notifications"));
    watch->setVisible(available);
    watch->setEnabled(enabled);
}

} // namespace semscope::ui
