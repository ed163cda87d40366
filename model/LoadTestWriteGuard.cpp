#include "LoadTestWriteGuard.h"

#include <QCoreApplication>

namespace semscope::model {

LoadTestWriteCheck checkLoadTestWrites(const ConnectionConfig &config, const QString &semaphores) {
    LoadTestWriteCheck check;
    if (config.readOnly) {
        check.verdict = LoadTestWriteCheck::Verdict::Refused;
        check.message = QCoreApplication::translate(
                            "LoadTestWriteGuard",
                            "Not started: \"%1\" is a read-only connection, and a load test writes (its "
                            "clients acquire and release %2). Use a connection that may write, for "
                            "example a staging copy.")
                            .arg(config.name, semaphores);
        return check;
    }
    if (config.isProduction()) {
        check.verdict = LoadTestWriteCheck::Verdict::NeedsConfirmation;
        check.message = QCoreApplication::translate(
                            "LoadTestWriteGuard",
                            "\"%1\" is a PRODUCTION connection (%2). The load test will acquire and release "
                            "%3 there as fast as it can, competing with the services that use it. Run it "
                            "anyway?")
                            .arg(config.name, config.endpoint(), semaphores);
    }
    return check;
}

} // namespace semscope::model
