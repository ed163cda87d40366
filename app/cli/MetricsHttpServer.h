#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QObject>
#include <QString>
#include <functional>

class QTcpServer;
class QTcpSocket;

namespace semscope::cli {

// The HTTP side of `serve --metrics`: a deliberately small HTTP/1.1 responder on QTcpServer. It
// answers GET (and HEAD) of /metrics from `metrics()` — which hands back text already rendered,
// so a scrape never starts a read — and /-/healthy for liveness; every other path is 404, every
// other method 405. A request head larger than kMaxRequestBytes gets 431, one that does not arrive
// within kRequestTimeoutMs is dropped, and at most kMaxConnections are served at once: a stray or
// hostile client cannot make the exporter buffer without bound. One response per connection.
class MetricsHttpServer : public QObject {
    Q_OBJECT
public:
    static constexpr qsizetype kMaxRequestBytes = 8 * 1024;
    static constexpr int kRequestTimeoutMs = 10000;
    static constexpr int kMaxConnections = 64;

    struct Body {
        QByteArray contentType;
        QByteArray data;
    };

    explicit MetricsHttpServer(std::function<Body()> metrics, QObject *parent = nullptr);
    ~MetricsHttpServer() override;

    // False with errorString() when the address cannot be bound (port in use, no such address).
    bool listen(const QHostAddress &address, quint16 port);
    QString errorString() const;
    quint16 serverPort() const;

private:
    void accept();
    void readRequest(QTcpSocket *socket);
    void respond(QTcpSocket *socket, int status, const QByteArray &reason, const QByteArray &contentType,
                 const QByteArray &body, bool withBody, const QByteArray &extraHeaders = {});

    std::function<Body()> m_metrics;
    QTcpServer *m_server = nullptr;
};

} // namespace semscope::cli
