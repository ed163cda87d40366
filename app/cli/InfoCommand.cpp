// `semscope-cli info`: what Redis is there: version, role, clients, memory.
#include "CliCommand.h"
#include "CliContext.h"
#include "RedisOptions.h"
#include "redis/RedisConnection.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QMap>

namespace semscope::cli {

namespace {

// INFO's "key:value" lines (sections and comments skipped).
QMap<QString, QString> parseInfo(const QByteArray &text) {
    QMap<QString, QString> fields;
    for (const QByteArray &rawLine : text.split('\n')) {
        const QByteArray line = rawLine.trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            fields.insert(QString::fromUtf8(line.left(colon)), QString::fromUtf8(line.mid(colon + 1)));
    }
    return fields;
}

QJsonValue integerOrNull(const QMap<QString, QString> &fields, const QString &key) {
    bool ok = false;
    const qint64 v = fields.value(key).toLongLong(&ok);
    return ok ? QJsonValue(v) : QJsonValue();
}

QJsonValue stringOrNull(const QMap<QString, QString> &fields, const QString &key) {
    return fields.contains(key) ? QJsonValue(fields.value(key)) : QJsonValue();
}

class InfoCommand : public CliCommand {
public:
    QString name() const override { return QStringLiteral("info"); }
    QString summary() const override {
        return QStringLiteral("Show the --redis server's version, role, connected clients and used memory.");
    }

    void start(CliContext &ctx) override {
        // A word after the command is a mistake (a name meant for show?), not something to ignore.
        if (!ctx.args().isEmpty()) {
            ctx.fail(
                ExitUsage, {},
                QStringLiteral("info takes no arguments (got '%1')").arg(ctx.args().join(QLatin1Char(' '))));
            return;
        }
        QString error;
        auto settings = redisSettingsFromOptions(ctx, &error);
        if (!settings) {
            ctx.fail(ExitUsage, {}, error);
            return;
        }
        settings->autoReconnect = false;
        m_connection = std::make_unique<redis::RedisConnection>(*settings);
        QObject::connect(m_connection.get(), &redis::RedisConnection::warning, m_connection.get(),
                         [&ctx](const QString &message) {
                             ctx.err() << "semscope-cli: warning: " << message << '\n';
                             ctx.err().flush();
                         });
        m_connection->open();
        const QString endpoint = m_connection->endpoint();
        // Plain INFO: its default sections hold all we show, and servers before 7.0 take only
        // one section name.
        redis::RedisConnection *connection = m_connection.get();
        m_connection->command(
            {QByteArrayLiteral("INFO")}, [&ctx, endpoint, connection](const redis::RedisReply &reply) {
                if (reply.isTransportError()) {
                    ctx.fail(ExitUsage, {}, reply.errorMessage());
                    return;
                }
                if (reply.isServerError()) {
                    ctx.fail(ExitFailed, endpoint, QStringLiteral("INFO refused: ") + reply.errorMessage());
                    return;
                }
                if (!reply.isString()) {
                    ctx.fail(ExitUsage, endpoint, QStringLiteral("INFO answered with ") + reply.describe());
                    return;
                }
                // Through Sentinel the endpoint names the group; say which master answered.
                const QString node =
                    connection->settings().usesSentinel() ? connection->lastServingNode() : QString();
                print(ctx, endpoint, node, parseInfo(reply.str));
                ctx.finish(ExitOk);
            });
    }

private:
    static void print(CliContext &ctx, const QString &endpoint, const QString &node,
                      const QMap<QString, QString> &f) {
        const QString unknown = QStringLiteral("(not reported)");
        if (ctx.json()) {
            QJsonObject o{
                {QStringLiteral("endpoint"), endpoint},
                {QStringLiteral("version"), stringOrNull(f, QStringLiteral("redis_version"))},
                {QStringLiteral("mode"), stringOrNull(f, QStringLiteral("redis_mode"))},
                {QStringLiteral("role"), stringOrNull(f, QStringLiteral("role"))},
                {QStringLiteral("connectedClients"), integerOrNull(f, QStringLiteral("connected_clients"))},
                {QStringLiteral("usedMemoryBytes"), integerOrNull(f, QStringLiteral("used_memory"))},
                {QStringLiteral("usedMemoryHuman"), stringOrNull(f, QStringLiteral("used_memory_human"))},
                {QStringLiteral("uptimeSeconds"), integerOrNull(f, QStringLiteral("uptime_in_seconds"))},
            };
            if (!node.isEmpty())
                o.insert(QStringLiteral("master"), node);
            ctx.printJson(o);
            return;
        }
        QString memory = f.value(QStringLiteral("used_memory_human"), unknown);
        if (f.contains(QStringLiteral("used_memory")))
            memory += QStringLiteral(" (%1 bytes)").arg(f.value(QStringLiteral("used_memory")));
        QString role = f.value(QStringLiteral("role"), unknown);
        if (f.contains(QStringLiteral("redis_mode")))
            role += QStringLiteral(" (%1)").arg(f.value(QStringLiteral("redis_mode")));
        QTextStream &out = ctx.out();
        out << "Server:            " << endpoint << '\n';
        if (!node.isEmpty())
            out << "Master:            " << node << " (named by the sentinels)\n";
        out << "Version:           " << f.value(QStringLiteral("redis_version"), unknown) << '\n'
            << "Role:              " << role << '\n'
            << "Connected clients: " << f.value(QStringLiteral("connected_clients"), unknown) << '\n'
            << "Used memory:       " << memory << '\n';
    }

    std::unique_ptr<redis::RedisConnection> m_connection;
};

} // namespace

std::unique_ptr<CliCommand> makeInfoCommand() {
    return std::make_unique<InfoCommand>();
}

} // namespace semscope::cli
