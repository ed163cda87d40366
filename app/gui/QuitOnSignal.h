#pragma once

#include <QObject>

class QSocketNotifier;

namespace semscope::app {

// Turns SIGTERM/SIGINT/SIGHUP into a normal QApplication::quit(), so `kill <pid>` or Ctrl+C still
// runs the clean shutdown (the demo's redis-server is stopped, window state saved). The handler only
// writes a byte to a socket pair (async-signal-safe); the event loop does the rest.
class QuitOnSignal : public QObject {
    Q_OBJECT
public:
    explicit QuitOnSignal(QObject *parent = nullptr);
    ~QuitOnSignal() override;

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace semscope::app
