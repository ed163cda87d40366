#include "CliRun.h"

#include "TestWait.h"

#include <QProcess>

namespace semscope::test {

CliRun runCliServing(const QStringList &args, const QMap<QString, QString> &env, int timeoutMs) {
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.remove(QStringLiteral("CONSUL_HTTP_ADDR"));
    e.remove(QStringLiteral("REDISCLI_AUTH"));
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        e.insert(it.key(), it.value());
    p.setProcessEnvironment(e);
    p.start(qEnvironmentVariable("SEMSCOPE_CLI"), args);
    CliRun run;
    if (!waitFor([&p]() { return p.state() == QProcess::NotRunning; }, timeoutMs)) {
        p.kill();
        p.waitForFinished();
        run.err = QStringLiteral("(killed: still running after %1 s) ").arg(timeoutMs / 1000) +
                  QString::fromUtf8(p.readAllStandardError());
        return run;
    }
    run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    run.out = QString::fromUtf8(p.readAllStandardOutput());
    run.err = QString::fromUtf8(p.readAllStandardError());
    return run;
}

} // namespace semscope::test
