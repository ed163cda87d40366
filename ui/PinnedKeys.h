#pragma once

#include "core/SemaphoreTypes.h"
#include "model/ConnectionRegistry.h"

#include <QObject>

namespace semscope::ui {

class MainWindow;
class OpenKeyDialog;

// Keys the operator lists by name (File → Open key…) and rows taken off the list (right-click →
// Forget), on the main window's connections. The pinned keys are kept in the connection's profile
// (ConnectionConfig::pinned), so they are listed again after a restart.
class PinnedKeys : public QObject {
    Q_OBJECT
public:
    PinnedKeys(MainWindow *window, model::ConnectionRegistry *registry);

    // A key of the current Redis connection by name, its kind guessed and confirmed; then listed and
    // opened. nullptr (and a status-bar hint) unless a Redis connection is open. Deleted on close.
    OpenKeyDialog *openKey();
    // Unpinned, off the list and out of the history's seen semaphores; the page lets go of it.
    void forget(const QString &connectionId, const core::SemaphoreRef &ref);

private:
    MainWindow *m_window = nullptr;
    model::ConnectionRegistry *m_registry = nullptr;
};

} // namespace semscope::ui
