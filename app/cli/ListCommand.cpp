#include "CliCommand.h"
#include "CliContext.h"
#include "SemaphoreCommand.h"
#include "SnapshotJson.h"
#include "SnapshotText.h"
#include "StoreFactory.h"
#include "core/ProfileStore.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QRegularExpression>
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
        if (ctx.isSet(QStringLiteral("match"))) {
            // GLOB names semaphores (`orders*`) or keys (`{orders}:*`): scan every key that contains
            // a match, keep the semaphores whose name or one of whose keys matches.
            const QString glob = ctx.value(QStringLiteral("match"));
            m_filter = QRegularExpression(QRegularExpression::wildcardToRegularExpression(glob));
            request.match = glob.startsWith(QLatin1Char('*')) ? glob : QString(QLatin1Char('*') + glob);
            if (!request.match.endsWith(QLatin1Char('*')))
                request.match += QLatin1Char('*');
        }
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
        whenReachable(ctx, *m_store, [this, &ctx, request] { discover(ctx, request); });
    }

private:
    void discover(CliContext &ctx, const core::DiscoverRequest &request) {
        m_progressClock.start();
        m_store->discover(
            request, core::Cancellation(),
            [this, &ctx](const core::DiscoverProgress &p) {
                m_foundSoFar += p.found.size();
                // A terminal gets one line rewritten in place; a pipe gets a line a second.
                const bool tty = ctx.stderrIsTerminal();
                if (!tty && m_progressClock.elapsed() < 1000 && m_progressLines > 0)
                    return;
                m_progressClock.restart();
                ++m_progressLines;
                QString line = QStringLiteral("scanned %1").arg(p.scannedKeys);
                if (p.totalKeys >= 0)
                    line += QStringLiteral(" of %1").arg(p.totalKeys);
                line += QStringLiteral(" keys, %1 semaphores so far").arg(m_foundSoFar);
                ctx.err() << (tty ? QString(QStringLiteral("\r") + line) : QString(line + QLatin1Char('\n')));
                ctx.err().flush();
            },
            [this, &ctx](const core::DiscoverResult &result) {
                if (ctx.stderrIsTerminal() && m_progressLines > 0)
                    ctx.err() << '\n';
                if (!result.ok) {
                    ctx.fail(ExitFailed, m_store->endpoint(),
                             QStringLiteral("discovery failed: ") + result.error);
                    return;
                }
                ctx.err() << QStringLiteral("scanned %1 keys, found %2 semaphores\n")
                                 .arg(result.scannedKeys)
                                 .arg(result.semaphores.size());
                ctx.err().flush();
                readAll(ctx, result.semaphores);
            });
    }

    // Reads every semaphore found (the connection pipelines the reads), then prints them by name.
    bool wanted(const core::DiscoveredSemaphore &d) const {
        if (m_filter.pattern().isEmpty() || m_filter.match(d.ref.name).hasMatch())
            return true;
        return std::any_of(d.keys.cbegin(), d.keys.cend(),
                           [this](const QString &k) { return m_filter.match(k).hasMatch(); });
    }

    void readAll(CliContext &ctx, QList<core::DiscoveredSemaphore> found) {
        found.removeIf([this](const core::DiscoveredSemaphore &d) { return !wanted(d); });
        std::sort(found.begin(), found.end(), [](const auto &a, const auto &b) {
            return a.ref.name == b.ref.name ? a.ref.kind < b.ref.kind : a.ref.name < b.ref.name;
        });
        m_found = found;
        m_snapshots.assign(found.size(), std::nullopt);
        m_pending = found.size();
        if (m_pending == 0) {
            print(ctx);
            return;
        }
        core::ProfileStore profiles;
        for (qsizetype i = 0; i < found.size(); ++i) {
            core::SemaphoreRef ref = found.at(i).ref;
            ref.profile = profiles.resolve(m_store->endpoint(), ref);
            m_store->snapshot(ref, [this, &ctx, i](const core::Snapshot &snap) {
                m_snapshots[i] = snap;
                if (--m_pending == 0)
                    print(ctx);
            });
        }
    }

    void print(CliContext &ctx) {
        if (ctx.json()) {
            QJsonArray rows;
            for (qsizetype i = 0; i < m_found.size(); ++i)
                rows.append(listRowToJson(m_found.at(i), m_snapshots[i]));
            ctx.printJson(rows);
            ctx.finish(ExitOk);
            return;
        }
        QList<QStringList> rows;
        for (qsizetype i = 0; i < m_found.size(); ++i) {
            const QJsonObject row = listRowToJson(m_found.at(i), m_snapshots[i]);
            const QJsonArray warnings = row.value(QStringLiteral("warnings")).toArray();
            QString limit = row.contains(QStringLiteral("limit"))
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
        }
        if (rows.isEmpty())
            ctx.out() << "(no semaphores found)\n";
        else
            ctx.out() << alignedTable({QStringLiteral("KIND"), QStringLiteral("NAME"),
                                       QStringLiteral("LIMIT"), QStringLiteral("USED"),
                                       QStringLiteral("WARNINGS")},
                                      rows);
        ctx.finish(ExitOk);
    }

    std::unique_ptr<core::SemaphoreStore> m_store;
    QRegularExpression m_filter; // no pattern: every semaphore
    QElapsedTimer m_progressClock;
    int m_progressLines = 0;
    qint64 m_foundSoFar = 0;
    QList<core::DiscoveredSemaphore> m_found;
    std::vector<std::optional<core::Snapshot>> m_snapshots;
    qsizetype m_pending = 0;
};

} // namespace

std::unique_ptr<CliCommand> makeListCommand() {
    return std::make_unique<ListCommand>();
}

} // namespace semscope::cli
