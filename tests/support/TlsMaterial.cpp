#include "TlsMaterial.h"

#include <QFile>
#include <QProcess>
#include <QStringList>

namespace semscope::test {

namespace {

bool runOpenssl(const QString &dir, const QStringList &args, QString *error) {
    QProcess p;
    p.setWorkingDirectory(dir);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("openssl"), args);
    if (!p.waitForStarted(10000)) {
        *error = QStringLiteral("cannot run openssl: ") + p.errorString();
        return false;
    }
    if (!p.waitForFinished(30000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *error = QStringLiteral("openssl ") + args.join(QLatin1Char(' ')) + QStringLiteral(" failed: ") +
                 QString::fromLocal8Bit(p.readAll()).trimmed();
        return false;
    }
    return true;
}

bool writeFile(const QString &path, const QByteArray &content, QString *error) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size()) {
        *error = QStringLiteral("cannot write ") + path;
        return false;
    }
    return true;
}

// EC keys: quick to generate, which matters when every TLS test makes its own PKI.
const QStringList kNewEcKey = {QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                               QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes")};

bool issue(const QString &dir, const QString &name, const QString &cn, int serial, QString *error) {
    QStringList req = {QStringLiteral("req")};
    req << kNewEcKey << QStringList{QStringLiteral("-keyout"), name + QStringLiteral(".key"),
                                    QStringLiteral("-out"),    name + QStringLiteral(".csr"),
                                    QStringLiteral("-subj"),   QStringLiteral("/CN=") + cn};
    if (!runOpenssl(dir, req, error))
        return false;
    return runOpenssl(dir,
                      {QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                       name + QStringLiteral(".csr"), QStringLiteral("-CA"), QStringLiteral("ca.crt"),
                       QStringLiteral("-CAkey"), QStringLiteral("ca.key"), QStringLiteral("-set_serial"),
                       QString::number(serial), QStringLiteral("-days"), QStringLiteral("2"),
                       QStringLiteral("-out"), name + QStringLiteral(".crt"), QStringLiteral("-extfile"),
                       name + QStringLiteral(".ext")},
                      error);
}

} // namespace

bool TlsMaterial::generate(const QString &directory, QString *error) {
    m_dir = directory;
    QString dummy;
    if (!error)
        error = &dummy;
    QStringList ca = {QStringLiteral("req"), QStringLiteral("-x509")};
    ca << kNewEcKey
       << QStringList{QStringLiteral("-keyout"), QStringLiteral("ca.key"),
                      QStringLiteral("-out"),    QStringLiteral("ca.crt"),
                      QStringLiteral("-days"),   QStringLiteral("2"),
                      QStringLiteral("-subj"),   QStringLiteral("/CN=semscope test CA"),
                      QStringLiteral("-addext"), QStringLiteral("basicConstraints=critical,CA:TRUE"),
                      QStringLiteral("-addext"), QStringLiteral("keyUsage=critical,keyCertSign,cRLSign")};
    return runOpenssl(directory, ca, error) &&
           writeFile(directory + QStringLiteral("/server.ext"),
                     "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\nextendedKeyUsage=serverAuth\n",
                     error) &&
           writeFile(directory + QStringLiteral("/client.ext"), "extendedKeyUsage=clientAuth\n", error) &&
           issue(directory, QStringLiteral("server"), QStringLiteral("localhost"), 2, error) &&
           issue(directory, QStringLiteral("client"), QStringLiteral("semscope test client"), 3, error);
}

} // namespace semscope::test
