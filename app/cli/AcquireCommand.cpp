#include "BusyReport.h"
#include "SemaphoreCommand.h"
#include "SnapshotJson.h"
#include "SnapshotText.h"
#include "TerminationSignals.h"
#include "core/CountText.h"
#include "core/Duration.h"
#include "core/PrintableText.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QTimer>
#include <algorithm>
#include <limits>
#include <memory>

namespace semscope::cli {

namespace {

// `acquire NAME`: takes a slot (or the lock) for --holder, waiting up to --wait. A denied acquire
// exits 1 and shows who holds the slots.
class AcquireCommand : public SemaphoreCommand {
public:
    QString name() const override { return QStringLiteral("acquire"); }
    QString summary() const override {
        return QStringLiteral(
            "Take a slot for a holder (default: a new unique id); exits 1 if all are held.");
    }
    QString usage() const override {
        return QStringLiteral(
            "NAME [--kind K] [--limit N] [--holder ID] [--ttl DUR] [--wait DUR] [--lock-key KEY] "
            "[--replicas N [--replica-timeout DUR]]");
    }
    QList<QCommandLineOption> options() const override {
        return {kindOption(),   limitOption(), timeoutOption(),  lockKeyOption(),       ttlOption(),
                holderOption(), waitOption(),  replicasOption(), replicaTimeoutOption()};
    }

protected:
    bool validate(CliContext &ctx) override {
        const std::optional<qint64> ttl = durationOption(ctx, QStringLiteral("ttl"), 30000);
        if (!ttl)
            return false;
        if (*ttl <= 0) {
            ctx.fail(ExitUsage, {}, QStringLiteral("--ttl must be positive"));
            return false;
        }
        const std::optional<qint64> wait = durationOption(ctx, QStringLiteral("wait"), 0);
        if (!wait)
            return false;
        if (!replicaOptions(ctx, &m_request.replicas, &m_request.replicaTimeoutMs))
            return false;
        m_request.ttlMs = *ttl;
        // Asked for, not the default: a store that would hold the slot longer refuses (--ttl on a
        // layout without leases, a shared timeout above it).
        m_request.ttlGiven = ctx.isSet(QStringLiteral("ttl"));
        m_request.waitMs = *wait;
        m_request.holder = ctx.value(QStringLiteral("holder"));
        armWait(ctx);
        return true;
    }

    void run(CliContext &ctx, core::SemaphoreStore &store, const core::SemaphoreRef &ref) override {
        // --wait counts from the start of the command: what finding NAME took is spent.
        m_lookupDeadline.stop();
        if (m_request.waitMs > 0)
            m_request.waitMs = std::max<qint64>(1, m_request.waitMs - m_sinceStart.elapsed());
        if (m_request.waitMs > 0)
            cancelOnTermination();
        store.acquire(ref, m_request, m_cancel, [this, &ctx, &store, ref](const core::AcquireResult &r) {
            switch (r.status) {
            case core::AcquireResult::Status::Granted:
                printGranted(ctx, r);
                ctx.finish(ExitOk);
                return;
            case core::AcquireResult::Status::Error:
                if (m_signal != 0)
                    return interrupted(ctx, store, ref);
                if (ctx.json())
                    ctx.printJson(QJsonObject{{QStringLiteral("status"), QStringLiteral("error")},
                                              {QStringLiteral("error"), r.error}});
                ctx.failOperation(store.endpoint(), r.error);
                return;
            case core::AcquireResult::Status::Busy:
                // Show the holders as one consistent read, with TTLs against server time.
                store.snapshot(
                    ref, [&ctx, &store, r](const core::Snapshot &snap) { reportBusy(ctx, store, r, snap); });
                return;
            }
        });
    }

private:
    // `--wait D` bounds the whole command: a server that does not answer while NAME is being looked
    // up (before the acquire and its own deadline start) ends it at D too.
    void armWait(CliContext &ctx) {
        m_sinceStart.start();
        if (m_request.waitMs <= 0)
            return;
        m_lookupDeadline.setSingleShot(true);
        QObject::connect(&m_lookupDeadline, &QTimer::timeout, &m_lookupDeadline, [this, &ctx]() {
            if (!ctx.finished())
                ctx.fail(ExitUsage, m_store ? m_store->endpoint() : QString(),
                         QStringLiteral("looking up %1 took longer than the --wait of %2 (--kind skips it)")
                             .arg(ctx.args().constFirst(), core::formatDurationMs(m_request.waitMs)));
        });
        m_lookupDeadline.start(int(std::min<qint64>(m_request.waitMs, std::numeric_limits<int>::max())));
    }

    // Ctrl-C or SIGTERM during a wait cancels it: the store takes the waiter out of the queue (giving
    // back a slot a release handed it meanwhile) before it answers, and only then does the process
    // end. Killed outright instead, the entry stayed in line and the next release handed the slot to
    // a process that was gone, for its whole TTL.
    void cancelOnTermination() {
        m_signals = std::make_unique<TerminationSignals>([this](int signal) {
            m_signal = signal;
            m_cancel.cancel();
        });
    }

    void interrupted(CliContext &ctx, core::SemaphoreStore &store, const core::SemaphoreRef &ref) {
        const QString message = QStringLiteral("interrupted by %1 while waiting; left the queue of %2")
                                    .arg(QLatin1String(TerminationSignals::name(m_signal)), ref.name);
        if (ctx.json())
            ctx.printJson(QJsonObject{{QStringLiteral("status"), QStringLiteral("interrupted")},
                                      {QStringLiteral("error"), message}});
        // The shells' convention for a process ended by a signal.
        ctx.fail(128 + m_signal, store.endpoint(), message);
    }

    static void printGranted(CliContext &ctx, const core::AcquireResult &r) {
        const core::Grant &g = r.grant;
        // What the store could not do as asked (no lease kept, a limit not used) is said either way.
        const QStringList warnings = g.warnings();
        ctx.warn(warnings);
        if (ctx.json()) {
            QJsonObject o = grantToJson(g);
            o.insert(QStringLiteral("status"), QStringLiteral("granted"));
            o.insert(QStringLiteral("attempts"), r.attempts);
            o.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(warnings));
            ctx.printJson(o);
            return;
        }
        QString line =
            QStringLiteral("granted %1 %2 to %3").arg(core::kindName(g.ref.kind), g.ref.name, g.holder);
        if (g.slot)
            line += QStringLiteral("  slot %1").arg(*g.slot);
        if (g.token)
            line += QStringLiteral("  token %1").arg(*g.token);
        if (!g.expiresAtMs)
            line += QStringLiteral("  no lease");
        ctx.out() << line << '\n';
    }

    core::AcquireRequest m_request;
    core::Cancellation m_cancel;
    std::unique_ptr<TerminationSignals> m_signals;
    int m_signal = 0; // the signal that interrupted the wait
    QElapsedTimer m_sinceStart;
    QTimer m_lookupDeadline;
};

} // namespace

std::unique_ptr<CliCommand> makeAcquireCommand() {
    return std::make_unique<AcquireCommand>();
}

} // namespace semscope::cli
