// The load-test summary table and the verdict line: live figures while a run goes on, the final
// ones from the report, red where safety broke and green where it provably held.
#include "TestMain.h"
#include "model/LoadTestSummaryModel.h"
#include "model/LoadTestVerdict.h"
#include "model/StatusColors.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QSignalSpy>
#include <QtTest>

using namespace semscope;
using model::LoadTestSummaryModel;
using model::LoadTestVerdict;

namespace {
core::LoadTestProgress sample(qint64 overAdmissions) {
    core::LoadTestProgress p;
    p.elapsedMs = 250;
    p.pairsPerSecond = 1234.0;
    p.acquireP50Ms = 0.5;
    p.acquireP90Ms = 1.5;
    p.acquireP99Ms = 4.25;
    p.acquireMaxMs = 9.0;
    p.grants = 300;
    p.attempts = 450;
    p.holders = 3;
    p.maxHolders = overAdmissions > 0 ? 7 : 5;
    p.limit = 5;
    p.overAdmissions = overAdmissions;
    return p;
}

core::LoadTestReport report(const QString &label, qint64 overAdmissions) {
    core::LoadTestReport r;
    r.label = label;
    r.ok = true;
    r.config.limit = 5;
    r.grants = 1000;
    r.pairsPerSecond = 500.0;
    r.attemptsPerGrant = 1.25;
    for (int i = 1; i <= 100; ++i)
        r.acquireWait.record(qint64(i) * 100'000); // 0.1 .. 10 ms
    r.fairness.jainIndex = 0.987;
    r.longestWaitNs = 12'000'000;
    r.safety.overAdmissions = overAdmissions;
    r.safety.maxConcurrentHolders = overAdmissions > 0 ? 8 : 5;
    return r;
}

QColor foreground(const LoadTestSummaryModel &m, int row, int column) {
    return m.index(row, column).data(Qt::ForegroundRole).value<QBrush>().color();
}
} // namespace

class TestLoadTestSummaryModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void liveThenFinal();
    void unsafeBesideAtomic();
    void verdicts();
    void leakVerdicts();
    void countsOfOneInTheSingular();
};

void TestLoadTestSummaryModel::liveThenFinal() {
    LoadTestSummaryModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(m.columnCount(), 0);
    m.setRuns({QStringLiteral("leased")});
    QCOMPARE(m.columnCount(), 1);
    QCOMPARE(m.rowCount(), int(LoadTestSummaryModel::RowCount));
    QVERIFY(m.index(0, 0).data().toString().isEmpty()); // nothing yet
    QVERIFY(!m.headerData(LoadTestSummaryModel::JainRow, Qt::Vertical).toString().isEmpty());
    QVERIFY(!m.index(LoadTestSummaryModel::OverAdmissionsRow, 0).data(Qt::ToolTipRole).toString().isEmpty());

    QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
    m.setProgress(0, sample(0));
    QCOMPARE(changed.size(), 1);
    QCOMPARE(m.headerData(0, Qt::Horizontal).toString(), QStringLiteral("leased (running)"));
    QCOMPARE(m.index(LoadTestSummaryModel::PairsPerSecondRow, 0).data().toString(), QStringLiteral("1234"));
    QCOMPARE(m.index(LoadTestSummaryModel::AcquireP99Row, 0).data().toString(), QStringLiteral("4.25 ms"));
    QCOMPARE(m.index(LoadTestSummaryModel::AttemptsPerGrantRow, 0)
                 .data(LoadTestSummaryModel::ValueRole)
                 .toDouble(),
             1.5);
    QCOMPARE(m.index(LoadTestSummaryModel::OverAdmissionsRow, 0).data().toString(),
             QStringLiteral("0 so far"));
    // Zero is not proven while the run goes on: no green yet. Jain only comes with the report.
    QVERIFY(!m.index(LoadTestSummaryModel::OverAdmissionsRow, 0).data(Qt::ForegroundRole).isValid());
    QCOMPARE(m.index(LoadTestSummaryModel::JainRow, 0).data().toString(), QStringLiteral("—"));
    QVERIFY(!m.index(LoadTestSummaryModel::JainRow, 0).data(LoadTestSummaryModel::ValueRole).isValid());

    m.setReport(0, report(QStringLiteral("leased"), 0));
    QCOMPARE(m.headerData(0, Qt::Horizontal).toString(), QStringLiteral("leased"));
    QCOMPARE(m.index(LoadTestSummaryModel::PairsPerSecondRow, 0).data().toString(), QStringLiteral("500"));
    QCOMPARE(m.index(LoadTestSummaryModel::JainRow, 0).data().toString(), QStringLiteral("0.987"));
    QCOMPARE(m.index(LoadTestSummaryModel::LongestWaitRow, 0).data().toString(), QStringLiteral("12.00 ms"));
    QCOMPARE(m.index(LoadTestSummaryModel::OverAdmissionsRow, 0).data().toString(), QStringLiteral("0"));
    QCOMPARE(foreground(m, LoadTestSummaryModel::OverAdmissionsRow, 0), model::toneText(model::Tone::Good));
    QCOMPARE(m.index(LoadTestSummaryModel::MaxHoldersRow, 0).data().toString(),
             QStringLiteral("5 (limit 5)"));
    QCOMPARE(m.index(LoadTestSummaryModel::RecoveryRow, 0).data().toString(), QStringLiteral("no crashes"));
    QVERIFY(m.report(0));
    QVERIFY(!m.report(1));
    m.setProgress(3, sample(1)); // out of range: ignored
}

void TestLoadTestSummaryModel::unsafeBesideAtomic() {
    LoadTestSummaryModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setRuns({QStringLiteral("incr-lock"), QStringLiteral("lock")});
    QCOMPARE(m.columnCount(), 2);
    m.setProgress(0, sample(4));
    QCOMPARE(foreground(m, LoadTestSummaryModel::OverAdmissionsRow, 0), model::toneText(model::Tone::Bad));
    QCOMPARE(foreground(m, LoadTestSummaryModel::MaxHoldersRow, 0), model::toneText(model::Tone::Bad));
    m.setReport(0, report(QStringLiteral("incr-lock"), 37));
    m.setReport(1, report(QStringLiteral("lock"), 0));
    QCOMPARE(
        m.index(LoadTestSummaryModel::OverAdmissionsRow, 0).data(LoadTestSummaryModel::ValueRole).toDouble(),
        37.0);
    QCOMPARE(foreground(m, LoadTestSummaryModel::OverAdmissionsRow, 0), model::toneText(model::Tone::Bad));
    QCOMPARE(foreground(m, LoadTestSummaryModel::OverAdmissionsRow, 1), model::toneText(model::Tone::Good));
    m.setRuns({});
    QCOMPARE(m.columnCount(), 0);
}

void TestLoadTestSummaryModel::verdicts() {
    const LoadTestVerdict live = model::liveVerdict(QStringLiteral("incr-lock"), sample(3), false);
    QCOMPARE(live.tone, LoadTestVerdict::Tone::Bad);
    QVERIFY(live.text.contains(QLatin1String("3 over-admissions so far")));
    QCOMPARE(model::liveVerdict(QStringLiteral("lock"), sample(0), false).tone,
             LoadTestVerdict::Tone::Neutral);

    LoadTestVerdict v = model::finalVerdict(report(QStringLiteral("incr-lock"), 37), false);
    QCOMPARE(v.tone, LoadTestVerdict::Tone::Bad);
    QVERIFY2(v.text.startsWith(QLatin1String("incr-lock: 37 over-admissions")), qPrintable(v.text));
    QVERIFY(v.text.contains(QLatin1String("up to 8 holders at once, limit 5")));
    v = model::finalVerdict(report(QStringLiteral("lock"), 0), false);
    QCOMPARE(v.tone, LoadTestVerdict::Tone::Good);
    QCOMPARE(v.text, QStringLiteral("lock: 0 over-admissions, 0 token violations"));

    core::LoadTestReport stopped = report(QStringLiteral("leased"), 0);
    stopped.cancelled = true;
    QVERIFY(model::finalVerdict(stopped, false).text.endsWith(QLatin1String("(stopped early)")));
    core::LoadTestReport failed = report(QStringLiteral("leased"), 0);
    failed.ok = false;
    failed.error = QStringLiteral("connection refused");
    v = model::finalVerdict(failed, false);
    QCOMPARE(v.tone, LoadTestVerdict::Tone::Bad);
    QVERIFY(v.text.contains(QLatin1String("connection refused")));
    // Safe but with failed operations (the server was down from the second sample on): no pass.
    core::LoadTestReport outage = report(QStringLiteral("leased"), 0);
    outage.errors = 120;
    core::LoadTestProgress before;
    before.grants = 50;
    before.windowMs = 500;
    core::LoadTestProgress down = before;
    down.errors = 120;
    outage.timeline = {before, down, down};
    v = model::finalVerdict(outage, false);
    QCOMPARE(v.tone, LoadTestVerdict::Tone::Bad);
    QVERIFY2(v.text.contains(QLatin1String("120 operations failed")), qPrintable(v.text));
    QVERIFY2(v.text.contains(QLatin1String("unavailable for 1.0 s")), qPrintable(v.text));
}

void TestLoadTestSummaryModel::leakVerdicts() {
    core::LoadTestReport leak = report(QStringLiteral("slots-crash-leak"), 0);
    leak.recovery.crashes = 5;
    leak.recovery.leakedHolders = {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"),
                                   QStringLiteral("d"), QStringLiteral("e")};
    LoadTestVerdict v = model::finalVerdict(leak, true);
    QCOMPARE(v.tone, LoadTestVerdict::Tone::Bad);
    QVERIFY2(v.text.contains(QLatin1String("5 of 5 crashed slots leaked")), qPrintable(v.text));

    core::LoadTestReport back = report(QStringLiteral("slots"), 0);
    back.recovery.crashes = 5;
    back.recovery.recovered = 5;
    back.recovery.maxRecoveryNs = 2'100'000'000;
    back.recovery.recoveryNs = {2'100'000'000};
    v = model::finalVerdict(back, true);
    QCOMPARE(v.tone, LoadTestVerdict::Tone::Good);
    QVERIFY2(v.text.contains(QLatin1String("all 5 crashed slots came back")), qPrintable(v.text));

    LoadTestSummaryModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setRuns({QStringLiteral("slots-crash-leak"), QStringLiteral("slots")});
    m.setReport(0, leak);
    m.setReport(1, back);
    QCOMPARE(m.index(LoadTestSummaryModel::LeakedRow, 0).data().toString(), QStringLiteral("5"));
    QCOMPARE(foreground(m, LoadTestSummaryModel::LeakedRow, 0), model::toneText(model::Tone::Bad));
    QCOMPARE(m.index(LoadTestSummaryModel::RecoveryRow, 0).data().toString(),
             QStringLiteral("none came back"));
    QCOMPARE(m.index(LoadTestSummaryModel::RecoveryRow, 1).data().toString(), QStringLiteral("2100.00 ms"));
    QCOMPARE(m.index(LoadTestSummaryModel::LeakedRow, 1).data().toString(), QStringLiteral("0"));
}

// A count of one reads "1 crash", "1 token violation", "1 operation failed", not "1 crashes".
void TestLoadTestSummaryModel::countsOfOneInTheSingular() {
    core::LoadTestProgress p = sample(0);
    p.crashes = 1;
    p.holders = 0;
    p.crashedSlots = 1;
    p.limit = 1;
    QCOMPARE(model::liveVerdict(QStringLiteral("slots"), p, true).text,
             QStringLiteral("slots: running — 1 crash so far, 1 of 1 slot in use (1 by a crashed client)"));

    core::LoadTestReport tokens = report(QStringLiteral("incr-lock"), 0);
    tokens.safety.tokenViolations = 1;
    tokens.safety.maxConcurrentHolders = 5;
    QVERIFY2(model::finalVerdict(tokens, false)
                 .text.startsWith(QStringLiteral("incr-lock: 0 over-admissions, 1 token violation — ")),
             qPrintable(model::finalVerdict(tokens, false).text));

    core::LoadTestReport outage = report(QStringLiteral("leased"), 0);
    outage.errors = 1;
    QVERIFY2(model::finalVerdict(outage, false).text.contains(QLatin1String("but 1 operation failed")),
             qPrintable(model::finalVerdict(outage, false).text));

    core::LoadTestReport back = report(QStringLiteral("slots"), 0);
    back.recovery.crashes = 1;
    back.recovery.recovered = 1;
    QCOMPARE(model::finalVerdict(back, true).text,
             QStringLiteral("slots: 0 over-admissions, the 1 crashed slot came back"));

    core::LoadTestReport leak = report(QStringLiteral("slots-crash-leak"), 0);
    leak.recovery.crashes = 1;
    leak.recovery.leakedHolders = {QStringLiteral("a")};
    QCOMPARE(model::finalVerdict(leak, true).text,
             QStringLiteral("slots-crash-leak: 1 of 1 crashed slot leaked — never given back"));
}

SEMSCOPE_TEST_GUILESS_MAIN(TestLoadTestSummaryModel)
#include "tst_loadtestsummarymodel.moc"
