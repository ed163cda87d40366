#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QTcpServer>
#include <functional>

class QTcpSocket;

namespace semscope::test {

// What a hostile server does once a client has sent its request: send `head`, then...
struct HostileScript {
    enum class Then {
        Wait,    // ...say nothing more and keep the connection open
        Close,   // ...close the connection
        Reset,   // ...drop it at once, its request unread (nothing of `head` is sent)
        Trickle, // ...send `tail` one byte every `intervalMs`, over and over, forever
        Endless, // ...send `tail` over and over, as fast as the client reads (64 MiB at most)
    };
    QByteArray head;
    Then then = Then::Wait;
    QByteArray tail;
    int intervalMs = 20;
};

inline HostileScript scripted(const QByteArray &head, HostileScript::Then then = HostileScript::Then::Wait,
                              const QByteArray &tail = {}, int intervalMs = 20) {
    return HostileScript{head, then, tail, intervalMs};
}

// A loopback TCP server for hostile-input tests: every connection gets the same script, or a
// handler that answers each request itself. It runs on the test's own event loop, so wait with
// the event loop running (QSignalSpy::wait, waitFor), never with a blocking call. Endless and
// trickling sends stop when the client goes away.
class HostileServer : public QObject {
public:
    // How requests are told apart: Raw takes every read as one request (a RESP client sends one
    // command and waits); Http waits for the blank line after the headers and the
    // Content-Length body.
    enum class Framing { Raw, Http };
    using Handler = std::function<void(QTcpSocket *client, const QByteArray &request)>;

    explicit HostileServer(Framing framing, QHostAddress address = QHostAddress::LocalHost,
                           QObject *parent = nullptr);

    void setScript(const HostileScript &script);
    void setHandler(Handler handler);

    quint16 port() const { return m_server.serverPort(); }
    QString address() const { return m_server.serverAddress().toString(); }
    int connections() const { return m_connections; }
    // Every request received, in order (for Http: headers and body).
    const QList<QByteArray> &requests() const { return m_requests; }

    // The script's steps, also usable from a handler.
    static void run(QTcpSocket *client, const HostileScript &script);

private:
    void onConnection();
    void onReadable(QTcpSocket *client);

    QTcpServer m_server;
    Framing m_framing;
    HostileScript m_script;
    Handler m_handler;
    int m_connections = 0;
    QList<QByteArray> m_requests;
};

} // namespace semscope::test

// For QTest data tables.
Q_DECLARE_METATYPE(semscope::test::HostileScript)
