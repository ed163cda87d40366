#pragma once

#include <QMap>
#include <QString>
#include <QStringList>

namespace semscope::test {

struct CliRun {
    int exitCode = -1; // -1: crashed or did not finish in time
    QString out;
    QString err;
};

// Runs $SEMSCOPE_CLI with `args` (and `env` on top of this process's environment, without
// CONSUL_HTTP_ADDR and REDISCLI_AUTH) while this thread's event loop keeps running, so a server
// written in the test can answer it meanwhile.
// `timeoutMs`: how long the run may take before it is killed (exit code -1, and `err` says so); more
// than any deadline the test itself gives the CLI.
CliRun runCliServing(const QStringList &args, const QMap<QString, QString> &env = {}, int timeoutMs = 30000);

} // namespace semscope::test
