#include "SocketTransport.h"

#include "Logging.h"

#include <QFile>
#include <QHash>
#include <QLocalSocket>
#include <QMutex>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTimer>
#include <optional>

namespace semscope::redis {

namespace {

QString describeSocketError(QAbstractSocket::SocketError error, const QString &qtText) {
    switch (error) {
    case QAbstractSocket::ConnectionRefusedError:
        return QStringLiteral("connection refused");
    case QAbstractSocket::RemoteHostClosedError:
        return QStringLiteral("connection closed by the server");
    case QAbstractSocket::HostNotFoundError:
        return QStringLiteral("host not found");
    case QAbstractSocket::SocketTimeoutError:
        return QStringLiteral("socket timed out");
    case QAbstractSocket::NetworkError:
        return QStringLiteral("network error: ") + qtText;
    default:
        return qtText;
    }
}

QString describeLocalError(QLocalSocket::LocalSocketError error, const QString &qtText) {
    switch (error) {
    case QLocalSocket::ConnectionRefusedError:
        return QStringLiteral("connection refused");
    case QLocalSocket::PeerClosedError:
        return QStringLiteral("connection closed by the server");
    case QLocalSocket::ServerNotFoundError:
        return QStringLiteral("no Unix socket there");
    case QLocalSocket::SocketAccessError:
        return QStringLiteral("permission denied");
    default:
        return qtText;
    }
}

std::optional<QSslKey> readKey(const QString &path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray pem = file.readAll();
    // Each failed guess leaves an error on the thread's OpenSSL error queue, where a TLS read of
    // another connection of this thread then finds it and fails ("Error while reading: ... expecting
    // an rsa key"): a Cluster opens node connections while others are reading. So a key is parsed
    // once per process (the first connection's handshake clears the queue), and the PEM header
    // picks the first guess.
    static QMutex mutex;
    static QHash<QByteArray, QSslKey> parsed;
    const QMutexLocker lock(&mutex);
    if (const auto it = parsed.constFind(pem); it != parsed.constEnd())
        return *it;
    QList<QSsl::KeyAlgorithm> order{QSsl::Rsa, QSsl::Ec, QSsl::Dsa};
    if (pem.contains("BEGIN EC PRIVATE KEY"))
        order = {QSsl::Ec, QSsl::Rsa, QSsl::Dsa};
    else if (pem.contains("BEGIN DSA PRIVATE KEY"))
        order = {QSsl::Dsa, QSsl::Rsa, QSsl::Ec};
    for (const QSsl::KeyAlgorithm algorithm : order) {
        QSslKey key(pem, algorithm, QSsl::Pem, QSsl::PrivateKey);
        if (!key.isNull()) {
            if (parsed.size() < 64)
                parsed.insert(pem, key);
            return key;
        }
    }
    return std::nullopt;
}

} // namespace

SocketTransport::SocketTransport(const ConnectionSettings &settings, QObject *parent)
    : QObject(parent)
    , m_settings(settings) {
    switch (settings.transport) {
    case ConnectionSettings::Transport::Unix:
        m_local = new QLocalSocket(this);
        m_device = m_local;
        connect(m_local, &QLocalSocket::connected, this, [this]() {
            if (m_active && !m_ready) {
                m_ready = true;
                Q_EMIT ready();
            }
        });
        connect(m_local, &QLocalSocket::errorOccurred, this, [this]() { onSocketError(); });
        connect(m_local, &QLocalSocket::disconnected, this, [this]() { onDisconnected(); });
        break;
    case ConnectionSettings::Transport::Tls:
        m_ssl = new QSslSocket(this);
        m_tcp = m_ssl;
        m_device = m_ssl;
        connect(m_ssl, &QSslSocket::encrypted, this, [this]() {
            if (m_active && !m_ready) {
                m_ready = true;
                tuneTcp();
                Q_EMIT ready();
            }
        });
        connect(m_ssl, &QSslSocket::sslErrors, this, [this](const QList<QSslError> &errors) {
            QStringList texts;
            for (const QSslError &e : errors)
                texts << e.errorString();
            m_sslErrors = texts.join(QStringLiteral("; "));
        });
        break;
    case ConnectionSettings::Transport::Tcp:
        m_tcp = new QTcpSocket(this);
        m_device = m_tcp;
        connect(m_tcp, &QTcpSocket::connected, this, [this]() {
            if (m_active && !m_ready) {
                m_ready = true;
                tuneTcp();
                Q_EMIT ready();
            }
        });
        break;
    }
    if (m_tcp) {
        connect(m_tcp, &QAbstractSocket::errorOccurred, this, [this]() { onSocketError(); });
        connect(m_tcp, &QAbstractSocket::disconnected, this, [this]() { onDisconnected(); });
    }
    connect(m_device, &QIODevice::readyRead, this, [this]() {
        if (m_active)
            Q_EMIT readyRead();
    });
}

SocketTransport::~SocketTransport() {
    m_active = false;
    // The sockets are children; abort them first so their destructors emit nothing we handle.
    if (m_tcp)
        m_tcp->abort();
    if (m_local)
        m_local->abort();
}

void SocketTransport::connectToServer() {
    abort();
    m_active = true;
    m_ready = false;
    m_sslErrors.clear();
    ++m_attempt;
    switch (m_settings.transport) {
    case ConnectionSettings::Transport::Unix:
        m_local->connectToServer(m_settings.socketPath);
        break;
    case ConnectionSettings::Transport::Tcp:
        m_tcp->connectToHost(m_settings.host, m_settings.port);
        break;
    case ConnectionSettings::Transport::Tls: {
        QString error;
        if (!configureTls(&error)) {
            failLater(error);
            return;
        }
        if (m_settings.tlsInsecure) {
            Q_EMIT warning(QStringLiteral(
                "TLS certificate verification is disabled: the server's identity is not checked"));
            if (!m_active)
                return;
        }
        const QString peerName = m_settings.sniHost.isEmpty() ? m_settings.host : m_settings.sniHost;
        m_ssl->connectToHostEncrypted(m_settings.host, m_settings.port, peerName);
        break;
    }
    }
}

bool SocketTransport::configureTls(QString *error) {
    if (!QSslSocket::supportsSsl()) {
        *error = QStringLiteral("TLS is not available (no TLS backend for Qt)");
        return false;
    }
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    if (!m_settings.caFile.isEmpty()) {
        if (!QFile::exists(m_settings.caFile)) {
            *error = QStringLiteral("cannot read CA file %1").arg(m_settings.caFile);
            return false;
        }
        const QList<QSslCertificate> cas = QSslCertificate::fromPath(m_settings.caFile, QSsl::Pem);
        if (cas.isEmpty()) {
            *error = QStringLiteral("no PEM certificate in CA file %1").arg(m_settings.caFile);
            return false;
        }
        config.setCaCertificates(cas);
    }
    if (m_settings.certFile.isEmpty() != m_settings.keyFile.isEmpty()) {
        *error = QStringLiteral("a client certificate needs both a certificate and a key file");
        return false;
    }
    if (!m_settings.certFile.isEmpty()) {
        const QList<QSslCertificate> certs = QSslCertificate::fromPath(m_settings.certFile, QSsl::Pem);
        if (certs.isEmpty()) {
            *error =
                QStringLiteral("no PEM certificate in client certificate file %1").arg(m_settings.certFile);
            return false;
        }
        const auto key = readKey(m_settings.keyFile);
        if (!key) {
            *error = QStringLiteral(
                         "cannot read client key %1 (an unencrypted PEM RSA, EC or DSA key is expected)")
                         .arg(m_settings.keyFile);
            return false;
        }
        config.setLocalCertificate(certs.constFirst());
        config.setPrivateKey(*key);
    }
    config.setPeerVerifyMode(m_settings.tlsInsecure ? QSslSocket::VerifyNone : QSslSocket::VerifyPeer);
    m_ssl->setSslConfiguration(config);
    return true;
}

void SocketTransport::tuneTcp() {
    // Small commands go out at once (pipelining batches them anyway), and keep-alive lets an idle
    // subscriber notice a peer that vanished without closing.
    m_tcp->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    m_tcp->setSocketOption(QAbstractSocket::KeepAliveOption, 1);
}

void SocketTransport::setTarget(const QString &host, quint16 port) {
    m_settings.host = host;
    m_settings.port = port;
}

void SocketTransport::abort() {
    m_active = false;
    m_ready = false;
    if (m_tcp)
        m_tcp->abort();
    if (m_local)
        m_local->abort();
}

void SocketTransport::write(const QByteArray &bytes) {
    if (!m_active)
        return;
    m_device->write(bytes);
    // Write-through: the bytes go to the kernel now, not when control returns to the event loop. A
    // callback that issues a command while later replies of the same read are still to be handled
    // lets the server start on it meanwhile; held back to the end of the pass, client and server took
    // turns (a contended load test on one connection ran at about 22k pairs/s instead of 39k,
    // depending on which cores the two processes landed on). A busy server still reads many commands
    // per read: they pile up in the socket meanwhile.
    if (m_tcp)
        m_tcp->flush(); // also the QSslSocket
    else if (m_local)
        m_local->flush();
}

QByteArray SocketTransport::readAll() {
    return m_device->readAll();
}

void SocketTransport::fail(const QString &reason) {
    if (!m_active)
        return;
    // Whatever the server sent before it went away (e.g. "-ERR max number of clients reached")
    // is still worth reading.
    if (m_ready && m_device->bytesAvailable() > 0) {
        Q_EMIT readyRead();
        if (!m_active)
            return;
    }
    m_active = false;
    m_ready = false;
    Q_EMIT failed(reason);
}

void SocketTransport::failLater(const QString &reason) {
    // Failures found before any I/O are still reported from the event loop, like every other
    // failure, so a caller never sees a callback inside its own call.
    const quint64 attempt = m_attempt;
    QTimer::singleShot(0, this, [this, attempt, reason]() {
        if (attempt == m_attempt)
            fail(reason);
    });
}

void SocketTransport::onSocketError() {
    if (!m_active)
        return;
    if (m_local) {
        fail(describeLocalError(m_local->error(), m_local->errorString()));
        return;
    }
    const auto error = m_tcp->error();
    if (m_ssl && !m_ready &&
        (error == QAbstractSocket::SslHandshakeFailedError ||
         error == QAbstractSocket::RemoteHostClosedError || error == QAbstractSocket::SslInternalError ||
         error == QAbstractSocket::SslInvalidUserDataError)) {
        const QString detail = m_sslErrors.isEmpty() ? m_ssl->errorString() : m_sslErrors;
        fail(QStringLiteral("TLS handshake failed: ") + detail);
        return;
    }
    fail(describeSocketError(error, m_tcp->errorString()));
}

bool SocketTransport::awaitingTlsHandshake() const {
    return m_active && !m_ready && m_ssl && m_ssl->state() == QAbstractSocket::ConnectedState;
}

void SocketTransport::onDisconnected() {
    if (m_active)
        fail(QStringLiteral("connection closed by the server"));
}

} // namespace semscope::redis
