#include "LocalPrivateRedisServer.h"

namespace semscope::app {

LocalPrivateRedisServer::LocalPrivateRedisServer(QObject *parent)
    : ui::PrivateRedisServer(parent) {
    connect(&m_process, &redis::LocalRedisProcess::ready, this, &LocalPrivateRedisServer::ready);
    connect(&m_process, &redis::LocalRedisProcess::failed, this, &LocalPrivateRedisServer::failed);
}

// m_process's own destructor stops the server, by its PID, and removes its folder.
LocalPrivateRedisServer::~LocalPrivateRedisServer() = default;

void LocalPrivateRedisServer::start(const QString &label) {
    redis::LocalRedisProcess::Options options;
    options.label = label;
    m_process.start(options);
}

bool LocalPrivateRedisServer::isReady() const {
    return m_process.isReady();
}

qint64 LocalPrivateRedisServer::pid() const {
    return m_process.pid();
}

quint16 LocalPrivateRedisServer::port() const {
    return m_process.port();
}

redis::ConnectionSettings LocalPrivateRedisServer::settings() const {
    return m_process.settings();
}

ui::PrivateRedisLauncher localPrivateRedisLauncher() {
    return [] { return std::make_unique<LocalPrivateRedisServer>(); };
}

} // namespace semscope::app
