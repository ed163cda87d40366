#pragma once

#include <QObject>
#include <functional>

class QSocketNotifier;

namespace semscope::app {

// Turns SIGTERM/SIGINT/SIGHUP into a normal quit (QApplication::quit() or the handler), so `kill <pid>` or
// Ctrl+C still runs the clean shutdown (the demo's redis-server is stopped, window state saved). The handler
// only writes a byte to a socket pair (async-signal-safe); the event loop does the rest.
class QuitOnSignal : public QObject {
    Q_OBJECT
public:
    explicit QuitOnSignal(QObject *parent = nullptr);
    ~QuitOnSignal() override;

    // What a signal does instead of QApplication::quit() (the main window's quit, which also ends
    // running load tests: a window that refuses to close would cancel a plain quit()).
    void setHandler(std::function<void()> handler) { m_handler = std::move(handler); }

private:
    QSocketNotifier *m_notifier = nullptr;
    std::function<void()> m_handler;
};

} // namespace semscope::app
