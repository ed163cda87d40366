#include "BusyReport.h"

#include "SnapshotJson.h"
#include "SnapshotText.h"
#include "core/CountText.h"
#include "core/Duration.h"

#include <QJsonArray>
#include <QJsonObject>
#include <algorithm>

namespace semscope::cli {

void reportBusy(CliContext &ctx, core::SemaphoreStore &store, const core::AcquireResult &r,
                const core::Snapshot &snap) {
    // Prefer the fresh read; fall back to the holders the denied attempt reported.
    const bool readOk = snap.serverNowMs > 0;
    const QList<core::Holder> holders = readOk ? snap.holders : r.holders;
    const qint64 now = readOk ? snap.serverNowMs : 0;
    ctx.warn(snap.warnings);
    if (ctx.json()) {
        QJsonObject o;
        o.insert(QStringLiteral("status"), QStringLiteral("busy"));
        o.insert(QStringLiteral("kind"), core::kindName(snap.ref.kind));
        o.insert(QStringLiteral("name"), snap.ref.name);
        if (snap.limit)
            o.insert(QStringLiteral("limit"), static_cast<double>(*snap.limit));
        o.insert(QStringLiteral("holders"), holdersToJson(holders, now));
        if (r.earliestExpiryMs)
            o.insert(QStringLiteral("earliest_expiry_ms"), static_cast<double>(*r.earliestExpiryMs));
        if (r.queuePosition)
            o.insert(QStringLiteral("queue_position"), static_cast<double>(*r.queuePosition));
        o.insert(QStringLiteral("attempts"), r.attempts);
        o.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(snap.warnings));
        if (!r.error.isEmpty())
            o.insert(QStringLiteral("reason"), r.error);
        ctx.printJson(o);
    } else {
        ctx.out() << holdersTable(holders, now);
    }
    // The store's own reason when it gave one (an outer lock held, the holder already in), else
    // the slots being full.
    QString why = QStringLiteral("%1 is busy").arg(snap.ref.name);
    if (!r.error.isEmpty())
        why += QStringLiteral(": ") + r.error;
    else if (snap.limit)
        why += *snap.limit == 1
                   ? QStringLiteral(": its only slot is held")
                   : QStringLiteral(": all %1 are held")
                         .arg(core::countText(*snap.limit, QStringLiteral("slot"), QStringLiteral("slots")));
    if (r.earliestExpiryMs && now > 0)
        why += QStringLiteral("; the first lease ends in %1")
                   .arg(core::formatDurationMs(std::max<qint64>(0, *r.earliestExpiryMs - now)));
    ctx.fail(ExitFailed, store.endpoint(), why);
}

} // namespace semscope::cli
