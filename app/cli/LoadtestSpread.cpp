#include "LoadtestSpread.h"

#include "SnapshotText.h"

#include <QHash>
#include <QJsonArray>
#include <QTextStream>
#include <cmath>

namespace semscope::cli {

namespace {

// Candidate names tried per semaphore before the shares give way: with 16384 slots split over a
// few masters a name of each master turns up within a handful of tries.
constexpr int kTriesPerSemaphore = 1000;

double round3(double v) {
    return std::round(v * 1000.0) / 1000.0;
}

struct PlaceTotals {
    QString place;
    int semaphores = 0;
    double pairsPerSecond = 0.0;
    qint64 grants = 0;
    qint64 errors = 0;
    qint64 overAdmissions = 0;
};

// Per place, in the order the places first appear.
QList<PlaceTotals> totalsByPlace(const QList<SpreadRun> &runs) {
    QList<PlaceTotals> out;
    QHash<QString, qsizetype> index;
    for (const SpreadRun &r : runs) {
        auto it = index.constFind(r.place);
        if (it == index.cend()) {
            it = index.insert(r.place, out.size());
            out.append(PlaceTotals{r.place});
        }
        PlaceTotals &t = out[*it];
        ++t.semaphores;
        t.pairsPerSecond += r.report.pairsPerSecond;
        t.grants += r.report.grants;
        t.errors += r.report.errors;
        t.overAdmissions += r.report.safety.overAdmissions;
    }
    return out;
}

} // namespace

QStringList spreadSemaphoreNames(const core::SemaphoreStore &store, const core::SemaphoreRef &base, int count,
                                 const QStringList &places) {
    QStringList names;
    auto nameAt = [&base](int n) -> QString { return base.name + QLatin1Char('-') + QString::number(n); };
    if (places.isEmpty()) {
        for (int n = 1; n <= count; ++n)
            names << nameAt(n);
        return names;
    }
    QHash<QString, int> share;
    for (qsizetype i = 0; i < places.size(); ++i)
        share.insert(places.at(i), count / int(places.size()) + (i < count % places.size() ? 1 : 0));
    const int lastTry = count * kTriesPerSemaphore;
    for (int n = 1; n <= lastTry && names.size() < count; ++n) {
        core::SemaphoreRef ref = base;
        ref.name = nameAt(n);
        auto it = share.find(store.locationOf(ref));
        if (it == share.end() || *it == 0)
            continue;
        --*it;
        names << ref.name;
    }
    // Only when the places' slots are too few to be hit by chance: the rest wherever they fall.
    for (int n = 1; names.size() < count; ++n) {
        if (!names.contains(nameAt(n)))
            names << nameAt(n);
    }
    return names;
}

QJsonObject spreadReportJson(const QList<SpreadRun> &runs) {
    QJsonObject o;
    double pairs = 0.0;
    qint64 grants = 0, errors = 0, over = 0, tokens = 0, interruptions = 0;
    bool ok = true, safe = true;
    QJsonArray runList;
    for (const SpreadRun &r : runs) {
        pairs += r.report.pairsPerSecond;
        grants += r.report.grants;
        errors += r.report.errors;
        over += r.report.safety.overAdmissions;
        tokens += r.report.safety.tokenViolations;
        interruptions += r.report.failoverInterruptions;
        ok = ok && r.report.passed();
        safe = safe && r.report.safe();
        QJsonObject run = r.report.toJson();
        run.insert(QStringLiteral("node"), r.place);
        runList.append(run);
    }
    QJsonArray nodes;
    for (const PlaceTotals &t : totalsByPlace(runs)) {
        nodes.append(QJsonObject{
            {QStringLiteral("node"), t.place},
            {QStringLiteral("semaphores"), t.semaphores},
            {QStringLiteral("pairs_per_s"), round3(t.pairsPerSecond)},
            {QStringLiteral("grants"), t.grants},
            {QStringLiteral("errors"), t.errors},
            {QStringLiteral("over_admissions"), t.overAdmissions},
        });
    }
    o.insert(QStringLiteral("ok"), ok);
    o.insert(QStringLiteral("safe"), safe);
    o.insert(QStringLiteral("semaphores"), int(runs.size()));
    o.insert(QStringLiteral("pairs_per_s"), round3(pairs));
    o.insert(QStringLiteral("grants"), grants);
    o.insert(QStringLiteral("errors"), errors);
    o.insert(QStringLiteral("over_admissions"), over);
    o.insert(QStringLiteral("token_violations"), tokens);
    o.insert(QStringLiteral("failover_interruptions"), interruptions);
    o.insert(QStringLiteral("nodes"), nodes);
    o.insert(QStringLiteral("runs"), runList);
    return o;
}

QString spreadReportText(const QList<SpreadRun> &runs) {
    double pairs = 0.0;
    qint64 grants = 0, errors = 0, over = 0, tokens = 0;
    for (const SpreadRun &r : runs) {
        pairs += r.report.pairsPerSecond;
        grants += r.report.grants;
        errors += r.report.errors;
        over += r.report.safety.overAdmissions;
        tokens += r.report.safety.tokenViolations;
    }
    const QList<PlaceTotals> places = totalsByPlace(runs);
    QString out;
    QTextStream s(&out);
    s << runs.size() << " semaphores on " << places.size() << (places.size() == 1 ? " node" : " nodes")
      << ": " << grants << " grants = " << QString::number(pairs, 'f', 2) << " pairs/s in total, " << errors
      << " errors, " << over << " over-admissions, " << tokens << " token violations\n\n";
    QList<QStringList> rows;
    for (const PlaceTotals &t : places)
        rows << QStringList{t.place,
                            QString::number(t.semaphores),
                            QString::number(t.pairsPerSecond, 'f', 2),
                            QString::number(t.grants),
                            QString::number(t.errors),
                            QString::number(t.overAdmissions)};
    s << alignedTable({QStringLiteral("NODE"), QStringLiteral("SEMAPHORES"), QStringLiteral("PAIRS/S"),
                       QStringLiteral("GRANTS"), QStringLiteral("ERRORS"), QStringLiteral("OVER-ADMISSIONS")},
                      rows);
    s << '\n';
    rows.clear();
    for (const SpreadRun &r : runs)
        rows << QStringList{
            r.report.config.ref.name,
            r.place,
            QString::number(r.report.pairsPerSecond, 'f', 2),
            QStringLiteral("%1/%2").arg(r.report.safety.maxConcurrentHolders).arg(r.report.config.limit),
            QString::number(r.report.errors),
            QString::number(r.report.safety.overAdmissions)};
    s << alignedTable({QStringLiteral("SEMAPHORE"), QStringLiteral("NODE"), QStringLiteral("PAIRS/S"),
                       QStringLiteral("MAX HOLDERS"), QStringLiteral("ERRORS"),
                       QStringLiteral("OVER-ADMISSIONS")},
                      rows);
    for (const SpreadRun &r : runs) {
        for (const QString &e : r.report.errorSamples)
            s << r.report.config.ref.name << ": error: " << e << '\n';
        if (!r.report.error.isEmpty())
            s << r.report.config.ref.name << ": failed: " << r.report.error << '\n';
    }
    return out;
}

} // namespace semscope::cli
