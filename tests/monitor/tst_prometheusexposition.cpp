// The exporter's metric snapshot and its Prometheus text: values taken from snapshots, every family
// with HELP and TYPE, unknown values left out, label values escaped — and a stock parser
// (`promtool check metrics`, Debian `prometheus`) accepts what comes out without a lint remark.
#include "TestMain.h"
#include "monitor/HolderEvent.h"
#include "monitor/MetricsSnapshot.h"
#include "monitor/PrometheusExposition.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTest>

using namespace semscope;
using core::Holder;
using core::HolderState;
using core::Snapshot;
using monitor::MetricsSnapshot;
using monitor::SemaphoreMetrics;

namespace {

constexpr qint64 kServerNow = 5'000'000; // server clock of the read
constexpr qint64 kLocalNow = 9'000'000;  // this machine's clock at the same moment

Holder holder(const char *id, HolderState state, std::optional<qint64> expiresAtMs = {},
              std::optional<qint64> acquiredAtMs = {}, std::optional<qint64> firstSeenMs = {},
              qint64 permits = 1) {
    Holder h;
    h.id = QString::fromLatin1(id);
    h.rawId = QByteArray(id);
    h.state = state;
    h.expiresAtMs = expiresAtMs;
    h.acquiredAtMs = acquiredAtMs;
    h.firstSeenMs = firstSeenMs;
    h.permits = permits;
    return h;
}

Snapshot snapshot(core::Kind kind, const QString &name, std::optional<qint64> limit, QList<Holder> holders) {
    Snapshot s;
    s.ref.kind = kind;
    s.ref.name = name;
    s.limit = limit;
    s.holders = std::move(holders);
    s.serverNowMs = kServerNow;
    return s;
}

// A snapshot with a bit of everything, including label values that need escaping.
MetricsSnapshot richSnapshot() {
    MetricsSnapshot m;
    m.backend = core::Backend::Redis;
    m.endpoint = QStringLiteral("redis://***@cache.internal:6379/0");
    m.semaphores << monitor::semaphoreMetrics(
        snapshot(core::Kind::Leased, QStringLiteral("jobs"), 3,
                 {holder("a", HolderState::Live, kServerNow + 1500, kServerNow - 2500),
                  holder("b", HolderState::ExpiredPresent, kServerNow - 250, kServerNow - 60000)}),
        kLocalNow);
    m.semaphores << monitor::semaphoreMetrics(
        snapshot(core::Kind::Slots, QStringLiteral("we\"ird\\name\nline"), std::nullopt,
                 {holder("x", HolderState::Stale, {}, {}, kLocalNow - 700000)}),
        kLocalNow);
    m.holderEvents.insert(QStringLiteral("acquired"), 7);
    m.holderEvents.insert(QStringLiteral("force-released"), 1);
    m.scrapeErrors = 2;
    m.discoveryDurationSeconds = 0.125;
    return m;
}

QStringList lines(const QByteArray &text) {
    return QString::fromUtf8(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

} // namespace

class TestPrometheusExposition : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void semaphoreValues_data();
    void semaphoreValues();
    void samples_data();
    void samples();
    void escaping_data();
    void escaping();
    void everyFamilyHasHelpAndTypeAndStaysTogether();
    void everyEventCounterStartsAtZero();
    void promtoolAcceptsIt();
};

void TestPrometheusExposition::semaphoreValues_data() {
    QTest::addColumn<Snapshot>("snap");
    QTest::addColumn<qint64>("used");
    QTest::addColumn<qint64>("waiters");
    QTest::addColumn<qint64>("stale");
    QTest::addColumn<qint64>("overLimit");
    QTest::addColumn<double>("oldestAge"); // -1: none
    QTest::addColumn<double>("soonest");   // -1000: none

    QTest::newRow("empty") << snapshot(core::Kind::Leased, QStringLiteral("s"), 3, {}) << 0LL << 0LL << 0LL
                           << 0LL << -1.0 << -1000.0;
    QTest::newRow("live holders: age from acquire, soonest expiry")
        << snapshot(core::Kind::Leased, QStringLiteral("s"), 3,
                    {holder("a", HolderState::Live, kServerNow + 4000, kServerNow - 1000),
                     holder("b", HolderState::Live, kServerNow + 2500, kServerNow - 3000)})
        << 2LL << 0LL << 0LL << 0LL << 3.0 << 2.5;
    QTest::newRow("expired but present counts as used and stale, expiry overdue")
        << snapshot(core::Kind::Zset, QStringLiteral("s"), 2,
                    {holder("a", HolderState::ExpiredPresent, kServerNow - 500)})
        << 1LL << 0LL << 1LL << 0LL << -1.0 << -0.5;
    QTest::newRow("waiters take no permit and have no age")
        << snapshot(core::Kind::Consul, QStringLiteral("s"), 1,
                    {holder("h", HolderState::Live, {}, kServerNow - 10000),
                     holder("w1", HolderState::Waiting, {}, kServerNow - 90000),
                     holder("w2", HolderState::Waiting), holder("o", HolderState::Orphan)})
        << 1LL << 2LL << 0LL << 0LL << 10.0 << -1000.0;
    QTest::newRow("lease-less slots holder: age from first seen (local clock), stale")
        << snapshot(core::Kind::Slots, QStringLiteral("s"), 3,
                    {holder("x", HolderState::Stale, {}, {}, kLocalNow - 720000),
                     holder("y", HolderState::Live, {}, {}, kLocalNow - 1000)})
        << 2LL << 0LL << 1LL << 0LL << 720.0 << -1000.0;
    QTest::newRow("over the limit, multi-permit holder")
        << snapshot(core::Kind::NodeSemaphore, QStringLiteral("s"), 2,
                    {holder("a", HolderState::Live, kServerNow + 1000, {}, {}, 2),
                     holder("b", HolderState::OverLimit, kServerNow + 1000)})
        << 3LL << 0LL << 0LL << 1LL << -1.0 << 1.0;
}

void TestPrometheusExposition::semaphoreValues() {
    QFETCH(Snapshot, snap);
    QFETCH(qint64, used);
    QFETCH(qint64, waiters);
    QFETCH(qint64, stale);
    QFETCH(qint64, overLimit);
    QFETCH(double, oldestAge);
    QFETCH(double, soonest);
    const SemaphoreMetrics m = monitor::semaphoreMetrics(snap, kLocalNow);
    QCOMPARE(m.kind, snap.ref.kind);
    QCOMPARE(m.name, snap.ref.name);
    QCOMPARE(m.limit, snap.limit);
    QCOMPARE(m.used, used);
    QCOMPARE(m.waiters, waiters);
    QCOMPARE(m.staleHolders, stale);
    QCOMPARE(m.overLimitHolders, overLimit);
    QCOMPARE(m.oldestHolderAgeSeconds.has_value(), oldestAge >= 0);
    if (oldestAge >= 0)
        QCOMPARE(*m.oldestHolderAgeSeconds, oldestAge);
    QCOMPARE(m.soonestExpirySeconds.has_value(), soonest > -1000);
    if (soonest > -1000)
        QCOMPARE(*m.soonestExpirySeconds, soonest);
}

void TestPrometheusExposition::samples_data() {
    QTest::addColumn<QString>("line");
    QTest::addColumn<bool>("present");
    const QString jobs = QStringLiteral(
        "{backend=\"redis\",endpoint=\"redis://***@cache.internal:6379/0\",kind=\"leased\",name=\"jobs\"}");
    const QString weird = QStringLiteral("{backend=\"redis\",endpoint=\"redis://***@cache.internal:6379/0\","
                                         "kind=\"slots\",name=\"we\\\"ird\\\\name\\nline\"}");
    const QString source =
        QStringLiteral("{backend=\"redis\",endpoint=\"redis://***@cache.internal:6379/0\"}");
    QTest::newRow("limit") << QStringLiteral("semscope_semaphore_limit") + jobs + QStringLiteral(" 3")
                           << true;
    QTest::newRow("unknown limit left out") << QStringLiteral("semscope_semaphore_limit") + weird << false;
    QTest::newRow("used") << QStringLiteral("semscope_semaphore_used") + jobs + QStringLiteral(" 2") << true;
    QTest::newRow("used, escaped labels")
        << QStringLiteral("semscope_semaphore_used") + weird + QStringLiteral(" 1") << true;
    QTest::newRow("waiters") << QStringLiteral("semscope_semaphore_waiters") + jobs + QStringLiteral(" 0")
                             << true;
    QTest::newRow("stale: expired but present")
        << QStringLiteral("semscope_semaphore_stale_holders") + jobs + QStringLiteral(" 1") << true;
    QTest::newRow("stale: stuck slots holder")
        << QStringLiteral("semscope_semaphore_stale_holders") + weird + QStringLiteral(" 1") << true;
    QTest::newRow("over limit") << QStringLiteral("semscope_semaphore_over_limit_holders") + jobs +
                                       QStringLiteral(" 0")
                                << true;
    QTest::newRow("oldest age in seconds")
        << QStringLiteral("semscope_semaphore_oldest_holder_age_seconds") + jobs + QStringLiteral(" 60")
        << true;
    QTest::newRow("oldest age from first seen")
        << QStringLiteral("semscope_semaphore_oldest_holder_age_seconds") + weird + QStringLiteral(" 700")
        << true;
    QTest::newRow("soonest expiry overdue, in seconds")
        << QStringLiteral("semscope_semaphore_soonest_expiry_seconds") + jobs + QStringLiteral(" -0.25")
        << true;
    QTest::newRow("no lease, no expiry")
        << QStringLiteral("semscope_semaphore_soonest_expiry_seconds") + weird << false;
    QTest::newRow("events by name")
        << QStringLiteral(
               "semscope_holder_events_total{backend=\"redis\",endpoint=\"redis://***@cache.internal:6379/"
               "0\",event=\"acquired\"} 7")
        << true;
    QTest::newRow("scrape errors") << QStringLiteral("semscope_scrape_errors_total") + source +
                                          QStringLiteral(" 2")
                                   << true;
    QTest::newRow("discovery duration")
        << QStringLiteral("semscope_discovery_duration_seconds") + source + QStringLiteral(" 0.125") << true;
    QTest::newRow("semaphores read") << QStringLiteral("semscope_semaphores") + source + QStringLiteral(" 2")
                                     << true;
}

void TestPrometheusExposition::samples() {
    QFETCH(QString, line);
    QFETCH(bool, present);
    const QStringList all = lines(monitor::prometheusExposition(richSnapshot()));
    if (present) {
        QVERIFY2(all.contains(line),
                 qPrintable(line + QStringLiteral("\nnot in:\n") + all.join(QLatin1Char('\n'))));
    } else {
        // Not even with another value.
        for (const QString &l : all)
            QVERIFY2(!l.startsWith(line + QLatin1Char(' ')), qPrintable(l));
    }
}

void TestPrometheusExposition::escaping_data() {
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("escaped");
    QTest::newRow("plain") << QStringLiteral("orders") << QStringLiteral("orders");
    QTest::newRow("quote") << QStringLiteral("a\"b") << QStringLiteral("a\\\"b");
    QTest::newRow("backslash") << QStringLiteral("a\\b") << QStringLiteral("a\\\\b");
    QTest::newRow("line feed") << QStringLiteral("a\nb") << QStringLiteral("a\\nb");
    QTest::newRow("all, backslash first") << QStringLiteral("\\\"\n") << QStringLiteral("\\\\\\\"\\n");
    QTest::newRow("braces, commas and unicode as they are")
        << QStringLiteral("{q},x=ü") << QStringLiteral("{q},x=ü");
}

void TestPrometheusExposition::escaping() {
    QFETCH(QString, value);
    QFETCH(QString, escaped);
    QCOMPARE(monitor::escapeLabelValue(value), escaped);
}

void TestPrometheusExposition::everyFamilyHasHelpAndTypeAndStaysTogether() {
    const QStringList all = lines(monitor::prometheusExposition(richSnapshot()));
    QString current;
    QSet<QString> done;
    for (qsizetype i = 0; i < all.size(); ++i) {
        const QString &l = all.at(i);
        if (l.startsWith(QLatin1String("# HELP "))) {
            const QString name = l.section(QLatin1Char(' '), 2, 2);
            QVERIFY2(!done.contains(name), qPrintable(QStringLiteral("family twice: ") + name));
            QVERIFY(i + 1 < all.size());
            QVERIFY2(all.at(i + 1).startsWith(QStringLiteral("# TYPE ") + name + QLatin1Char(' ')),
                     qPrintable(name));
            const QString type = all.at(i + 1).section(QLatin1Char(' '), 3, 3);
            QVERIFY2(type == QLatin1String("gauge") || type == QLatin1String("counter"), qPrintable(type));
            QCOMPARE(name.endsWith(QLatin1String("_total")), type == QLatin1String("counter"));
            QVERIFY(name.startsWith(QLatin1String("semscope_")));
            done.insert(name);
            current = name;
            ++i;
            continue;
        }
        QVERIFY2(!l.startsWith(QLatin1Char('#')), qPrintable(l));
        const QString sampleName = l.left(l.indexOf(QLatin1Char('{')));
        QVERIFY2(sampleName == current, qPrintable(l)); // a sample of the family just announced
    }
    for (const char *name :
         {"semscope_semaphore_limit", "semscope_semaphore_used", "semscope_semaphore_waiters",
          "semscope_semaphore_stale_holders", "semscope_semaphore_oldest_holder_age_seconds",
          "semscope_semaphore_soonest_expiry_seconds", "semscope_holder_events_total",
          "semscope_scrape_errors_total", "semscope_discovery_duration_seconds"})
        QVERIFY2(done.contains(QLatin1String(name)), name);
}

void TestPrometheusExposition::everyEventCounterStartsAtZero() {
    MetricsSnapshot m;
    m.endpoint = QStringLiteral("http://127.0.0.1:8500");
    m.backend = core::Backend::Consul;
    const QStringList all = lines(monitor::prometheusExposition(m));
    for (const QString &event : monitor::allEventNames())
        QVERIFY2(
            all.contains(QStringLiteral("semscope_holder_events_total{backend=\"consul\",endpoint=\"http://"
                                        "127.0.0.1:8500\",event=\"%1\"} 0")
                             .arg(event)),
            qPrintable(event));
    // Before the first discovery there is no duration to tell.
    for (const QString &l : all)
        QVERIFY2(!l.startsWith(QLatin1String("semscope_discovery_duration_seconds{")), qPrintable(l));
}

void TestPrometheusExposition::promtoolAcceptsIt() {
    // CI installs `prometheus` (scripts/bootstrap.sh): without promtool this test fails, it does not skip.
    const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
    QVERIFY2(!promtool.isEmpty(), "promtool not found: install Debian's `prometheus` (scripts/bootstrap.sh)");
    for (const MetricsSnapshot &m : {richSnapshot(), MetricsSnapshot()}) {
        QProcess p;
        p.start(promtool, {QStringLiteral("check"), QStringLiteral("metrics")});
        QVERIFY(p.waitForStarted());
        p.write(monitor::prometheusExposition(m));
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(30000));
        const QByteArray said = p.readAllStandardOutput() + p.readAllStandardError();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, said.constData());
        QVERIFY2(said.trimmed().isEmpty(), said.constData()); // no lint remark either
    }
}

SEMSCOPE_TEST_GUILESS_MAIN(TestPrometheusExposition)
#include "tst_prometheusexposition.moc"
