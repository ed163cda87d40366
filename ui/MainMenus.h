#pragma once

class QAction;

namespace semscope::ui {

class MainWindow;

// The actions of the menu bar the window enables by what is selected.
struct MainMenuActions {
    QAction *openKey = nullptr; // File → Open key…
};

// The main window's menu bar: File, View, Semaphore, Tools, Help. Each entry calls the window, or
// is the action of the pane or page that does the job.
MainMenuActions buildMainMenus(MainWindow *window);

} // namespace semscope::ui
