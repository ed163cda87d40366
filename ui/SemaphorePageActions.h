#pragma once

#include "model/SemaphoreActionRules.h"

#include <QList>
#include <QObject>

class QAction;
class QToolBar;
class QWidget;

namespace semscope::ui {

// The semaphore page's actions (toolbar, context menu, main window menus, shortcuts), built once
// with their texts, shortcuts and tooltips. `apply` shows, enables and explains the writes as
// model/SemaphoreActionRules decides; the page connects what they do.
class SemaphorePageActions : public QObject {
    Q_OBJECT
public:
    // The actions are children of `page`, so its shortcuts and findChild reach them.
    explicit SemaphorePageActions(QWidget *page);

    QAction *const refreshNow;
    QAction *const acquire;
    QAction *const renewMine;
    QAction *const releaseMine;
    QAction *const forceRelease;
    QAction *const invalidate;
    QAction *const purge;
    QAction *const repair;
    QAction *const rawKeys;
    QAction *const editProfile;
    QAction *const copyRows;
    QAction *const copyId;
    QAction *const watch; // ☆ Watch, checkable; its text says whether it is on

    // The writes, in toolbar order.
    QList<QAction *> writes() const;
    // Every action the main window's Semaphore menu lists.
    QList<QAction *> all() const;
    // What the holder table's context menu offers now (nullptr: separator): the visible writes only,
    // so the menu never offers what the toolbar does not.
    QList<QAction *> contextMenu() const;
    // The writes as toolbar buttons (objectName "holderActions").
    QToolBar *makeToolBar(QWidget *parent) const;

    // Shows, enables and explains each write; a greyed one's tooltip says why and what to do.
    void apply(const model::SemaphoreActionRules &rules);
    // Every write hidden (a read-only connection offers none) or shown again.
    void setWritesVisible(bool visible);
    void setWatched(bool on, bool available, bool enabled);
};

} // namespace semscope::ui
