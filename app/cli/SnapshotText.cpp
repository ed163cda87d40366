#include "SnapshotText.h"

#include "core/Duration.h"
#include "core/PrintableText.h"

#include <QDateTime>

namespace semscope::cli {

namespace {
QString orDash(const std::optional<qint64> &v) {
    return v ? QString::number(*v) : QStringLiteral("-");
}
} // namespace

QString alignedTable(const QStringList &header, const QList<QStringList> &serverRows) {
    // Cells carry what the server stored (ids, key names): escaped, so none can steer the terminal.
    QList<QStringList> rows;
    rows.reserve(serverRows.size());
    for (const QStringList &row : serverRows) {
        QStringList cells;
        cells.reserve(row.size());
        for (const QString &cell : row)
            cells << core::printableServerText(cell);
        rows << cells;
    }
    QList<qsizetype> widths;
    for (const QString &h : header)
        widths << h.size();
    for (const QStringList &row : rows) {
        for (qsizetype i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], row.at(i).size());
    }
    auto line = [&widths](const QStringList &cells) -> QString {
        QString text;
        for (qsizetype i = 0; i < cells.size(); ++i) {
            if (i + 1 == cells.size())
                text += cells.at(i); // no trailing blanks
            else
                text += cells.at(i).leftJustified(widths.value(i)) + QStringLiteral("  ");
        }
        return text + QLatin1Char('\n');
    };
    QString text = line(header);
    for (const QStringList &row : rows)
        text += line(row);
    return text;
}

QString holdersTable(const QList<core::Holder> &holders, qint64 nowMs) {
    QList<QStringList> rows;
    for (const core::Holder &h : holders) {
        QString ttl = QStringLiteral("-");
        if (h.expiresAtMs && nowMs > 0) {
            const qint64 left = *h.expiresAtMs - nowMs;
            ttl = left >= 0 ? core::formatDurationMs(left)
                            : QStringLiteral("expired %1 ago").arg(core::formatDurationMs(-left));
        } else if (h.details.value(QStringLiteral("no_ttl")).toBool()) {
            ttl = QStringLiteral("none");
        }
        // A multi-permit holder says how many permits it takes right after its id.
        const QString id = h.permits > 1 ? QStringLiteral("%1 (%2 permits)").arg(h.id).arg(h.permits) : h.id;
        // A waiter's rank is its place in the queue: "line 1" is served next.
        const std::optional<qint64> place = h.placeInLine();
        const QString rank = place ? QStringLiteral("line %1").arg(*place) : orDash(h.rank);
        rows << QStringList{id, orDash(h.slot), rank, orDash(h.token), ttl, core::holderStateName(h.state)};
    }
    return alignedTable({QStringLiteral("HOLDER"), QStringLiteral("SLOT"), QStringLiteral("RANK"),
                         QStringLiteral("TOKEN"), QStringLiteral("TTL"), QStringLiteral("STATE")},
                        rows);
}

QString clientsText(const QList<core::Holder> &holders,
                    const QHash<QString, core::HolderClientLiveness> &clients, qint64 nowMs) {
    QList<QStringList> rows;
    bool anyGone = false;
    for (const core::Holder &h : holders) {
        const auto it = clients.constFind(h.id);
        if (it == clients.cend())
            continue;
        const core::ClientLiveness &l = it->liveness;
        QString said = core::livenessSummary(l, nowMs);
        if (l.state != core::ClientLiveness::State::Unknown && !l.evidence.isEmpty())
            said += QStringLiteral(" — ") + core::printableServerText(l.evidence);
        if (!l.limits.isEmpty())
            said += QStringLiteral(" (%1)").arg(l.limits);
        anyGone = anyGone || (l.state == core::ClientLiveness::State::Gone &&
                              l.source == core::ClientLiveness::Source::RedisClients);
        rows << QStringList{h.id, said};
    }
    if (rows.isEmpty())
        return {};
    QString text = alignedTable({QStringLiteral("HOLDER"), QStringLiteral("CLIENT")}, rows);
    if (anyGone)
        text += QStringLiteral("note: a program that takes a slot and exits on purpose (semscope-cli "
                               "acquire) reads gone too: ask its owner before force-releasing\n");
    return text;
}

QString snapshotText(const core::Snapshot &s, const QHash<QString, core::HolderClientLiveness> &clients) {
    QString text = QStringLiteral("%1 %2  limit %3 (%4)  used %5")
                       .arg(core::kindName(s.ref.kind), core::printableServerText(s.ref.name),
                            s.limit ? QString::number(*s.limit) : QStringLiteral("?"),
                            core::limitSourceName(s.limitSource))
                       .arg(s.usedCount());
    if (s.counter)
        text += QStringLiteral("  counter %1").arg(*s.counter);
    if (!s.freeSlots.isEmpty()) {
        QStringList free;
        for (qint64 slot : s.freeSlots)
            free << QString::number(slot);
        text += QStringLiteral("  free slots %1").arg(free.join(QLatin1Char(',')));
    }
    text += QLatin1Char('\n');
    if (s.slot >= 0)
        text += QStringLiteral("on master %1 (hash slot %2)\n").arg(s.node).arg(s.slot);
    if (!s.readFrom.isEmpty())
        text += QStringLiteral("read from %1\n").arg(s.readFrom);
    if (s.holders.isEmpty())
        text += QStringLiteral("(no holders)\n");
    else
        text += holdersTable(s.holders, s.serverNowMs);
    text += clientsText(s.holders, clients, QDateTime::currentMSecsSinceEpoch());
    for (const QString &n : s.notes)
        text += QStringLiteral("note: ") + core::printableServerText(n) + QLatin1Char('\n');
    for (const QString &w : s.warnings)
        text += QStringLiteral("warning: ") + core::printableServerText(w) + QLatin1Char('\n');
    return text;
}

} // namespace semscope::cli
