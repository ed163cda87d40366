// `semscope-cli ping`: can we reach the Redis server, log in and get an answer, and how fast.
#include "CliCommand.h"
#include "CliContext.h"
#include "RedisOptions.h"
#include "redis/RedisConnection.h"

#include <QElapsedTimer>
#include <QJsonObject>

namespace semscope::cli {

namespace {

// +PONG, or a bulk "PONG" as some proxies send it.
bool isPong(const redis::RedisReply &reply) {
    return reply.isString() && reply.str == "PONG";
}

class PingCommand : public CliCommand {
public:
    QString name() const override { return QStringLiteral("ping"); }
    QString summary() const override {
        return QStringLiteral("Connect to --redis (TLS, AUTH, SELECT included) and time one PING.");
    }

    void start(CliContext &ctx) override {
        // A word after the command is a mistake (a name meant for show?), not something to ignore.
        if (!ctx.args().isEmpty()) {
            ctx.fail(
                ExitUsage, {},
                QStringLiteral("ping takes no arguments (got '%1')").arg(ctx.args().join(QLatin1Char(' '))));
            return;
        }
        QString error;
        auto settings = redisSettingsFromOptions(ctx, &error);
        if (!settings) {
            ctx.fail(ExitUsage, {}, error);
            return;
        }
        settings->autoReconnect = false; // one attempt: report it rather than wait it out
        m_connection = std::make_unique<redis::RedisConnection>(*settings);
        QObject::connect(m_connection.get(), &redis::RedisConnection::warning, m_connection.get(),
                         [&ctx](const QString &message) {
                             ctx.err() << "semscope-cli: warning: " << message << '\n';
                             ctx.err().flush();
                         });
        // PING only once the handshake is done, so the time is one round trip and nothing else.
        // A failed connect (refused, TLS, AUTH...) is reported once, with the reason.
        QObject::connect(m_connection.get(), &redis::RedisConnection::connected, m_connection.get(),
                         [this, &ctx]() { ping(ctx); });
        QObject::connect(m_connection.get(), &redis::RedisConnection::connectionLost, m_connection.get(),
                         [this, &ctx](const QString &reason) {
                             // Reconnecting: the sentinels are asked again (see StoreFromOptions).
                             if (!ctx.finished() &&
                                 m_connection->state() != redis::RedisConnection::State::Reconnecting)
                                 ctx.fail(ExitUsage, {}, reason);
                         });
        m_connection->open();
    }

private:
    void ping(CliContext &ctx) {
        auto timer = std::make_shared<QElapsedTimer>();
        timer->start();
        const QString endpoint = m_connection->endpoint();
        // Through Sentinel the endpoint names the group; say which master answered.
        const QString node =
            m_connection->settings().usesSentinel() ? m_connection->servingNode() : QString();
        m_connection->command(
            {QByteArrayLiteral("PING")}, [&ctx, timer, endpoint, node](const redis::RedisReply &reply) {
                if (ctx.finished())
                    return;
                const double ms = double(timer->nsecsElapsed()) / 1e6;
                if (reply.isTransportError()) {
                    ctx.fail(ExitUsage, {}, reply.errorMessage());
                    return;
                }
                if (reply.isServerError()) {
                    ctx.fail(ExitFailed, endpoint, reply.errorMessage());
                    return;
                }
                if (!isPong(reply)) {
                    // Not Redis, or not a well one: anything but PONG is no proof of a working server.
                    ctx.fail(ExitUsage, endpoint,
                             QStringLiteral("protocol error: PING was answered with %1, not PONG")
                                 .arg(reply.describe().left(80)));
                    return;
                }
                if (ctx.json()) {
                    QJsonObject o{{QStringLiteral("endpoint"), endpoint},
                                  {QStringLiteral("reply"), QString::fromUtf8(reply.str)},
                                  {QStringLiteral("roundTripMs"), ms}};
                    if (!node.isEmpty())
                        o.insert(QStringLiteral("master"), node);
                    ctx.printJson(o);
                } else {
                    ctx.out() << QString::fromUtf8(reply.str) << " from " << endpoint
                              << (node.isEmpty() ? QString() : QStringLiteral(" (master %1)").arg(node))
                              << " in " << QString::number(ms, 'f', 2) << " ms\n";
                }
                ctx.finish(ExitOk);
            });
    }

    std::unique_ptr<redis::RedisConnection> m_connection;
};

} // namespace

std::unique_ptr<CliCommand> makePingCommand() {
    return std::make_unique<PingCommand>();
}

} // namespace semscope::cli
