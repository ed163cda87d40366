#pragma once

#include "redis/ConnectionSettings.h"

#include <QByteArray>
#include <QObject>
#include <QString>

class QIODevice;
class QLocalSocket;
class QSslSocket;
class QTcpSocket;

namespace semscope::redis {

// The byte pipe under a RedisConnection: QTcpSocket, QSslSocket (CA file, client certificate and
// key, SNI, optional skip-verify) or QLocalSocket, behind one small interface. It knows nothing
// about RESP. One object is reused for every (re)connect of its connection.
//
// Reasons in failed() say what went wrong ("connection refused", "TLS handshake failed: ...")
// without the endpoint; the connection adds it.
class SocketTransport : public QObject {
    Q_OBJECT
public:
    explicit SocketTransport(const ConnectionSettings &settings, QObject *parent = nullptr);
    ~SocketTransport() override;

    // Starts connecting; ends in ready() or failed(). Any earlier connection is dropped first.
    void connectToServer();
    // Where the next connectToServer() goes (TCP/TLS): a Sentinel master moves between attempts.
    void setTarget(const QString &host, quint16 port);
    // Drops the connection at once; no signal follows.
    void abort();
    bool isActive() const { return m_active; }
    // Connected over TCP, waiting for the server's side of the TLS handshake.
    bool awaitingTlsHandshake() const;

    void write(const QByteArray &bytes);
    QByteArray readAll();

Q_SIGNALS:
    void ready(); // connected (and, for TLS, the handshake is done)
    void readyRead();
    void failed(const QString &reason);
    void warning(const QString &message);

private:
    void fail(const QString &reason);
    void failLater(const QString &reason);
    bool configureTls(QString *error);
    void onSocketError();
    void onDisconnected();
    void tuneTcp();

    ConnectionSettings m_settings;
    QTcpSocket *m_tcp = nullptr; // also the QSslSocket for TLS
    QSslSocket *m_ssl = nullptr;
    QLocalSocket *m_local = nullptr;
    QIODevice *m_device = nullptr;
    QString m_sslErrors;
    bool m_active = false;
    bool m_ready = false;
    quint64 m_attempt = 0;
};

} // namespace semscope::redis
