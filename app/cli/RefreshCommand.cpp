#include "SemaphoreCommand.h"
#include "SnapshotJson.h"
#include "core/Duration.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <cstdlib>

namespace semscope::cli {

namespace {

// `refresh NAME HOLDER`: extends a lease that HOLDER still has. Never re-acquires: a holder that
// lost its slot is reported lost (exit 1).
class RefreshCommand : public SemaphoreCommand {
public:
    QString name() const override { return QStringLiteral("refresh"); }
    QString summary() const override {
        return QStringLiteral("Extend a holder's lease; exits 1 if it was lost.");
    }
    QString usage() const override {
        return QStringLiteral("NAME HOLDER [--kind K] [--ttl DUR] [--replicas N [--replica-timeout DUR]]");
    }
    QList<QCommandLineOption> options() const override {
        return {kindOption(), ttlOption(), replicasOption(), replicaTimeoutOption()};
    }

protected:
    int argumentCount() const override { return 2; }
    bool validate(CliContext &ctx) override {
        const std::optional<qint64> ttl = durationOption(ctx, QStringLiteral("ttl"), 30000);
        if (!ttl)
            return false;
        if (*ttl <= 0) {
            ctx.fail(ExitUsage, {}, QStringLiteral("--ttl must be positive"));
            return false;
        }
        m_ttlMs = *ttl;
        m_ttlGiven = ctx.isSet(QStringLiteral("ttl"));
        return replicaOptions(ctx, &m_replicas, &m_replicaTimeoutMs);
    }

    void run(CliContext &ctx, core::SemaphoreStore &store, const core::SemaphoreRef &ref) override {
        const QString holderId = ctx.args().at(1);
        const qint64 ttl = m_ttlMs;
        const int replicas = m_replicas;
        const qint64 replicaTimeoutMs = m_replicaTimeoutMs;
        const bool ttlGiven = m_ttlGiven;
        store.snapshot(ref, [&ctx, &store, holderId, ttl, ttlGiven, replicas,
                             replicaTimeoutMs](const core::Snapshot &snap) {
            const core::Holder *h = findHolder(snap, holderId);
            if (!h) {
                report(ctx, store, QStringLiteral("lost"), notHeldText(snap, holderId));
                return;
            }
            // The default lease is no extension of a longer one: it would cut a worker's 10 m lease
            // to 30 s behind its back, and the slot could go to another client while it still works.
            const qint64 left =
                h->expiresAtMs && snap.serverNowMs > 0 ? *h->expiresAtMs - snap.serverNowMs : 0;
            if (!ttlGiven && left > ttl) {
                ctx.fail(
                    ExitUsage, store.endpoint(),
                    QStringLiteral("%1 has %2 of its lease left; refresh without --ttl sets %3, which would "
                                   "shorten it: give the lease to set with --ttl; nothing was done")
                        .arg(holderId, core::formatDurationMs(left), core::formatDurationMs(ttl)));
                return;
            }
            // Server time at the refresh, near enough: the snapshot's plus what passed here since.
            QElapsedTimer sinceSnapshot;
            sinceSnapshot.start();
            core::Grant grant = grantFor(snap, *h);
            if (replicas > 0) {
                grant.details.insert(QStringLiteral("replicas"), replicas);
                grant.details.insert(QStringLiteral("replicaTimeoutMs"), replicaTimeoutMs);
            }
            store.refresh(grant, ttl,
                          [&ctx, &store, holderId, ttl, snap, sinceSnapshot](const core::RefreshResult &r) {
                              switch (r.status) {
                              case core::RefreshResult::Status::Ok:
                                  printRefreshed(ctx, snap, holderId, ttl, r,
                                                 snap.serverNowMs + sinceSnapshot.elapsed());
                                  ctx.finish(ExitOk);
                                  return;
                              case core::RefreshResult::Status::Lost:
                                  report(ctx, store, QStringLiteral("lost"),
                                         QStringLiteral("%1 lost its slot: %2").arg(holderId, r.error));
                                  return;
                              case core::RefreshResult::Status::Error:
                                  report(ctx, store, QStringLiteral("error"), r.error);
                                  return;
                              }
                          });
        });
    }

private:
    // What the store did, not what was asked: a holder without a lease had nothing extended, and a
    // layout with one timeout for every holder (fair) restarts that, whatever --ttl says.
    static void printRefreshed(CliContext &ctx, const core::Snapshot &snap, const QString &holderId,
                               qint64 askedMs, const core::RefreshResult &r, qint64 serverNowMs) {
        ctx.warn(r.warnings);
        std::optional<qint64> leaseMs;
        if (r.expiresAtMs && snap.serverNowMs > 0)
            leaseMs = std::max<qint64>(0, (*r.expiresAtMs - serverNowMs + 50) / 100 * 100);
        if (ctx.json()) {
            QJsonObject o{{QStringLiteral("status"), QStringLiteral("ok")},
                          {QStringLiteral("holder"), holderId},
                          {QStringLiteral("extended"), r.expiresAtMs.has_value()}};
            if (r.expiresAtMs)
                o.insert(QStringLiteral("expires_at_ms"), static_cast<double>(*r.expiresAtMs));
            if (leaseMs)
                o.insert(QStringLiteral("ttl_ms"), static_cast<double>(*leaseMs));
            o.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(r.warnings));
            ctx.printJson(o);
            return;
        }
        if (!r.expiresAtMs) {
            ctx.out() << QStringLiteral("%1 still holds %2, but it has no lease: nothing was extended (it "
                                        "is held until released)\n")
                             .arg(holderId, snap.ref.name);
            return;
        }
        if (!leaseMs) {
            ctx.out() << QStringLiteral("refreshed %1\n").arg(holderId);
            return;
        }
        QString line = QStringLiteral("refreshed %1: the lease ends in %2")
                           .arg(holderId, core::formatDurationMs(*leaseMs));
        if (std::abs(*leaseMs - askedMs) >= 1000 && r.warnings.isEmpty()) // a warning said why already
            line += snap.details.contains(QStringLiteral("timeout_ms"))
                        ? QStringLiteral(" (the semaphore's shared timeout; --ttl %1 cannot change it)")
                              .arg(core::formatDurationMs(askedMs))
                        : QStringLiteral(" (not the %1 asked for)").arg(core::formatDurationMs(askedMs));
        ctx.out() << line << '\n';
    }

    static void report(CliContext &ctx, core::SemaphoreStore &store, const QString &status,
                       const QString &message) {
        if (ctx.json())
            ctx.printJson(
                QJsonObject{{QStringLiteral("status"), status}, {QStringLiteral("message"), message}});
        ctx.failOperation(store.endpoint(), message);
    }

    qint64 m_ttlMs = 30000;
    bool m_ttlGiven = false;
    int m_replicas = 0;
    qint64 m_replicaTimeoutMs = 1000;
};

} // namespace

std::unique_ptr<CliCommand> makeRefreshCommand() {
    return std::make_unique<RefreshCommand>();
}

} // namespace semscope::cli
