#pragma once

#include "redis/ConnectionSettings.h"

#include <QObject>
#include <QString>
#include <functional>
#include <memory>

namespace semscope::ui {

// A redis-server of the training page's own for one run (its default target), so that a scenario's
// keys never land on a shared server. The page only asks for one and reads where it listens:
// launching the process is the app's (app/privateredis, on top of localredis/), so the widget
// library holds no code that starts processes; tests wire the same real one.
class PrivateRedisServer : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // Starts it without blocking: ready() or failed() follows from the event loop. `label` names the
    // server in what failed() says.
    virtual void start(const QString &label) = 0;
    virtual bool isReady() const = 0;
    virtual qint64 pid() const = 0;
    virtual quint16 port() const = 0;
    // Plain TCP settings to reach it.
    virtual redis::ConnectionSettings settings() const = 0;

Q_SIGNALS:
    void ready();
    void failed(const QString &message);
};

// Makes a server, not started yet. Deleting it stops the process by its PID and removes its folder,
// and with it every key the run wrote. Empty: this program cannot start one (the page says so).
using PrivateRedisLauncher = std::function<std::unique_ptr<PrivateRedisServer>()>;

} // namespace semscope::ui
