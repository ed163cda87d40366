#include "CliCommand.h"
#include "CliContext.h"
#include "ListProgress.h"
#include "MatchOption.h"
#include "SemaphoreCommand.h"
#include "SnapshotJson.h"
#include "SnapshotText.h"
#include "StoreFromOptions.h"
#include "core/ProfileStore.h"
#include "monitor/HistoryStore.h"
#include "monitor/SeenHolders.h"

#include <QDateTime>

#include <QElapsedTimer>
#include <QJsonArray>
#include <algorithm>

namespace semscope::cli {

namespace {

// `list`: finds every semaphore (SCAN with MATCH, progress on stderr), reads each one, and prints
// kind, name, limit, used and warnings.
class ListCommand : public CliCommand {
public:
    QString name() const override { return QStringLiteral("list"); }
    QString summary() const override {
        return QStringLiteral("Find semaphores and show their limit, use and warnings.");
    }
    QString usage() const override { return QStringLiteral("[--match GLOB] [--kind K]"); }
    QList<QCommandLineOption> options() const override {
        return {{QStringLiteral("match"), QStringLiteral("Only keys matching this glob (default *)."),
                 QStringLiteral("GLOB")},
                kindOption()};
    }

    void start(CliContext &ctx) override {
        if (!ctx.args().isEmpty()) {
            ctx.fail(ExitUsage, {}, QStringLiteral("usage: semscope-cli list %1").arg(usage()));
            return;
        }
        core::DiscoverRequest request;
        if (!matchOptionFromCli(ctx, &m_match))
            return;
        if (m_match)
            request.match = m_match->scanPattern();
        if (ctx.isSet(QStringLiteral("kind"))) {
            request.kind = core::kindFromName(ctx.value(QStringLiteral("kind")));
            if (!request.kind) {
                ctx.fail(ExitUsage, {},
                         QStringLiteral("--kind: unknown kind '%1'").arg(ctx.value(QStringLiteral("kind"))));
                return;
            }
        }
        QString error;
        m_store = openStore(ctx, &error);
        if (!m_store) {
            ctx.fail(ExitUsage, {}, error);
            return;
        }
        // Semaphores the operator named in a profile are found even when nothing in the server
        // marks them (an idle Redisson RSemaphore is a bare integer).
        request.known = core::ProfileStore().named(m_store->endpoint());
        whenReachable(ctx, *m_store, [this, &ctx, request] { discover(ctx, request); });
    }

private:
    void discover(CliContext &ctx, const core::DiscoverRequest &request) {
        m_progressClock.start();
        m_store->discover(
            request, core::Cancellation(),
            [this, &ctx](const core::DiscoverProgress &p) {
                ctx.err() << progress(ctx, p.scannedAreMatches)
                                 .report(m_progressClock.elapsed(), p.scannedKeys, p.totalKeys,
                                         wantedCount(p.found), p.walked);
                ctx.err().flush();
            },
            [this, &ctx](const core::DiscoverResult &result) {
                ListProgress &lines = progress(ctx, result.scannedAreMatches);
                if (!result.ok && (result.cancelled || result.semaphores.isEmpty())) {
                    ctx.err() << lines.interrupted();
                    ctx.failOperation(m_store->endpoint(), result.error); // it names what failed
                    return;
                }
                // A Cluster master that could not be walked: what the others hold is still listed,
                // then the run fails naming that master.
                m_partialError = result.ok ? QString() : result.error;
                // The summary (and the progress line above it) counts what the table will list:
                // a scan for --match finds every semaphore with a key that contains a match.
                const qint64 found = wantedCount(result.semaphores);
                ctx.err() << lines.finish(result.scannedKeys, found);
                for (const QString &w : result.warnings)
                    ctx.err() << QStringLiteral("semscope-cli: %1\n").arg(w);
                ctx.err() << lines.summary(result.scannedKeys, found);
                ctx.err().flush();
                readAll(ctx, result.semaphores);
            });
    }

    // Made at the store's first word, which says whether its scanned keys are matches only.
    ListProgress &progress(CliContext &ctx, bool scannedAreMatches) {
        if (!m_progress)
            m_progress = std::make_unique<ListProgress>(ctx.stderrIsTerminal(), scannedAreMatches);
        return *m_progress;
    }

    bool wanted(const core::DiscoveredSemaphore &d) const { return !m_match || m_match->accepts(d); }
    qint64 wantedCount(const QList<core::DiscoveredSemaphore> &found) const {
        return std::count_if(found.cbegin(), found.cend(),
                             [this](const core::DiscoveredSemaphore &d) { return wanted(d); });
    }

    // Reads every semaphore found, then prints them by name. At most kReadWindow reads are in flight:
    // enough to keep the pipeline full, few enough that none waits long behind the others.
    void readAll(CliContext &ctx, QList<core::DiscoveredSemaphore> found) {
        found.removeIf([this](const core::DiscoveredSemaphore &d) { return !wanted(d); });
        std::sort(found.begin(), found.end(), [](const auto &a, const auto &b) {
            return a.ref.name == b.ref.name ? a.ref.kind < b.ref.kind : a.ref.name < b.ref.name;
        });
        m_found = found;
        m_snapshots.assign(found.size(), std::nullopt);
        m_pending = found.size();
        m_nextRead = 0;
        m_profiles = std::make_unique<core::ProfileStore>();
        m_history = std::make_unique<monitor::HistoryStore>();
        if (!m_history->isAvailable())
            ctx.err() << QStringLiteral("semscope-cli: %1\n").arg(m_history->warning());
        if (m_pending == 0) {
            print(ctx);
            return;
        }
        for (int i = 0; i < kReadWindow; ++i)
            readNext(ctx);
    }

    void readNext(CliContext &ctx) {
        if (m_nextRead >= m_found.size())
            return;
        const qsizetype i = m_nextRead++;
        core::SemaphoreRef ref = m_found.at(i).ref;
        ref.profile = m_profiles->resolve(m_store->endpoint(), ref);
        m_store->snapshot(ref, [this, &ctx, i](core::Snapshot snap) {
            // Recorded in the shared history like `show` (a lease-less holder's age, the stuck rule).
            if (snap.serverNowMs > 0)
                monitor::stampFromHistory(*m_history, m_store->endpoint(), snap,
                                          QDateTime::currentMSecsSinceEpoch());
            m_snapshots[i] = snap;
            if (--m_pending == 0)
                print(ctx);
            else
                readNext(ctx);
        });
    }

    void print(CliContext &ctx) {
        if (ctx.json()) {
            QJsonArray rows;
            for (qsizetype i = 0; i < m_found.size(); ++i)
                rows.append(listRowToJson(m_found.at(i), m_snapshots[i]));
            ctx.printJson(rows);
            finishListing(ctx);
            return;
        }
        QList<QStringList> rows;
        // A Cluster's semaphores live on several masters: a NODE column says which (one server
        // needs none).
        const bool cluster = std::any_of(m_found.cbegin(), m_found.cend(),
                                         [](const core::DiscoveredSemaphore &d) { return d.slot >= 0; });
        // --from-replicas: the node each one was read on.
        const bool readFrom =
            std::any_of(m_found.cbegin(), m_found.cend(),
                        [](const core::DiscoveredSemaphore &d) { return !d.readFrom.isEmpty(); });
        for (qsizetype i = 0; i < m_found.size(); ++i) {
            const QJsonObject row = listRowToJson(m_found.at(i), m_snapshots[i]);
            const QJsonArray warnings = row.value(QStringLiteral("warnings")).toArray();
            QString limit = row.value(QStringLiteral("limit")).isDouble()
                                ? QString::number(row.value(QStringLiteral("limit")).toInteger())
                                : QStringLiteral("?");
            const QString source = row.value(QStringLiteral("limit_source")).toString();
            if (source == QLatin1String("inferred") || source == QLatin1String("profile"))
                limit += QStringLiteral(" (%1)").arg(source);
            rows << QStringList{
                row.value(QStringLiteral("kind")).toString(), row.value(QStringLiteral("name")).toString(),
                limit, QString::number(row.value(QStringLiteral("used")).toInteger()),
                warnings.isEmpty()
                    ? QString()
                    : QStringLiteral("%1%2").arg(warnings.first().toString(),
                                                 warnings.size() > 1
                                                     ? QStringLiteral(" (+%1 more)").arg(warnings.size() - 1)
                                                     : QString())};
            if (cluster)
                rows.last().insert(4, QStringLiteral("%1 (slot %2)")
                                          .arg(row.value(QStringLiteral("node")).toString())
                                          .arg(row.value(QStringLiteral("slot")).toInt()));
            if (cluster && readFrom)
                rows.last().insert(5, row.value(QStringLiteral("read_from")).toString());
        }
        if (rows.isEmpty())
            ctx.out() << "(no semaphores found)\n";
        else {
            QStringList header{QStringLiteral("KIND"), QStringLiteral("NAME"), QStringLiteral("LIMIT"),
                               QStringLiteral("USED"), QStringLiteral("WARNINGS")};
            if (cluster)
                header.insert(4, QStringLiteral("NODE"));
            if (cluster && readFrom)
                header.insert(5, QStringLiteral("READ FROM"));
            ctx.out() << alignedTable(header, rows);
        }
        finishListing(ctx);
    }

    void finishListing(CliContext &ctx) {
        if (m_partialError.isEmpty())
            ctx.finish(ExitOk);
        else
            ctx.failOperation(m_store->endpoint(), m_partialError);
    }

    std::unique_ptr<core::SemaphoreStore> m_store;
    std::optional<MatchOption> m_match;             // none: every semaphore
    QString m_partialError;                         // masters that could not be walked
    std::unique_ptr<core::ProfileStore> m_profiles; // made when the reads start
    std::unique_ptr<monitor::HistoryStore> m_history;
    qsizetype m_nextRead = 0;
    static constexpr int kReadWindow = 256;
    QElapsedTimer m_progressClock;
    std::unique_ptr<ListProgress> m_progress; // made at the store's first report or its result
    QList<core::DiscoveredSemaphore> m_found;
    std::vector<std::optional<core::Snapshot>> m_snapshots;
    qsizetype m_pending = 0;
};

} // namespace

std::unique_ptr<CliCommand> makeListCommand() {
    return std::make_unique<ListCommand>();
}

} // namespace semscope::cli
