#include "CliCommand.h"
#include "CliContext.h"
#include "KeyspaceHints.h"
#include "SemaphoreCommand.h"
#include "StoreFromOptions.h"
#include "TerminationSignals.h"
#include "WatchOptionsFromCli.h"
#include "core/CountText.h"
#include "core/Duration.h"
#include "core/ProfileStore.h"
#include "monitor/HistoryWorker.h"
#include "monitor/SemaphoreWatcher.h"
#include "redis/KeyspaceNotifications.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QTimer>

namespace semscope::cli {

namespace {

// `watch`: streams what happens to the semaphores found (acquired, released, expired,
// force-released, stale, ...) one line per event until Ctrl-C or --for. The events come from
// monitor::SemaphoreWatcher — the same source as the GUI's History tab and `serve --metrics` — and
// are appended to the shared history.
class WatchCommand : public CliCommand {
public:
    QString name() const override { return QStringLiteral("watch"); }
    QString summary() const override {
        return QStringLiteral(
            "Stream holder events (acquired, released, expired, force-released, stale, ...) "
            "until Ctrl-C or --for.");
    }
    QString usage() const override {
        return QStringLiteral("[--match GLOB] [--kind K] [--interval DUR] [--for DUR] [--json]");
    }
    QList<QCommandLineOption> options() const override {
        return {{QStringLiteral("match"), QStringLiteral("Only keys matching this glob (default *)."),
                 QStringLiteral("GLOB")},
                kindOption(),
                {QStringLiteral("interval"),
                 QStringLiteral("watch: re-read every semaphore this often (default 1s; Consul is followed "
                                "with blocking queries instead)."),
                 QStringLiteral("DUR")},
                {QStringLiteral("for"),
                 QStringLiteral("watch: stop after this long (default: until Ctrl-C)."),
                 QStringLiteral("DUR")}};
    }

    void start(CliContext &ctx) override {
        if (!ctx.args().isEmpty()) {
            ctx.fail(ExitUsage, {}, QStringLiteral("usage: semscope-cli watch %1").arg(usage()));
            return;
        }
        std::optional<monitor::WatchOptions> parsed = watchOptionsFromCli(ctx);
        if (!parsed)
            return;
        monitor::WatchOptions options = std::move(*parsed);
        const auto duration = durationOption(ctx, QStringLiteral("for"), 0);
        if (!duration)
            return;
        // New semaphores are looked for as often as the known ones are read, as long as the scans
        // stay within the server-time budget (monitor::DiscoverySchedule): a scan walks the whole
        // keyspace, so a large one is scanned less often.
        options.discoveryIntervalMs = options.intervalMs;
        options.maxInFlight = kMaxInFlight;

        QString error;
        m_store = openStore(ctx, &error, StoreAudit::EachWrite, StoreReconnect::WithBackoff);
        if (!m_store) {
            ctx.fail(ExitUsage, {}, error);
            return;
        }
        const QString endpoint = m_store->endpoint();
        options.known = core::ProfileStore().named(endpoint);
        auto profiles = std::make_shared<core::ProfileStore>();
        options.resolveProfile = [profiles, endpoint](const core::SemaphoreRef &ref) {
            return profiles->resolve(endpoint, ref);
        };
        m_signals = std::make_unique<TerminationSignals>([&ctx](int) { stop(ctx); });
        if (*duration > 0)
            QTimer::singleShot(std::chrono::milliseconds(*duration), [&ctx] { stop(ctx); });
        whenReachable(ctx, *m_store, [this, &ctx, options] { watch(ctx, options); });
    }

private:
    // Ctrl-C and --for end a watch as planned: exit 0 (unless it had already failed).
    static void stop(CliContext &ctx) {
        if (!ctx.finished())
            ctx.finish(ExitOk);
    }

    static constexpr int kMaxInFlight = 16;

    void watch(CliContext &ctx, const monitor::WatchOptions &options) {
        // The same worker as the app's: the watcher's history steps never hold up its reads.
        m_history = std::make_unique<monitor::HistoryWorker>();
        QObject::connect(m_history.get(), &monitor::HistoryWorker::turnedOff, m_history.get(),
                         [&ctx](const QString &warning) {
                             ctx.err() << QStringLiteral("semscope-cli: %1\n").arg(warning);
                             ctx.err().flush();
                         });
        m_watcher = std::make_unique<monitor::SemaphoreWatcher>(*m_store, options);
        m_watcher->setHistory(m_history.get());
        QObject::connect(m_watcher.get(), &monitor::SemaphoreWatcher::events, m_watcher.get(),
                         [&ctx](const QList<monitor::HolderEvent> &list) {
                             for (const monitor::HolderEvent &e : list) {
                                 if (ctx.json())
                                     ctx.out()
                                         << QJsonDocument(monitor::toJson(e)).toJson(QJsonDocument::Compact)
                                         << '\n';
                                 else
                                     ctx.out() << monitor::toText(e) << '\n';
                             }
                             ctx.out().flush(); // a pipe reader sees each event as it happens
                         });
        QObject::connect(m_watcher.get(), &monitor::SemaphoreWatcher::readFailed, m_watcher.get(),
                         [this, &ctx](const core::SemaphoreRef &ref, const QString &why) {
                             // Once per semaphore until it reads again, not once a round for as long
                             // as the server is away.
                             const QString key = core::kindName(ref.kind) + QLatin1Char(':') + ref.name;
                             m_failedThisRound.insert(key);
                             if (m_failing.contains(key))
                                 return;
                             m_failing.insert(key);
                             ctx.err() << QStringLiteral("semscope-cli: %1: %2\n").arg(key, why);
                             ctx.err().flush();
                         });
        QObject::connect(
            m_watcher.get(), &monitor::SemaphoreWatcher::roundFinished, m_watcher.get(), [this, &ctx] {
                // A semaphore that did not fail this round read again: said once, so the operator knows
                // the watch is back (after a Redis restart, say).
                for (const QString &key : std::as_const(m_failing)) {
                    if (!m_failedThisRound.contains(key))
                        ctx.err() << QStringLiteral("semscope-cli: %1: reading it again\n").arg(key);
                }
                ctx.err().flush();
                m_failing = m_failedThisRound;
                m_failedThisRound.clear();
            });
        QObject::connect(m_watcher.get(), &monitor::SemaphoreWatcher::discoveryFinished, m_watcher.get(),
                         [this, &ctx](qint64, bool ok, const QString &why) {
                             // A Consul agent that never answered a discovery could not be asked at all
                             // (Redis is connected to first, whenReachable; a Cluster master that is
                             // down leaves the others watched):
                             // the watch ends as a Redis one does when it cannot connect (exit 2; 1
                             // when the server refused). Later it is told once per change.
                             if (!ok && !m_announced && m_store->backend() == core::Backend::Consul) {
                                 ctx.failOperation(m_store->endpoint(),
                                                   QStringLiteral("discovery failed: %1").arg(why));
                                 return;
                             }
                             if (!ok) {
                                 if (!m_discoveryFailing)
                                     ctx.err() << QStringLiteral("semscope-cli: %1: discovery failed: %2\n")
                                                      .arg(m_store->endpoint(), why);
                                 m_discoveryFailing = true;
                             } else if (m_discoveryFailing) {
                                 m_discoveryFailing = false;
                                 ctx.err() << QStringLiteral("semscope-cli: %1: discovery works again\n")
                                                  .arg(m_store->endpoint());
                             }
                             if (ok && !m_announced) {
                                 m_announced = true;
                                 ctx.err() << QStringLiteral("watching %1 on %2\n")
                                                  .arg(core::countText(m_watcher->watched().size(),
                                                                       QStringLiteral("semaphore"),
                                                                       QStringLiteral("semaphores")),
                                                       m_store->endpoint());
                             }
                             ctx.err().flush();
                         });
        QObject::connect(m_watcher.get(), &monitor::SemaphoreWatcher::discoveryScheduled, m_watcher.get(),
                         [&ctx](qint64, const QString &why) {
                             ctx.err() << why << '\n';
                             ctx.err().flush();
                         });
        QObject::connect(m_watcher.get(), &monitor::SemaphoreWatcher::truncated, m_watcher.get(),
                         [&ctx](int found, int watched) {
                             ctx.err()
                                 << QStringLiteral("semscope-cli: %1 semaphores match; watching the first "
                                                   "%2 (narrow it with --match or --kind)\n")
                                        .arg(found)
                                        .arg(watched);
                         });
        m_notifications = readChangesAtOnce(ctx, *m_store, *m_watcher);
        m_watcher->start();
    }

    std::unique_ptr<core::SemaphoreStore> m_store;
    std::unique_ptr<monitor::HistoryWorker> m_history;
    std::unique_ptr<monitor::SemaphoreWatcher> m_watcher;
    std::unique_ptr<TerminationSignals> m_signals;
    std::unique_ptr<redis::KeyspaceNotifications> m_notifications;
    QSet<QString> m_failing;         // said to fail, not read since
    QSet<QString> m_failedThisRound; // failed since the last roundFinished
    bool m_discoveryFailing = false;
    bool m_announced = false;
};

} // namespace

std::unique_ptr<CliCommand> makeWatchCommand() {
    return std::make_unique<WatchCommand>();
}

} // namespace semscope::cli
