#include "TestMain.h"
#include "model/SemaphoreFilterProxy.h"
#include "model/SemaphoreListModel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace semscope;
using core::Kind;
using model::SemaphoreListModel;

class TestSemaphoreFilterProxy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void filters_data();
    void filters();
    void expiringFilterFollowsTheClock();
    void sortsNumerically();

private:
    void add(Kind kind, const QString &name, qint64 used, qint64 limit, QList<core::HolderState> states,
             std::optional<qint64> expiresAt);
    qint64 m_local = 0;
    std::unique_ptr<SemaphoreListModel> m_model;
};

void TestSemaphoreFilterProxy::add(Kind kind, const QString &name, qint64 used, qint64 limit,
                                   QList<core::HolderState> states, std::optional<qint64> expiresAt) {
    core::Snapshot s;
    s.ref = {kind, name, {}};
    s.limit = limit;
    s.serverNowMs = 1'000'000;
    for (qint64 i = 0; i < used; ++i) {
        core::Holder h;
        h.id = QStringLiteral("%1-%2").arg(name).arg(i);
        h.state = i < states.size() ? states.at(i) : core::HolderState::Live;
        h.expiresAtMs = expiresAt;
        s.holders << h;
    }
    m_model->updateSnapshot(s);
}

void TestSemaphoreFilterProxy::init() {
    m_local = 1'000'000;
    m_model = std::make_unique<SemaphoreListModel>(nullptr, [this] { return m_local; });
    add(Kind::Leased, "jobs", 2, 5, {}, 1'060'000);
    add(Kind::Leased, "reports", 2, 2, {core::HolderState::ExpiredPresent}, 995'000);
    add(Kind::Slots, "printers", 1, 3, {}, std::nullopt);
    add(Kind::Consul, "service-a", 2, 3, {core::HolderState::Stale}, std::nullopt);
    add(Kind::Zset, "rate", 3, 4, {}, 1'005'000);
}

void TestSemaphoreFilterProxy::filters_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("staleOnly");
    QTest::addColumn<int>("expiringWithin");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("everything") << QString() << -1 << false << -1
                                << QStringList{"jobs", "printers", "rate", "reports", "service-a"};
    QTest::newRow("text") << "PORT" << -1 << false << -1 << QStringList{"reports"};
    QTest::newRow("text matches kind") << "consul" << -1 << false << -1 << QStringList{"service-a"};
    QTest::newRow("kind") << QString() << int(Kind::Leased) << false << -1 << QStringList{"jobs", "reports"};
    QTest::newRow("stale only") << QString() << -1 << true << -1 << QStringList{"reports", "service-a"};
    QTest::newRow("stale leased") << QString() << int(Kind::Leased) << true << -1 << QStringList{"reports"};
    QTest::newRow("expiring within 10 s") << QString() << -1 << false << 10 << QStringList{"rate", "reports"};
    QTest::newRow("expiring within 120 s")
        << QString() << -1 << false << 120 << QStringList{"jobs", "rate", "reports"};
}

void TestSemaphoreFilterProxy::filters() {
    QFETCH(QString, text);
    QFETCH(int, kind);
    QFETCH(bool, staleOnly);
    QFETCH(int, expiringWithin);
    QFETCH(QStringList, expected);
    model::SemaphoreFilterProxy proxy;
    proxy.setSourceModel(m_model.get());
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setText(text);
    proxy.setKind(kind < 0 ? std::nullopt : std::optional<Kind>(Kind(kind)));
    proxy.setStaleOnly(staleOnly);
    proxy.setExpiringWithinSeconds(expiringWithin < 0 ? std::nullopt : std::optional<int>(expiringWithin));
    QStringList shown;
    for (int r = 0; r < proxy.rowCount(); ++r)
        shown << proxy.index(r, SemaphoreListModel::NameColumn).data().toString();
    shown.sort();
    QCOMPARE(shown, expected);
}

void TestSemaphoreFilterProxy::expiringFilterFollowsTheClock() {
    model::SemaphoreFilterProxy proxy;
    proxy.setSourceModel(m_model.get());
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setExpiringWithinSeconds(30);
    QCOMPARE(proxy.rowCount(), 2); // rate (5 s), reports (expired)
    m_local += 40'000;             // jobs now has 20 s left
    m_model->tick();               // the list's own timer does this every second
    QCOMPARE(proxy.rowCount(), 3);
}

void TestSemaphoreFilterProxy::sortsNumerically() {
    model::SemaphoreFilterProxy proxy;
    proxy.setSourceModel(m_model.get());
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.sort(SemaphoreListModel::UsageColumn, Qt::DescendingOrder);
    // reports 2/2 = 100 %, rate 3/4, service-a 2/3, jobs 2/5, printers 1/3
    QCOMPARE(proxy.index(0, SemaphoreListModel::NameColumn).data().toString(), QStringLiteral("reports"));
    QCOMPARE(proxy.index(4, SemaphoreListModel::NameColumn).data().toString(), QStringLiteral("printers"));
    proxy.sort(SemaphoreListModel::StaleColumn, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, SemaphoreListModel::StaleColumn).data().toString(), QStringLiteral("1"));
}

SEMSCOPE_TEST_MAIN(TestSemaphoreFilterProxy)
#include "tst_semaphorefilterproxy.moc"
