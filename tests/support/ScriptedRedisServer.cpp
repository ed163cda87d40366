#include "ScriptedRedisServer.h"

#include "redis/transport/ReplyReader.h"

#include <QSemaphore>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

namespace semscope::test {

namespace {

// The next complete command the client sent (a RESP array of bulk strings, read like every reply),
// std::nullopt while it is incomplete.
std::optional<QList<QByteArray>> takeCommand(redis::ReplyReader &commands) {
    const std::optional<redis::RedisReply> command = commands.next();
    if (!command)
        return std::nullopt;
    QList<QByteArray> args;
    for (const redis::RedisReply &arg : command->elements)
        args << arg.str;
    return args;
}

} // namespace

class ScriptedRedisServer::Worker : public QObject {
public:
    explicit Worker(Answer answer)
        : m_answer(std::move(answer)) {}

    quint16 listen() {
        m_server = new QTcpServer(this);
        m_server->listen(QHostAddress::LocalHost, 0);
        connect(m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server->nextPendingConnection())
                serve(s);
        });
        return m_server->serverPort();
    }

private:
    // Per client: what it sent and has not been answered yet, in order.
    struct Client {
        redis::ReplyReader commands;
        std::optional<QList<QByteArray>> deferred; // answered "not yet": asked again shortly
        int index = 0;
        bool retryScheduled = false;
    };

    void serve(QTcpSocket *socket) {
        auto client = std::make_shared<Client>();
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QTcpSocket::readyRead, socket, [this, socket, client] {
            client->commands.feed(socket->readAll());
            answer(socket, client);
        });
    }

    void answer(QTcpSocket *socket, const std::shared_ptr<Client> &client) {
        while (true) {
            if (!client->deferred)
                client->deferred = takeCommand(client->commands);
            if (!client->deferred)
                return;
            const std::optional<QByteArray> reply = m_answer(*client->deferred, client->index);
            if (reply && *reply == notYet()) {
                if (!client->retryScheduled) {
                    client->retryScheduled = true;
                    QTimer::singleShot(5, socket, [this, socket, client] {
                        client->retryScheduled = false;
                        answer(socket, client);
                    });
                }
                return;
            }
            client->deferred.reset();
            ++client->index;
            if (!reply) {
                socket->abort();
                return;
            }
            socket->write(*reply);
        }
    }

    Answer m_answer;
    QTcpServer *m_server = nullptr;
};

ScriptedRedisServer::ScriptedRedisServer(Answer answer)
    : m_worker(new Worker(std::move(answer))) {
    m_worker->moveToThread(&m_thread);
    QObject::connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
    QSemaphore ready;
    QMetaObject::invokeMethod(m_worker, [this, &ready] {
        m_port = m_worker->listen();
        ready.release();
    });
    ready.acquire();
}

ScriptedRedisServer::~ScriptedRedisServer() {
    m_thread.quit();
    m_thread.wait();
}

QByteArray ScriptedRedisServer::notYet() {
    return QByteArrayLiteral("\0scripted: not yet");
}

QString ScriptedRedisServer::url() const {
    return QStringLiteral("redis://127.0.0.1:%1").arg(m_port);
}

ScriptedRedisServer::Answer ScriptedRedisServer::afterHandshake(Answer rest) {
    return
        [rest = std::move(rest)](const QList<QByteArray> &command, int index) -> std::optional<QByteArray> {
            const QByteArray name = command.value(0).toUpper();
            const bool handshake = name == "AUTH" || name == "SELECT" ||
                                   (name == "CLIENT" && command.value(1).toUpper() == "SETNAME");
            if (handshake)
                return QByteArrayLiteral("+OK\r\n");
            return rest(command, index);
        };
}

ScriptedRedisServer::Answer ScriptedRedisServer::sentinel(std::function<quint16()> masterPort) {
    return afterHandshake([masterPort = std::move(masterPort)](const QList<QByteArray> &command,
                                                               int) -> std::optional<QByteArray> {
        const QByteArray name = command.value(0).toUpper();
        if (name == "SENTINEL") {
            const QByteArray port = QByteArray::number(masterPort());
            return "*2\r\n$9\r\n127.0.0.1\r\n$" + QByteArray::number(port.size()) + "\r\n" + port + "\r\n";
        }
        if (name == "SUBSCRIBE")
            return QByteArrayLiteral("*3\r\n$9\r\nsubscribe\r\n$14\r\n+switch-master\r\n:1\r\n");
        return QByteArrayLiteral("-ERR unknown command\r\n");
    });
}

} // namespace semscope::test
