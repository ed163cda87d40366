#include "MainWindowState.h"

#include "ScreenFit.h"
#include "SemaphoreListPane.h"
#include "SemaphorePage.h"

#include <QMainWindow>
#include <QSettings>
#include <QSplitter>

namespace semscope::ui {

void restoreMainWindowState(QSettings &settings, const MainWindowParts &parts) {
    QMainWindow *window = parts.window;
    const QByteArray geometry = settings.value(QStringLiteral("window/geometry")).toByteArray();
    if (geometry.isEmpty() || !window->restoreGeometry(geometry))
        resizeToFitScreen(window, QSize(1400, 860));
    else
        keepOnScreen(window); // saved on a larger screen than this one
    window->restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    const QByteArray split = settings.value(QStringLiteral("window/splitter")).toByteArray();
    if (split.isEmpty() || !parts.mainSplitter->restoreState(split))
        // The page gets the larger share: its holder table must show holder, TTL and state even at
        // 1024 px; the list keeps its kind, name and usage, and at 1600 px its holders too.
        parts.mainSplitter->setSizes({620, 980});
    if (!parts.leftSplitter->restoreState(
            settings.value(QStringLiteral("window/leftSplitter")).toByteArray()))
        parts.leftSplitter->setSizes({110, 700});
    parts.page->restoreViewState(settings.value(QStringLiteral("window/holderHeader")).toByteArray());
    parts.page->setColumnChoices(settings.value(QStringLiteral("window/holderColumns")).toMap());
    parts.page->setIntervalMs(settings.value(QStringLiteral("window/refreshMs"), 1000).toInt());
}

void saveMainWindowState(QSettings &settings, const MainWindowParts &parts) {
    settings.setValue(QStringLiteral("window/geometry"), parts.window->saveGeometry());
    settings.setValue(QStringLiteral("window/state"), parts.window->saveState());
    settings.setValue(QStringLiteral("window/splitter"), parts.mainSplitter->saveState());
    settings.setValue(QStringLiteral("window/leftSplitter"), parts.leftSplitter->saveState());
    settings.setValue(QStringLiteral("window/holderHeader"), parts.page->saveViewState());
    settings.setValue(QStringLiteral("window/holderColumns"), parts.page->columnChoices());
    settings.setValue(QStringLiteral("window/refreshMs"), parts.page->intervalMs());
    if (const QByteArray header = parts.list->saveHeaderState(); !header.isEmpty())
        settings.setValue(QStringLiteral("window/semaphoreHeader"), header);
}

} // namespace semscope::ui
