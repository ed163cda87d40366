#pragma once

#include <QString>

namespace semscope::test {

// A throw-away PKI made with the openssl command line at test time: a CA, a server certificate
// (SAN IP:127.0.0.1, IP:::1, DNS:localhost) and a client certificate, both signed by the CA.
// Two TlsMaterial objects have unrelated CAs, which is how tests make a "wrong CA".
class TlsMaterial {
public:
    // Writes ca.crt, server.crt/.key, client.crt/.key into `directory` (which must exist).
    bool generate(const QString &directory, QString *error);
    // Uses the files another TlsMaterial generated in `directory` (one PKI for a group of servers).
    void adopt(const QString &directory) { m_dir = directory; }

    QString caFile() const { return m_dir + QStringLiteral("/ca.crt"); }
    QString serverCertFile() const { return m_dir + QStringLiteral("/server.crt"); }
    QString serverKeyFile() const { return m_dir + QStringLiteral("/server.key"); }
    QString clientCertFile() const { return m_dir + QStringLiteral("/client.crt"); }
    QString clientKeyFile() const { return m_dir + QStringLiteral("/client.key"); }

private:
    QString m_dir;
};

} // namespace semscope::test
