#pragma once

#include <QWidget>

namespace semscope::ui {

// The tool windows (load test, Consul sessions, topology, holder search) are direct children of
// the main window, one per connection: asking again brings the open one back instead of opening a
// second. Finds the child T that `matches`, or makes one with `create`
// (which decides whether it is deleted on close); `prepare` runs on it before
// it is shown (so it appears already filled in); then shows and raises it.
template <typename T, typename Matches, typename Create, typename Prepare>
T *raiseToolWindow(QWidget *owner, Matches matches, Create create, Prepare prepare) {
    T *window = nullptr;
    for (T *w : owner->findChildren<T *>(Qt::FindDirectChildrenOnly)) {
        if (matches(w)) {
            window = w;
            break;
        }
    }
    if (!window)
        window = create();
    prepare(window);
    window->show();
    window->raise();
    window->activateWindow();
    return window;
}

template <typename T, typename Matches, typename Create>
T *raiseToolWindow(QWidget *owner, Matches matches, Create create) {
    return raiseToolWindow<T>(owner, matches, create, [](T *) {});
}

} // namespace semscope::ui
