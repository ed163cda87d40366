#pragma once

class QMainWindow;
class QSettings;
class QSplitter;

namespace semscope::ui {

class SemaphoreListPane;
class SemaphorePage;

// The parts of the main window whose layout is kept between runs.
struct MainWindowParts {
    QMainWindow *window = nullptr;
    QSplitter *mainSplitter = nullptr; // connections and list | page
    QSplitter *leftSplitter = nullptr; // connections / list
    SemaphorePage *page = nullptr;
    SemaphoreListPane *list = nullptr;
};

// Settings keys window/*: geometry and docks, both splitters, the holder table's header and the
// refresh interval; on save also the semaphore table's header (the list restores it per session).
// Nothing saved yet (or saved on a larger screen): sizes that fit this screen.
void restoreMainWindowState(QSettings &settings, const MainWindowParts &parts);
void saveMainWindowState(QSettings &settings, const MainWindowParts &parts);

} // namespace semscope::ui
