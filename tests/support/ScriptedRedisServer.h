#pragma once

#include <QByteArray>
#include <QList>
#include <QThread>
#include <functional>
#include <memory>
#include <optional>

namespace semscope::test {

// A fake Redis server on a free loopback port, for transport and hostile-input tests only (real
// behaviour is tested against redis-server). It reads RESP commands and asks `answer` for each
// reply; an answer of std::nullopt closes that client's connection. It runs on its own thread, so a
// test may block (QProcess::waitForFinished on semscope-cli) while it serves.
class ScriptedRedisServer {
public:
    // `answer` runs on the server thread with the command's arguments and how many commands this
    // connection sent before it (0 for the first).
    using Answer = std::function<std::optional<QByteArray>(const QList<QByteArray> &command, int index)>;

    explicit ScriptedRedisServer(Answer answer);

    // An answer that is not ready: the same command is asked again a few ms later, and nothing
    // after it on that connection is read meanwhile (the server keeps serving other connections).
    static QByteArray notYet();
    ~ScriptedRedisServer();

    quint16 port() const { return m_port; }
    QString url() const;

    // Replies "+OK" to the handshake semscope sends first (AUTH, SELECT, CLIENT SETNAME) and hands
    // everything else to `rest`.
    static Answer afterHandshake(Answer rest);
    // A sentinel that names 127.0.0.1:masterPort() as the master whenever asked (it may lie: a
    // sentinel behind a failover), acknowledges SUBSCRIBE and refuses anything else. masterPort runs
    // on the server thread.
    static Answer sentinel(std::function<quint16()> masterPort);

private:
    class Worker;
    QThread m_thread;
    Worker *m_worker = nullptr;
    quint16 m_port = 0;
};

} // namespace semscope::test
