#include "MetricsHttpServer.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

namespace semscope::cli {

MetricsHttpServer::MetricsHttpServer(std::function<Body()> metrics, QObject *parent)
    : QObject(parent)
    , m_metrics(std::move(metrics))
    , m_server(new QTcpServer(this)) {
    connect(m_server, &QTcpServer::newConnection, this, &MetricsHttpServer::accept);
}

MetricsHttpServer::~MetricsHttpServer() = default;

bool MetricsHttpServer::listen(const QHostAddress &address, quint16 port) {
    return m_server->listen(address, port);
}

QString MetricsHttpServer::errorString() const {
    return m_server->errorString();
}

quint16 MetricsHttpServer::serverPort() const {
    return m_server->serverPort();
}

void MetricsHttpServer::accept() {
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        // Accepted sockets are children of the server until they are deleted.
        if (m_server->findChildren<QTcpSocket *>(Qt::FindDirectChildrenOnly).size() > kMaxConnections) {
            socket->abort();
            socket->deleteLater();
            continue;
        }
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { readRequest(socket); });
        // A client that never finishes its request does not keep a connection for ever.
        QTimer::singleShot(kRequestTimeoutMs, socket, [socket] {
            socket->abort();
            socket->deleteLater();
        });
    }
}

void MetricsHttpServer::readRequest(QTcpSocket *socket) {
    if (socket->property("answered").toBool()) {
        socket->readAll(); // one response per connection; anything after it is ignored
        return;
    }
    // The head is kept in the socket's buffer until it is complete (or too large).
    const QByteArray pending = socket->peek(kMaxRequestBytes + 1);
    const qsizetype headEnd = pending.indexOf("\r\n\r\n");
    if (headEnd < 0) {
        if (pending.size() > kMaxRequestBytes)
            respond(socket, 431, "Request Header Fields Too Large", "text/plain; charset=utf-8",
                    "request head too large\n", true);
        return;
    }
    const QByteArray head = socket->read(headEnd + 4);
    const QByteArray requestLine = head.left(head.indexOf("\r\n"));
    const QList<QByteArray> parts = requestLine.split(' ');
    if (parts.size() != 3 || !parts.at(2).startsWith("HTTP/1.")) {
        respond(socket, 400, "Bad Request", "text/plain; charset=utf-8", "malformed request line\n", true);
        return;
    }
    const QByteArray &method = parts.at(0);
    const bool headOnly = method == "HEAD";
    if (method != "GET" && !headOnly) {
        respond(socket, 405, "Method Not Allowed", "text/plain; charset=utf-8", "only GET is served\n", true,
                "Allow: GET, HEAD\r\n");
        return;
    }
    QByteArray path = parts.at(1);
    if (const qsizetype query = path.indexOf('?'); query >= 0)
        path.truncate(query);
    if (path == "/metrics") {
        const Body body = m_metrics();
        respond(socket, 200, "OK", body.contentType, body.data, !headOnly);
    } else if (path == "/-/healthy") {
        respond(socket, 200, "OK", "text/plain; charset=utf-8", "semscope exporter is healthy.\n", !headOnly);
    } else {
        respond(socket, 404, "Not Found", "text/plain; charset=utf-8",
                "not found: semscope serves /metrics and /-/healthy\n", !headOnly);
    }
}

void MetricsHttpServer::respond(QTcpSocket *socket, int status, const QByteArray &reason,
                                const QByteArray &contentType, const QByteArray &body, bool withBody,
                                const QByteArray &extraHeaders) {
    socket->setProperty("answered", true);
    QByteArray response = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason + "\r\n";
    response += "Content-Type: " + contentType + "\r\n";
    response += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    response += extraHeaders;
    response += "Connection: close\r\n\r\n";
    if (withBody)
        response += body;
    socket->write(response);
    socket->disconnectFromHost(); // after the bytes are written; `disconnected` deletes it
}

} // namespace semscope::cli
