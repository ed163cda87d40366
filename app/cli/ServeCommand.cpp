#include "CliCommand.h"
#include "CliContext.h"
#include "KeyspaceHints.h"
#include "ListenAddress.h"
#include "MetricsHttpServer.h"
#include "SemaphoreCommand.h"
#include "StoreFromOptions.h"
#include "TerminationSignals.h"
#include "WatchOptionsFromCli.h"
#include "core/ProfileStore.h"
#include "core/Redaction.h"
#include "monitor/HistoryWorker.h"
#include "monitor/MetricsCollector.h"
#include "monitor/PrometheusExposition.h"
#include "monitor/SemaphoreWatcher.h"
#include "redis/KeyspaceNotifications.h"

#include <QRegularExpression>
#include <QSet>
#include <algorithm>

namespace semscope::cli {

namespace {

// `serve --metrics HOST:PORT`: a Prometheus exporter. A SemaphoreWatcher reads the semaphores
// found on its own schedule (discovery, then every --interval) and MetricsCollector keeps the
// latest values; /metrics renders those, so however often Prometheus scrapes, the server sees the
// same reads. The shared history gives lease-less `slots` holders their age, so one counted stale
// is still counted stale right after a restart.
class ServeCommand : public CliCommand {
public:
    QString name() const override { return QStringLiteral("serve"); }
    QString summary() const override {
        return QStringLiteral("Serve Prometheus metrics of the semaphores found (/metrics, /-/healthy) until "
                              "Ctrl-C.");
    }
    QString usage() const override {
        return QStringLiteral(
            "--metrics HOST:PORT [--stuck-after DUR] [--match GLOB] [--kind K] [--interval DUR]");
    }
    QList<QCommandLineOption> options() const override {
        return {
            {QStringLiteral("metrics"),
             QStringLiteral("serve: listen for Prometheus scrapes on HOST:PORT (HOST defaults to "
                            "127.0.0.1; port 0 picks a free one)."),
             QStringLiteral("HOST:PORT")},
            {QStringLiteral("stuck-after"),
             QStringLiteral("serve: a lease-less slots holder held this long counts as stale (default: the "
                            "semaphore's profile timeout, else 10m)."),
             QStringLiteral("DUR")},
            {QStringLiteral("match"), QStringLiteral("Only keys matching this glob (default *)."),
             QStringLiteral("GLOB")},
            kindOption(),
            {QStringLiteral("interval"),
             QStringLiteral("watch, serve: re-read every semaphore this often (default 1s; Consul is "
                            "followed with blocking queries instead)."),
             QStringLiteral("DUR")}};
    }

    void start(CliContext &ctx) override {
        if (!ctx.args().isEmpty() || !ctx.isSet(QStringLiteral("metrics"))) {
            ctx.fail(ExitUsage, {}, QStringLiteral("usage: semscope-cli serve %1").arg(usage()));
            return;
        }
        QString error;
        const std::optional<ListenAddress> address =
            parseListenAddress(ctx.value(QStringLiteral("metrics")), &error);
        if (!address) {
            ctx.fail(ExitUsage, {}, error);
            return;
        }
        std::optional<monitor::WatchOptions> parsed = watchOptionsFromCli(ctx);
        if (!parsed)
            return;
        monitor::WatchOptions options = std::move(*parsed);
        const auto stuckAfter = durationOption(ctx, QStringLiteral("stuck-after"), 0);
        if (!stuckAfter)
            return;
        if (ctx.isSet(QStringLiteral("stuck-after")) && *stuckAfter <= 0) {
            ctx.fail(ExitUsage, {}, QStringLiteral("--stuck-after: give a positive duration, e.g. 10m"));
            return;
        }
        // New semaphores are looked for as often as the known ones are read, as long as the scans
        // stay within the server-time budget (monitor::DiscoverySchedule): a scan walks the whole
        // keyspace, so a large one is scanned less often.
        options.discoveryIntervalMs = options.intervalMs;
        options.maxInFlight = kMaxInFlight;

        m_store = openStore(ctx, &error, StoreAudit::EachWrite, StoreReconnect::WithBackoff);
        if (!m_store) {
            ctx.fail(ExitUsage, {}, error);
            return;
        }
        const QString endpoint = m_store->endpoint();
        options.known = core::ProfileStore().named(endpoint);
        auto profiles = std::make_shared<core::ProfileStore>();
        const std::optional<qint64> stuckOverride =
            ctx.isSet(QStringLiteral("stuck-after")) ? std::optional<qint64>(*stuckAfter) : std::nullopt;
        options.resolveProfile = [profiles, endpoint, stuckOverride](const core::SemaphoreRef &ref) {
            core::SemaphoreProfile profile = profiles->resolve(endpoint, ref);
            // The profile timeout is what the stuck rule reads for `slots` (core/StuckHolders);
            // other kinds read it as their lease, so only `slots` takes the override.
            if (stuckOverride && ref.kind == core::Kind::Slots)
                profile.timeoutMs = *stuckOverride;
            return profile;
        };

        // Listen before connecting: a port in use is the operator's first problem to hear about.
        m_watcher = std::make_unique<monitor::SemaphoreWatcher>(*m_store, options);
        m_collector = std::make_unique<monitor::MetricsCollector>(*m_watcher, m_store->backend(),
                                                                  core::redactedUrl(endpoint));
        m_http = std::make_unique<MetricsHttpServer>([this] {
            return MetricsHttpServer::Body{monitor::prometheusContentType(),
                                           monitor::prometheusExposition(m_collector->snapshot())};
        });
        if (!m_http->listen(address->host, address->port)) {
            ctx.fail(ExitUsage, {},
                     QStringLiteral("--metrics %1: cannot listen there: %2")
                         .arg(ctx.value(QStringLiteral("metrics")), m_http->errorString()));
            return;
        }
        const QString host = address->host.protocol() == QAbstractSocket::IPv6Protocol
                                 ? QStringLiteral("[%1]").arg(address->host.toString())
                                 : address->host.toString();
        ctx.err() << QStringLiteral("serving metrics of %1 on http://%2:%3/metrics\n")
                         .arg(core::redactedUrl(endpoint), host)
                         .arg(m_http->serverPort());
        ctx.err().flush();

        m_signals = std::make_unique<TerminationSignals>([&ctx](int) {
            if (!ctx.finished())
                ctx.finish(ExitOk);
        });
        whenReachable(ctx, *m_store, [this, &ctx] { serve(ctx); });
    }

private:
    static constexpr int kMaxInFlight = 16;

    void serve(CliContext &ctx) {
        // The same worker as the app's: the watcher's history steps never hold up its reads.
        m_history = std::make_unique<monitor::HistoryWorker>();
        QObject::connect(m_history.get(), &monitor::HistoryWorker::turnedOff, m_history.get(),
                         [&ctx](const QString &warning) {
                             ctx.err() << QStringLiteral("semscope-cli: %1\n").arg(warning);
                             ctx.err().flush();
                         });
        m_watcher->setHistory(m_history.get());
        QObject::connect(m_watcher.get(), &monitor::SemaphoreWatcher::discoveryFinished, m_watcher.get(),
                         [this, &ctx](qint64, bool ok, const QString &why) {
                             // A Consul agent that never answered a discovery could not be asked at all
                             // (Redis is connected to first, whenReachable; a Cluster master that is
                             // down leaves the others watched):
                             // serve ends as it does when Redis cannot be connected to (exit 2).
                             if (!ok && !m_discovered && m_store->backend() == core::Backend::Consul) {
                                 ctx.failOperation(m_store->endpoint(),
                                                   QStringLiteral("discovery failed: %1").arg(why));
                                 return;
                             }
                             m_discovered = true;
                             // Told on stderr once per change, counted in the metrics every time.
                             if (ok == m_discoveryOk)
                                 return;
                             m_discoveryOk = ok;
                             if (!ok)
                                 ctx.err() << QStringLiteral("semscope-cli: %1: discovery failed: %2\n")
                                                  .arg(m_store->endpoint(), why);
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
                                 << QStringLiteral("semscope-cli: %1 semaphores match; serving the first "
                                                   "%2 (narrow it with --match or --kind)\n")
                                        .arg(found)
                                        .arg(watched);
                             ctx.err().flush();
                         });
        m_notifications = readChangesAtOnce(ctx, *m_store, *m_watcher);
        m_watcher->start();
    }

    // Declared in the order they must go: the HTTP server reads the collector, which follows the
    // watcher, which uses the history and the store.
    std::unique_ptr<core::SemaphoreStore> m_store;
    std::unique_ptr<monitor::HistoryWorker> m_history;
    std::unique_ptr<monitor::SemaphoreWatcher> m_watcher;
    std::unique_ptr<redis::KeyspaceNotifications> m_notifications;
    std::unique_ptr<monitor::MetricsCollector> m_collector;
    std::unique_ptr<MetricsHttpServer> m_http;
    std::unique_ptr<TerminationSignals> m_signals;
    bool m_discoveryOk = true;
    bool m_discovered = false; // a discovery succeeded once
};

} // namespace

std::unique_ptr<CliCommand> makeServeCommand() {
    return std::make_unique<ServeCommand>();
}

} // namespace semscope::cli
