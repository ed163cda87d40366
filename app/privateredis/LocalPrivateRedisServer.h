#pragma once

#include "localredis/LocalRedisProcess.h"
#include "ui/loadtest/PrivateRedisServer.h"

namespace semscope::app {

// The training page's private redis-server: a LocalRedisProcess on a free loopback port, in a
// temporary folder of its own, stopped by its PID when this object goes.
class LocalPrivateRedisServer : public ui::PrivateRedisServer {
    Q_OBJECT
public:
    explicit LocalPrivateRedisServer(QObject *parent = nullptr);
    ~LocalPrivateRedisServer() override;

    void start(const QString &label) override;
    bool isReady() const override;
    qint64 pid() const override;
    quint16 port() const override;
    redis::ConnectionSettings settings() const override;

private:
    redis::LocalRedisProcess m_process;
};

// What the app and the GUI tests give the main window (MainWindowServices::privateRedis).
ui::PrivateRedisLauncher localPrivateRedisLauncher();

} // namespace semscope::app
