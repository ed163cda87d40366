#include "CliCommand.h"
#include "CliContext.h"
#include "FailoverScenario.h"
#include "LoadtestFailureText.h"
#include "LoadtestSpread.h"
#include "SemaphoreCommand.h"
#include "StoreFromOptions.h"
#include "WholeNumber.h"
#include "consul/ConsulSemaphoreStore.h"
#include "core/Duration.h"
#include "core/Kind.h"
#include "core/audit/LoadTestAudit.h"
#include "core/loadtest/LoadTestEngine.h"
#include "redis/RedisKind.h"
#include "redis/RedisSemaphoreStore.h"
#include "training/FailoverLostLock.h"
#include "training/ScenarioRuns.h"
#include "training/TrainingScenarios.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTextStream>
#include <QTimer>
#include <algorithm>
#include <memory>

namespace semscope::cli {

namespace {

using core::LoadTestConfig;
using core::LoadTestEngine;
using core::LoadTestProgress;
using core::LoadTestReport;

// `loadtest NAME`: drives the semaphore with virtual clients through the same store the other
// commands use (any writable Redis kind with --redis, `consul` with --consul), and reports throughput,
// latency, fairness and safety. With --scenario it runs a seed's unsafe design and its atomic counterpart
// side by side on two scratch semaphores (NAME-unsafe and NAME-atomic, reset before the run). With
// --semaphores K the clients are spread over K semaphores (NAME-1, NAME-2, ... chosen so that every
// Cluster master serves its share), one run each at once, reported per node and in total.
class LoadtestCommand : public CliCommand {
public:
    QString name() const override { return QStringLiteral("loadtest"); }
    QString summary() const override {
        return QStringLiteral(
            "Load-test a semaphore (throughput, latency, fairness, safety); --scenario runs a "
            "training scenario beside its atomic counterpart.");
    }
    QString usage() const override {
        return QStringLiteral(
            "NAME --kind K --limit L --clients N [--connections C] [--hold DIST] [--think DIST] "
            "[--ttl DUR] [--wait DUR | --retry [--retry-pause DIST]] [--duration DUR | --ops N] "
            "[--crash-rate R] [--skew DUR] [--scenario S] "
            "[--replicas N] [--semaphores K] [--csv FILE]");
    }
    QList<QCommandLineOption> options() const override {
        const QString dist = QStringLiteral("DIST");
        return {
            kindOption(),
            limitOption(),
            ttlOption(),
            replicasOption(),
            replicaTimeoutOption(),
            {QStringLiteral("clients"), QStringLiteral("loadtest: virtual clients (default 10)."),
             QStringLiteral("N")},
            {QStringLiteral("semaphores"),
             QStringLiteral(
                 "loadtest: spread the clients (and connections) over K semaphores NAME-1, NAME-2, ..., "
                 "named so that every Redis Cluster master serves K/masters of them; the report "
                 "gives pairs/s per node and in total (default 1)."),
             QStringLiteral("K")},
            {QStringLiteral("connections"),
             QStringLiteral("loadtest: connections the clients share (default 1: their commands are "
                            "pipelined on it, the cheapest for the server)."),
             QStringLiteral("C")},
            {QStringLiteral("threads"),
             QStringLiteral("loadtest: worker threads (default: one per core, at most C)."),
             QStringLiteral("T")},
            {QStringLiteral("hold"),
             QStringLiteral("loadtest: hold time: fixed:5ms, uniform:1ms..10ms, exp:5ms (default 0)."), dist},
            {QStringLiteral("think"),
             QStringLiteral("loadtest: pause between release and next acquire (default 0)."), dist},
            {QStringLiteral("retry"),
             QStringLiteral("loadtest: try once and ask again after --retry-pause when busy, instead of "
                            "waiting in the kind's queue (the default of kinds without one; a release "
                            "by another client ends the pause early where the kind notifies releases).")},
            {QStringLiteral("retry-pause"),
             QStringLiteral("loadtest: pause after a busy reply in retry mode (default uniform:1ms..5ms)."),
             dist},
            {QStringLiteral("refresh"),
             QStringLiteral("loadtest: refresh interval while holding (default ttl/3)."),
             QStringLiteral("DUR")},
            {QStringLiteral("wait"),
             QStringLiteral("loadtest: each acquire waits up to this long for a slot (the default of a "
                            "kind with a FIFO wait queue, leased: 10s; other kinds retry)."),
             QStringLiteral("DUR")},
            {QStringLiteral("duration"), QStringLiteral("loadtest: how long to run (default 10s)."),
             QStringLiteral("DUR")},
            {QStringLiteral("ops"), QStringLiteral("loadtest: stop after this many acquire/release pairs."),
             QStringLiteral("N")},
            {QStringLiteral("keep-keys"),
             QStringLiteral("loadtest: keep the keys a run created (by default they are deleted after it).")},
            {QStringLiteral("give-up"),
             QStringLiteral(
                 "loadtest --ops: end, failed, after every operation failed this long (default 30s)."),
             QStringLiteral("DUR")},
            {QStringLiteral("crash-rate"),
             QStringLiteral("loadtest: share of clients (0..1) that crash once while holding."),
             QStringLiteral("R")},
            {QStringLiteral("skew"),
             QStringLiteral(
                 "loadtest: clients' clocks are off by up to this much (layouts scored by client clock)."),
             QStringLiteral("DUR")},
            {QStringLiteral("scenario"),
             QStringLiteral("loadtest: training scenario: %1. Options not given take the scenario's own "
                            "defaults (as on the GUI's training page), under which it shows its flaw. "
                            "%2 needs no --redis: it starts its own master, replica and sentinel.")
                 .arg(redis::trainingScenarioNames().join(QStringLiteral(", ")),
                      redis::FailoverLostLock::scenarioName()),
             QStringLiteral("S")},
            {QStringLiteral("race-window"),
             QStringLiteral("loadtest: pause inside a scenario's unsafe sequence (default: the scenario's)."),
             QStringLiteral("DUR")},
            {QStringLiteral("csv"),
             QStringLiteral("loadtest: write the timeline (one row per 250 ms) to FILE."),
             QStringLiteral("FILE")},
        };
    }

    void start(CliContext &ctx) override {
        m_ctx = &ctx;
        if (ctx.args().size() != 1)
            return ctx.fail(ExitUsage, {}, QStringLiteral("usage: semscope-cli loadtest %1").arg(usage()));
        if (ctx.value(QStringLiteral("scenario")) == redis::FailoverLostLock::scenarioName())
            return runFailoverLostLock(ctx);
        if (!parse(ctx))
            return;
        QString error;
        m_probe = openStore(ctx, &error, StoreAudit::NotAudited); // the run is logged once, at its end
        if (!m_probe)
            return ctx.fail(ExitUsage, {}, error);
        if (core::backendOf(m_config.ref.kind) != m_probe->backend())
            return ctx.fail(ExitUsage, m_probe->endpoint(),
                            QStringLiteral("--kind %1 lives in %2, not in this store")
                                .arg(core::kindName(m_config.ref.kind),
                                     core::backendOf(m_config.ref.kind) == core::Backend::Redis
                                         ? QStringLiteral("Redis (--redis)")
                                         : QStringLiteral("Consul (--consul)")));
        if (auto *redisStore = qobject_cast<redis::RedisSemaphoreStore *>(m_probe.get())) {
            redis::ConnectionSettings settings = redisStore->connection().settings();
            // A load test rides through a server restart: its connections come back and grants
            // resume; the failed operations meanwhile are counted and fail the run.
            settings.autoReconnect = true;
            m_settings = settings;
            // The connections of one worker thread share their waiting acquires: a slot released on one
            // of them goes to a waiter on another in the release's reply instead of a PUBLISH.
            m_factory = [settings]() -> std::unique_ptr<core::SemaphoreStore> {
                return redis::RedisSemaphoreStore::sharingWaitsInThread(settings);
            };
        } else if (auto *consulStore = qobject_cast<consul::ConsulSemaphoreStore *>(m_probe.get())) {
            // Every worker gets its own client (and HTTP connections) with the same agent and token.
            const consul::ConsulConfig config = consulStore->client().config();
            m_factory = [config]() -> std::unique_ptr<core::SemaphoreStore> {
                return std::make_unique<consul::ConsulSemaphoreStore>(config);
            };
        } else {
            return ctx.fail(ExitUsage, m_probe->endpoint(),
                            QStringLiteral("loadtest cannot drive this store"));
        }
        whenReachable(ctx, *m_probe, [this] { prepare(); });
    }

private:
    // A plain run's defaults: 10 clients on one connection (LoadTestConfig says why) that release
    // at once, for 10 s, acquiring the way semscope recommends for the kind (waiting in its queue,
    // or retrying).
    static LoadTestConfig plainDefaults(core::Kind kind) {
        LoadTestConfig d;
        d.waitMs = LoadTestConfig::recommendedWaitMs(kind);
        d.limit = kind == core::Kind::Lock ? 1 : 5;
        d.clients = 10;
        d.ttlMs = 10'000;
        d.durationMs = 10'000;
        return d;
    }

    bool usageError(const QString &message) {
        m_ctx->fail(ExitUsage, {}, message);
        return false;
    }

    std::optional<qint64> intOption(const QString &option, qint64 fallback, qint64 min, qint64 max) {
        return wholeNumberOption(*m_ctx, option, fallback, min, max);
    }

    std::optional<core::Distribution> distOption(const QString &option, const core::Distribution &fallback) {
        if (!m_ctx->isSet(option))
            return fallback;
        QString error;
        const auto d = core::Distribution::parse(m_ctx->value(option), &error);
        if (!d) {
            usageError(QStringLiteral("--%1: %2").arg(option, error));
            return std::nullopt;
        }
        return d;
    }

    bool parse(CliContext &ctx) {
        LoadTestConfig &c = m_config;
        const QString name = ctx.args().constFirst();
        if (name.isEmpty())
            return usageError(QStringLiteral("loadtest: the semaphore name must not be empty"));

        if (ctx.isSet(QStringLiteral("scenario"))) {
            m_scenario = redis::findTrainingScenario(ctx.value(QStringLiteral("scenario")));
            if (!m_scenario)
                return usageError(QStringLiteral("--scenario: unknown scenario '%1'; known: %2")
                                      .arg(ctx.value(QStringLiteral("scenario")),
                                           redis::trainingScenarioNames().join(QStringLiteral(", "))));
        }
        std::optional<core::Kind> kind;
        if (ctx.isSet(QStringLiteral("kind"))) {
            kind = core::kindFromName(ctx.value(QStringLiteral("kind")));
            if (!kind)
                return usageError(QStringLiteral("--kind: unknown kind '%1'; known: %2")
                                      .arg(ctx.value(QStringLiteral("kind")),
                                           core::allKindNames().join(QStringLiteral(", "))));
            if (!core::kindIsWritable(*kind))
                return usageError(QStringLiteral("--kind: semscope cannot acquire '%1' semaphores")
                                      .arg(core::kindName(*kind)));
        }
        if (m_scenario && ctx.isSet(QStringLiteral("consul")))
            return usageError(QStringLiteral("--scenario replays Redis designs: give --redis, not --consul"));
        if (m_scenario) {
            if (kind && *kind != m_scenario->counterpart)
                return usageError(QStringLiteral("--scenario %1 runs beside the '%2' kind, not '%3'")
                                      .arg(m_scenario->name, core::kindName(m_scenario->counterpart),
                                           core::kindName(*kind)));
            kind = m_scenario->counterpart;
        }
        if (!kind)
            return usageError(QStringLiteral("loadtest: --kind is required (or --scenario)"));
        // What an option not given falls back to: a scenario's own defaults (the GUI's too, so that
        // it shows its flaw), or the plain load test's.
        const LoadTestConfig d = m_scenario ? redis::scenarioConfig(*m_scenario, name) : plainDefaults(*kind);
        c.ref.kind = *kind;
        c.ref.name = name;

        const auto limit = intOption(QStringLiteral("limit"), d.limit, 1, 1'000'000);
        const auto clients = intOption(QStringLiteral("clients"), d.clients, 1, 100'000);
        if (!limit || !clients)
            return false;
        if (*kind == core::Kind::Lock && *limit != 1)
            return usageError(QStringLiteral("--limit: a lock has exactly one slot"));
        c.limit = static_cast<int>(*limit);
        c.clients = static_cast<int>(*clients);
        const auto connections =
            intOption(QStringLiteral("connections"), std::min<qint64>(*clients, d.connections), 1, 10'000);
        const auto threads = intOption(QStringLiteral("threads"), d.threads, 0, 256);
        const auto ops = intOption(QStringLiteral("ops"), 0, 1, 1'000'000'000);
        const auto semaphores = intOption(QStringLiteral("semaphores"), 1, 1, 1000);
        if (!connections || !threads || !ops || !semaphores)
            return false;
        m_semaphores = static_cast<int>(*semaphores);
        if (m_semaphores > 1 && m_scenario)
            return usageError(
                QStringLiteral("--semaphores: a training scenario runs on its own two semaphores"));
        if (m_semaphores > *clients)
            return usageError(
                QStringLiteral("--semaphores %1 needs at least as many --clients (one per semaphore)")
                    .arg(m_semaphores));
        if (m_semaphores > 1 && *ops > 0 && *ops < m_semaphores)
            return usageError(QStringLiteral("--ops %1 is fewer than one per semaphore").arg(*ops));
        c.connections = static_cast<int>(*connections);
        c.threads = static_cast<int>(*threads);
        c.ops = *ops;

        const auto hold = distOption(QStringLiteral("hold"), d.hold);
        const auto think = distOption(QStringLiteral("think"), d.think);
        const auto retry = distOption(QStringLiteral("retry-pause"), d.retry);
        if (!hold || !think || !retry)
            return false;
        c.hold = *hold;
        c.think = *think;
        c.retry = *retry;

        const auto ttl = durationOption(ctx, QStringLiteral("ttl"), d.ttlMs);
        const auto refresh = durationOption(ctx, QStringLiteral("refresh"), d.refreshIntervalMs);
        const auto wait = durationOption(ctx, QStringLiteral("wait"), d.waitMs);
        const auto duration = durationOption(ctx, QStringLiteral("duration"), d.durationMs);
        const auto skew = durationOption(ctx, QStringLiteral("skew"), d.skewMs);
        const auto window = durationOption(ctx, QStringLiteral("race-window"), -1);
        const auto giveUp = durationOption(ctx, QStringLiteral("give-up"), c.stallTimeoutMs);
        if (!ttl || !refresh || !wait || !duration || !skew || !window || !giveUp)
            return false;
        c.stallTimeoutMs = std::max<qint64>(*giveUp, 1000);
        if (*ttl <= 0)
            return usageError(QStringLiteral("--ttl must be positive"));
        if (ctx.isSet(QStringLiteral("ops")) && ctx.isSet(QStringLiteral("duration")))
            return usageError(QStringLiteral("give --duration or --ops, not both"));
        c.ttlMs = *ttl;
        c.refreshIntervalMs = *refresh;
        if (ctx.isSet(QStringLiteral("retry")) && ctx.isSet(QStringLiteral("wait")))
            return usageError(
                QStringLiteral("give --wait (wait for a slot) or --retry (retry after a pause), "
                               "not both"));
        if (ctx.isSet(QStringLiteral("retry-pause")) && ctx.isSet(QStringLiteral("wait")))
            return usageError(
                QStringLiteral("--retry-pause is the pause of retry mode; --wait waits instead"));
        c.waitMs = ctx.isSet(QStringLiteral("retry")) ? 0 : *wait;
        // A pause given alone asks for the mode it belongs to.
        if (ctx.isSet(QStringLiteral("retry-pause")))
            c.waitMs = 0;
        c.durationMs = c.ops > 0 ? 0 : *duration;
        c.skewMs = *skew;
        m_raceWindowMs = static_cast<int>(std::min<qint64>(*window, 60'000));
        c.ref.profile.timeoutMs = c.ttlMs;

        c.crashRate = d.crashRate;
        c.crashWindowMs = d.crashWindowMs;
        if (ctx.isSet(QStringLiteral("crash-rate"))) {
            bool ok = false;
            c.crashRate = ctx.value(QStringLiteral("crash-rate")).toDouble(&ok);
            if (!ok || c.crashRate < 0.0 || c.crashRate > 1.0)
                return usageError(QStringLiteral("--crash-rate: '%1' is not a share between 0 and 1")
                                      .arg(ctx.value(QStringLiteral("crash-rate"))));
        }
        if (!replicaOptions(ctx, &c.replicas, &c.replicaTimeoutMs))
            return false;
        if (const QString problem = c.validate(); !problem.isEmpty())
            return usageError(QStringLiteral("loadtest: ") + problem);
        m_csvPath = ctx.value(QStringLiteral("csv"));
        if (!m_csvPath.isEmpty()) {
            // Opened before the run, not after it: a path that cannot be written is a usage error
            // said at once, not news after a long run whose report it then cost.
            m_csvFile = std::make_unique<QFile>(m_csvPath);
            if (!m_csvFile->open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
                return usageError(
                    QStringLiteral("--csv: cannot write %1: %2").arg(m_csvPath, m_csvFile->errorString()));
        }
        return true;
    }

    // Scenario runs work on scratch semaphores: make sure no leftovers (leaked slots of an earlier
    // run) decide the outcome.
    void prepare() {
        auto *store = qobject_cast<redis::RedisSemaphoreStore *>(m_probe.get());
        if (!store) {
            startRuns();
            return;
        }
        if (!m_scenario) {
            // The slot map first: a spread run names its semaphores by the master serving them.
            store->topology().detect([this, store](const QString &) {
                m_names = runNames(*store);
                findCreatedSemaphores(*store);
            });
            return;
        }
        m_deleteKeysAfter = !m_ctx->isSet(QStringLiteral("keep-keys"));
        redis::resetScenarioSemaphores(*store, *m_scenario, m_config.ref.name, [this](const QString &error) {
            if (!error.isEmpty())
                return m_ctx->fail(ExitFailed, m_probe->endpoint(), error);
            startRuns();
        });
    }

    // The semaphores of a plain run: NAME, or with --semaphores K, K names spread over the
    // Cluster's masters (the one server elsewhere).
    QStringList runNames(redis::RedisSemaphoreStore &store) const {
        if (m_semaphores <= 1)
            return {m_config.ref.name};
        QStringList masters;
        if (store.topology().mode() == redis::topology::RedisTopology::Mode::Cluster) {
            for (const auto &shard : store.topology().clusterMap().shards()) {
                if (shard.slotCount() > 0)
                    masters << shard.master.address();
            }
        }
        return spreadSemaphoreNames(store, m_config.ref, m_semaphores, masters);
    }

    // A run leaves behind only what it created: a semaphore that existed before is the operator's
    // and stays.
    void findCreatedSemaphores(redis::RedisSemaphoreStore &store) {
        if (m_ctx->isSet(QStringLiteral("keep-keys")))
            return startRuns();
        auto left = std::make_shared<qsizetype>(m_names.size());
        for (const QString &name : std::as_const(m_names)) {
            const QList<QByteArray> keys = runKeys(store, name);
            auto answered = [this, left, name](bool created) {
                if (created)
                    m_deleteAfter << name;
                if (--*left == 0)
                    startRuns();
            };
            if (keys.isEmpty()) {
                QTimer::singleShot(0, m_probe.get(), [answered] { answered(false); });
                continue;
            }
            store.topology().command(
                QList<QByteArray>{"EXISTS"} + keys,
                [answered](const redis::RedisReply &r) { answered(r.isInteger() && r.integer == 0); });
        }
    }

    void startRuns() {
        if (m_scenario) {
            for (const redis::PlannedRun &run :
                 redis::scenarioRuns(*m_scenario, m_config, m_settings, m_raceWindowMs))
                addRun(run.config, run.label, run.factory);
        } else if (m_semaphores <= 1) {
            addRun(m_config, core::kindName(m_config.ref.kind), m_factory);
        } else {
            if (m_names.isEmpty()) // not Redis: no placement to choose
                m_names = spreadSemaphoreNames(*m_probe, m_config.ref, m_semaphores, {});
            addSpreadRuns();
        }
        m_live = m_ctx->stderrIsTerminal();
        for (const auto &run : m_runs)
            run->start();
    }

    // One run per semaphore, the clients, connections, threads and --ops shared out between them.
    void addSpreadRuns() {
        const int k = int(m_names.size());
        auto share = [k](qint64 total, int i) { return total / k + (i < total % k ? 1 : 0); };
        for (int i = 0; i < k; ++i) {
            LoadTestConfig c = m_config;
            c.ref.name = m_names.at(i);
            c.clients = int(share(m_config.clients, i));
            c.connections = int(std::clamp<qint64>(share(m_config.connections, i), 1, c.clients));
            c.threads = m_config.threads > 0 ? int(std::max<qint64>(1, share(m_config.threads, i))) : 1;
            if (m_config.ops > 0)
                c.ops = share(m_config.ops, i);
            QString place = m_probe->locationOf(c.ref);
            if (place.isEmpty())
                place = m_probe->endpoint();
            m_places << place;
            addRun(c, c.ref.name, m_factory);
        }
    }

    void addRun(const LoadTestConfig &config, const QString &label, core::StoreFactory factory) {
        auto engine = std::make_unique<LoadTestEngine>(config, std::move(factory));
        engine->setLabel(label);
        LoadTestEngine *e = engine.get();
        QObject::connect(e, &LoadTestEngine::progress, e,
                         [this](const LoadTestProgress &) { showProgress(); });
        QObject::connect(e, &LoadTestEngine::finished, e, [this](const LoadTestReport &) { onFinished(); });
        m_runs.push_back(std::move(engine));
    }

    void showProgress() {
        if (!m_live)
            return;
        QString line = m_semaphores > 1 ? spreadProgressLine() : QString();
        for (const auto &run : m_runs) {
            if (m_semaphores > 1)
                break;
            const auto &timeline = run->report().timeline;
            if (timeline.isEmpty())
                continue;
            const LoadTestProgress &p = timeline.constLast();
            if (!line.isEmpty())
                line += QStringLiteral(" | ");
            line += QStringLiteral("%1 %2s %3 pairs/s p99 %4 ms holders %5/%6 over %7")
                        .arg(run->report().label)
                        .arg(p.elapsedMs / 1000.0, 0, 'f', 1)
                        .arg(p.pairsPerSecond, 0, 'f', 0)
                        .arg(p.acquireP99Ms, 0, 'f', 2)
                        .arg(p.holders)
                        .arg(p.limit)
                        .arg(p.overAdmissions);
        }
        // \r and clear-to-end-of-line: one line that keeps being rewritten.
        m_ctx->err() << '\r' << line.left(200) << "\x1b[K";
        m_ctx->err().flush();
    }

    // One figure for a spread run: a line per semaphore would not fit.
    QString spreadProgressLine() const {
        double pairs = 0.0;
        qint64 over = 0;
        double elapsed = 0.0;
        for (const auto &run : m_runs) {
            const auto &timeline = run->report().timeline;
            if (timeline.isEmpty())
                continue;
            pairs += timeline.constLast().pairsPerSecond;
            over += timeline.constLast().overAdmissions;
            elapsed = std::max(elapsed, timeline.constLast().elapsedMs / 1000.0);
        }
        return QStringLiteral("%1 semaphores %2s %3 pairs/s over %4")
            .arg(m_runs.size())
            .arg(elapsed, 0, 'f', 1)
            .arg(pairs, 0, 'f', 0)
            .arg(over);
    }

    // The keys of one of a plain run's semaphores.
    QList<QByteArray> runKeys(redis::RedisSemaphoreStore &store, const QString &name) const {
        const redis::RedisKind *kind = store.kindFor(m_config.ref.kind);
        return kind ? kind->keysOf(name) : QList<QByteArray>{};
    }

    void onFinished() {
        for (const auto &run : m_runs)
            if (!run->isFinished())
                return;
        auto *store = qobject_cast<redis::RedisSemaphoreStore *>(m_probe.get());
        if (!store || (m_scenario ? !m_deleteKeysAfter : m_deleteAfter.isEmpty()))
            return report();
        m_deleteKeysAfter = false;
        auto removed = [this](const QString &error) {
            if (!error.isEmpty())
                m_ctx->err() << "semscope-cli: " << m_probe->endpoint()
                             << ": the run's keys were left: " << error << '\n';
            report();
        };
        if (m_scenario)
            return redis::resetScenarioSemaphores(*store, *m_scenario, m_config.ref.name, removed);
        // One DEL per semaphore: on a Cluster each has its own slot.
        struct Deletion {
            qsizetype left = 0;
            QString error;
        };
        auto deletion = std::make_shared<Deletion>();
        deletion->left = m_deleteAfter.size();
        for (const QString &name : std::exchange(m_deleteAfter, {})) {
            store->topology().command(QList<QByteArray>{"DEL"} + runKeys(*store, name),
                                      [deletion, removed](const redis::RedisReply &r) {
                                          if (r.isError() && deletion->error.isEmpty())
                                              deletion->error = r.errorMessage();
                                          if (--deletion->left == 0)
                                              removed(deletion->error);
                                      });
        }
    }

    void report() {
        if (m_live) {
            m_ctx->err() << "\r\x1b[K";
            m_ctx->err().flush();
        }
        QList<LoadTestReport> reports;
        for (const auto &run : m_runs)
            reports << run->report();
        for (const LoadTestReport &r : reports)
            m_ctx->audit(core::loadTestAuditEntry(m_probe->endpoint(), {}, r,
                                                  m_scenario ? QStringLiteral("training")
                                                             : QStringLiteral("load-test")));

        if (m_csvFile) {
            QTextStream out(m_csvFile.get());
            out << LoadTestReport::csvHeader();
            for (const LoadTestReport &r : reports)
                out << r.timelineCsv();
            out.flush();
            if (out.status() != QTextStream::Ok || !m_csvFile->flush())
                m_ctx->err() << QStringLiteral("semscope-cli: warning: --csv: %1 may be incomplete: %2\n")
                                    .arg(m_csvPath, m_csvFile->errorString());
            m_csvFile->close();
        }

        if (m_semaphores > 1) {
            QList<SpreadRun> spread;
            for (qsizetype i = 0; i < reports.size(); ++i)
                spread.append(SpreadRun{reports.at(i), m_places.value(i)});
            if (m_ctx->json())
                m_ctx->printJson(spreadReportJson(spread));
            else
                m_ctx->out() << spreadReportText(spread);
        } else if (m_ctx->json()) {
            if (m_scenario) {
                m_ctx->printJson(redis::scenarioReportJson(*m_scenario, reports.value(0), reports.value(1)));
            } else {
                m_ctx->printJson(reports.value(0).toJson());
            }
        } else {
            if (m_scenario) {
                m_ctx->out() << m_scenario->title << "\n\n" << m_scenario->explanation << "\n\n";
                m_ctx->out() << "unsafe (" << reports.value(0).config.ref.name << ")\n"
                             << reports.value(0).summaryText();
                m_ctx->out() << "atomic (" << reports.value(1).config.ref.name << ")\n"
                             << reports.value(1).summaryText();
            } else {
                m_ctx->out() << reports.value(0).summaryText();
            }
        }

        for (const LoadTestReport &r : reports) {
            if (!r.ok)
                return m_ctx->fail(ExitFailed, r.endpoint,
                                   QStringLiteral("load test %1 failed: %2").arg(r.label, r.error));
            // Failed operations are no pass, however safe the rest was: a dead server admits nobody.
            if (r.errors > 0)
                return m_ctx->fail(ExitFailed, r.endpoint,
                                   operationsFailedText(r.label, r.errors, r.unavailableMs()));
        }
        // A plain run that broke safety fails, so scripts can gate on it; a scenario is expected to
        // show the unsafe side failing.
        if (!m_scenario) {
            for (const LoadTestReport &r : reports) {
                if (!r.safe())
                    return m_ctx->fail(ExitFailed, r.endpoint,
                                       unsafeRunText(m_semaphores > 1 ? r.config.ref.name : QString(),
                                                     r.safety.overAdmissions, r.safety.tokenViolations));
            }
        }
        m_ctx->finish(ExitOk);
    }

    CliContext *m_ctx = nullptr;
    LoadTestConfig m_config;
    const redis::TrainingScenario *m_scenario = nullptr;
    int m_raceWindowMs = -1;
    QString m_csvPath;
    std::unique_ptr<QFile> m_csvFile; // --csv, open from the start
    bool m_live = false;
    bool m_deleteKeysAfter = false; // a scenario's scratch semaphores
    int m_semaphores = 1;           // --semaphores
    QStringList m_names;            // a plain run's semaphores
    QStringList m_places;           // where each run's semaphore lives (spread runs)
    QStringList m_deleteAfter;      // semaphores the run created
    std::unique_ptr<core::SemaphoreStore> m_probe;
    redis::ConnectionSettings m_settings; // Redis only: the training stores' connection
    core::StoreFactory m_factory;         // the store of a plain run, one per connection
    std::vector<std::unique_ptr<LoadTestEngine>> m_runs;
};

} // namespace

std::unique_ptr<CliCommand> makeLoadtestCommand() {
    return std::make_unique<LoadtestCommand>();
}

} // namespace semscope::cli
