#include "HostileServer.h"

#include <QTcpSocket>
#include <QTimer>
#include <memory>

namespace semscope::test {

namespace {

// Endless sends top the socket up to this much unsent data, so the server itself stays small.
constexpr qint64 kEndlessBacklog = 256 * 1024;
// ... and stop after this much, eight times the largest cap under test (Consul's 8 MiB answer,
// Redis' 1 MiB test limit): far past every bound, yet not a flood for ever. On loopback, Qt's HTTP
// thread in the client kept reading a truly endless answer after the client aborted it (it returns
// to its event loop, where the abort waits, only when no bytes are left): 200 MB in a sanitizer
// build, and semscope-cli's exit waited for that thread past the test's 90 s.
constexpr qint64 kEndlessTotal = 64 * 1024 * 1024;

// Length of the first complete HTTP request in `buffer`, or 0 if it is not complete yet.
qsizetype httpRequestLength(const QByteArray &buffer) {
    const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
    if (headerEnd < 0)
        return 0;
    qsizetype bodyLength = 0;
    for (const QByteArray &line : buffer.left(headerEnd).split('\n')) {
        if (line.trimmed().toLower().startsWith("content-length:"))
            bodyLength = line.mid(line.indexOf(':') + 1).trimmed().toLongLong();
    }
    const qsizetype total = headerEnd + 4 + bodyLength;
    return buffer.size() >= total ? total : 0;
}

void keepWriting(QTcpSocket *client, const QByteArray &chunk) {
    auto written = std::make_shared<qint64>(0);
    const auto topUp = [client, chunk, written]() {
        while (client->state() == QAbstractSocket::ConnectedState &&
               client->bytesToWrite() < kEndlessBacklog && *written < kEndlessTotal)
            *written += client->write(chunk);
    };
    QObject::connect(client, &QTcpSocket::bytesWritten, client, topUp);
    topUp();
}

void trickle(QTcpSocket *client, const QByteArray &bytes, int intervalMs) {
    auto *timer = new QTimer(client);
    auto next = std::make_shared<qsizetype>(0);
    QObject::connect(timer, &QTimer::timeout, client, [client, bytes, next]() {
        if (client->state() != QAbstractSocket::ConnectedState)
            return;
        client->write(bytes.mid(*next % bytes.size(), 1));
        ++*next;
    });
    timer->start(intervalMs);
}

} // namespace

HostileServer::HostileServer(Framing framing, QHostAddress address, QObject *parent)
    : QObject(parent)
    , m_framing(framing) {
    connect(&m_server, &QTcpServer::newConnection, this, &HostileServer::onConnection);
    m_server.listen(address, 0);
}

void HostileServer::setScript(const HostileScript &script) {
    m_script = script;
    m_handler = {};
}

void HostileServer::setHandler(Handler handler) {
    m_handler = std::move(handler);
}

void HostileServer::onConnection() {
    while (QTcpSocket *client = m_server.nextPendingConnection()) {
        ++m_connections;
        client->setParent(this);
        client->setProperty("pending", QByteArray());
        connect(client, &QTcpSocket::readyRead, this, [this, client]() { onReadable(client); });
        connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
    }
}

void HostileServer::onReadable(QTcpSocket *client) {
    QByteArray buffer = client->property("pending").toByteArray() + client->readAll();
    for (;;) {
        const qsizetype length = m_framing == Framing::Raw ? buffer.size() : httpRequestLength(buffer);
        if (length == 0)
            break;
        const QByteArray request = buffer.left(length);
        buffer.remove(0, length);
        m_requests.append(request);
        if (m_handler)
            m_handler(client, request);
        else
            run(client, m_script);
        if (client->state() != QAbstractSocket::ConnectedState)
            return;
    }
    client->setProperty("pending", buffer);
}

void HostileServer::run(QTcpSocket *client, const HostileScript &script) {
    if (script.then == HostileScript::Then::Reset) {
        client->abort(); // at once, with whatever the client sent still unread
        return;
    }
    if (!script.head.isEmpty())
        client->write(script.head);
    switch (script.then) {
    case HostileScript::Then::Wait:
    case HostileScript::Then::Reset:
        break;
    case HostileScript::Then::Close:
        client->disconnectFromHost();
        break;
    case HostileScript::Then::Trickle:
        trickle(client, script.tail, script.intervalMs);
        break;
    case HostileScript::Then::Endless:
        keepWriting(client, script.tail);
        break;
    }
}

} // namespace semscope::test
