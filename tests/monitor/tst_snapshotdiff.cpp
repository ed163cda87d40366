#include "TestMain.h"
#include "monitor/SnapshotDiff.h"

#include <QJsonObject>
#include <QTest>

using namespace semscope;
using core::Holder;
using core::HolderState;
using core::Snapshot;
using monitor::HolderEvent;

namespace {

constexpr qint64 kNow = 1'000'000; // server clock of the current read

Holder holder(const char *id, HolderState state = HolderState::Live, std::optional<qint64> expiresAtMs = {},
              std::optional<qint64> token = {}, std::optional<qint64> slot = {}) {
    Holder h;
    h.id = QString::fromLatin1(id);
    h.rawId = QByteArray(id);
    h.state = state;
    h.expiresAtMs = expiresAtMs;
    h.token = token;
    h.slot = slot;
    return h;
}

Snapshot snapshot(QList<Holder> holders, std::optional<qint64> limit = 3, qint64 serverNowMs = kNow) {
    Snapshot s;
    s.ref.kind = core::Kind::Leased;
    s.ref.name = QStringLiteral("jobs");
    s.limit = limit;
    s.limitSource = core::LimitSource::Stored;
    s.holders = std::move(holders);
    s.serverNowMs = serverNowMs;
    return s;
}

// "event holder" per event, the way the table below spells what it expects.
QStringList summary(const QList<HolderEvent> &events) {
    QStringList out;
    for (const HolderEvent &e : events)
        out << (e.holder.isEmpty() ? e.event : e.event + QLatin1Char(' ') + e.holder);
    return out;
}

} // namespace

class TestSnapshotDiff : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void events_data();
    void events();
    void eventsCarryHolderFacts();
    void appearedSaysLimitAndUse();
    void limitChangeSaysBoth();
    void clearedRecordSaysItsState_data();
    void clearedRecordSaysItsState();
    void jsonHasEveryKey();
    void textLine();
};

void TestSnapshotDiff::events_data() {
    QTest::addColumn<bool>("hasPrevious");
    QTest::addColumn<Snapshot>("previous");
    QTest::addColumn<Snapshot>("current");
    QTest::addColumn<QStringList>("forceReleased");
    QTest::addColumn<QStringList>("expected");

    const Snapshot none;
    const qint64 later = kNow + 20000;
    const qint64 earlier = kNow - 1;

    QTest::newRow("first read, empty")
        << false << none << snapshot({}) << QStringList() << QStringList{"appeared"};
    QTest::newRow("first read, live holders are not news")
        << false << none << snapshot({holder("a"), holder("b")}) << QStringList() << QStringList{"appeared"};
    QTest::newRow("first read reports conditions")
        << false << none
        << snapshot({holder("a", HolderState::Stale), holder("b", HolderState::OverLimit),
                     holder("c", HolderState::ExpiredPresent, earlier), holder("w", HolderState::Waiting)})
        << QStringList() << QStringList{"appeared", "stale a", "over-limit b", "expired c"};
    QTest::newRow("nothing changed") << true << snapshot({holder("a", HolderState::Live, later, 5)})
                                     << snapshot({holder("a", HolderState::Live, later, 5)}) << QStringList()
                                     << QStringList();
    QTest::newRow("lease refreshed is no event")
        << true << snapshot({holder("a", HolderState::Live, later, 5)})
        << snapshot({holder("a", HolderState::Live, later + 5000, 5)}) << QStringList() << QStringList();
    QTest::newRow("acquired") << true << snapshot({}) << snapshot({holder("a", HolderState::Live, later, 1)})
                              << QStringList() << QStringList{"acquired a"};
    QTest::newRow("two acquired, order kept")
        << true << snapshot({holder("a")}) << snapshot({holder("a"), holder("b"), holder("c")})
        << QStringList() << QStringList{"acquired b", "acquired c"};
    QTest::newRow("acquired already over the limit")
        << true << snapshot({holder("a")}) << snapshot({holder("a"), holder("b", HolderState::OverLimit)})
        << QStringList() << QStringList{"acquired b", "over-limit b"};
    QTest::newRow("released before its lease ran out")
        << true << snapshot({holder("a", HolderState::Live, later)}) << snapshot({}) << QStringList()
        << QStringList{"released a"};
    QTest::newRow("lease-less holder released")
        << true << snapshot({holder("a", HolderState::Live, {}, {}, 1)}) << snapshot({}) << QStringList()
        << QStringList{"released a"};
    QTest::newRow("gone after its lease ran out")
        << true << snapshot({holder("a", HolderState::Live, earlier)}) << snapshot({}) << QStringList()
        << QStringList{"expired a"};
    QTest::newRow("gone exactly at expiry") << true << snapshot({holder("a", HolderState::Live, kNow)})
                                            << snapshot({}) << QStringList() << QStringList{"expired a"};
    QTest::newRow("gone while the server time is unknown")
        << true << snapshot({holder("a", HolderState::Live, earlier)}) << snapshot({}, 3, 0) << QStringList()
        << QStringList{"released a"};
    QTest::newRow("force-released by an operator")
        << true << snapshot({holder("a", HolderState::Live, later), holder("b", HolderState::Live, later)})
        << snapshot({holder("b", HolderState::Live, later)}) << QStringList{"a"}
        << QStringList{"force-released a"};
    QTest::newRow("a mark for a holder still there changes nothing")
        << true << snapshot({holder("a")}) << snapshot({holder("a")}) << QStringList{"a"} << QStringList();
    QTest::newRow("force-release wins over a lease that also ran out")
        << true << snapshot({holder("a", HolderState::Live, earlier)}) << snapshot({}) << QStringList{"a"}
        << QStringList{"force-released a"};
    QTest::newRow("force-released stale holder")
        << true << snapshot({holder("a", HolderState::Stale)}) << snapshot({}) << QStringList{"a"}
        << QStringList{"force-released a"};
    QTest::newRow("expired record cleared")
        << true << snapshot({holder("a", HolderState::ExpiredPresent, earlier - 5)}) << snapshot({})
        << QStringList() << QStringList{"removed a"};
    QTest::newRow("stale record cleared") << true << snapshot({holder("a", HolderState::Stale)})
                                          << snapshot({}) << QStringList() << QStringList{"removed a"};
    QTest::newRow("over-limit loser left")
        << true << snapshot({holder("a"), holder("b", HolderState::OverLimit)}) << snapshot({holder("a")})
        << QStringList() << QStringList{"released b"};
    QTest::newRow("lease runs out, record stays")
        << true << snapshot({holder("a", HolderState::Live, later)})
        << snapshot({holder("a", HolderState::ExpiredPresent, earlier)}) << QStringList()
        << QStringList{"expired a"};
    QTest::newRow("turns stale") << true << snapshot({holder("a")})
                                 << snapshot({holder("a", HolderState::Stale)}) << QStringList()
                                 << QStringList{"stale a"};
    QTest::newRow("stays stale") << true << snapshot({holder("a", HolderState::Stale)})
                                 << snapshot({holder("a", HolderState::Stale)}) << QStringList()
                                 << QStringList();
    QTest::newRow("turns over-limit")
        << true << snapshot({holder("a")}) << snapshot({holder("a", HolderState::OverLimit)}) << QStringList()
        << QStringList{"over-limit a"};
    QTest::newRow("back to live is no event") << true << snapshot({holder("a", HolderState::OverLimit)})
                                              << snapshot({holder("a")}) << QStringList() << QStringList();
    QTest::newRow("same holder, new token")
        << true << snapshot({holder("a", HolderState::Live, later, 5)})
        << snapshot({holder("a", HolderState::Live, later, 9)}) << QStringList() << QStringList{"acquired a"};
    QTest::newRow("same holder, new slot") << true << snapshot({holder("a", HolderState::Live, {}, {}, 1)})
                                           << snapshot({holder("a", HolderState::Live, {}, {}, 2)})
                                           << QStringList() << QStringList{"acquired a"};
    QTest::newRow("token appears where there was none")
        << true << snapshot({holder("a")}) << snapshot({holder("a", HolderState::Live, {}, 4)})
        << QStringList() << QStringList();
    QTest::newRow("waiter arrives") << true << snapshot({holder("a")})
                                    << snapshot({holder("a"), holder("w", HolderState::Waiting)})
                                    << QStringList() << QStringList{"waiting w"};
    QTest::newRow("waiter keeps waiting")
        << true << snapshot({holder("w", HolderState::Waiting)})
        << snapshot({holder("w", HolderState::Waiting)}) << QStringList() << QStringList();
    QTest::newRow("waiter is served")
        << true << snapshot({holder("a"), holder("w", HolderState::Waiting)}) << snapshot({holder("w")})
        << QStringList() << QStringList{"acquired w", "released a"};
    QTest::newRow("waiter gives up") << true << snapshot({holder("w", HolderState::Waiting)}) << snapshot({})
                                     << QStringList() << QStringList();
    QTest::newRow("holder falls back to waiting")
        << true << snapshot({holder("a")}) << snapshot({holder("a", HolderState::Waiting)}) << QStringList()
        << QStringList{"released a", "waiting a"};
    QTest::newRow("force-released holder keeps its contender key")
        << true << snapshot({holder("a", HolderState::Live, later)})
        << snapshot({holder("a", HolderState::Waiting)}) << QStringList{"a"}
        << QStringList{"force-released a", "waiting a"};
    QTest::newRow("holder turned orphan")
        << true << snapshot({holder("a", HolderState::Stale)}) << snapshot({holder("a", HolderState::Orphan)})
        << QStringList() << QStringList{"removed a"};
    QTest::newRow("orphan records are no holders")
        << true << snapshot({holder("o", HolderState::Orphan)})
        << snapshot({holder("p", HolderState::Orphan)}) << QStringList() << QStringList();
    QTest::newRow("limit raised") << true << snapshot({}, 3) << snapshot({}, 5) << QStringList()
                                  << QStringList{"limit-changed"};
    QTest::newRow("limit becomes unknown") << true << snapshot({}, 3) << snapshot({}, std::nullopt)
                                           << QStringList() << QStringList{"limit-changed"};
    QTest::newRow("limit change comes first")
        << true << snapshot({holder("a")}, 1) << snapshot({holder("b")}, 2) << QStringList()
        << QStringList{"limit-changed", "acquired b", "released a"};
    QTest::newRow("duplicated id gone is reported once")
        << true
        << snapshot(
               {holder("a", HolderState::Live, later, {}, 1), holder("a", HolderState::Live, later, {}, 2)})
        << snapshot({}) << QStringList() << QStringList{"released a"};
}

void TestSnapshotDiff::events() {
    QFETCH(bool, hasPrevious);
    QFETCH(Snapshot, previous);
    QFETCH(Snapshot, current);
    QFETCH(QStringList, forceReleased);
    QFETCH(QStringList, expected);
    const QList<HolderEvent> got =
        monitor::diffSnapshots(hasPrevious ? &previous : nullptr, current, 42,
                               QSet<QString>(forceReleased.begin(), forceReleased.end()));
    QCOMPARE(summary(got), expected);
    for (const HolderEvent &e : got) {
        QCOMPARE(e.atMs, 42);
        QCOMPARE(e.ref, current.ref);
        QVERIFY2(monitor::allEventNames().contains(e.event), qPrintable(e.event));
    }
}

void TestSnapshotDiff::eventsCarryHolderFacts() {
    const Snapshot before = snapshot({});
    const Snapshot after = snapshot({holder("a", HolderState::Live, kNow + 2500, 17, 2)});
    const auto acquired = monitor::diffSnapshots(&before, after, 7);
    QCOMPARE(acquired.size(), 1);
    QCOMPARE(acquired[0].token, 17);
    QCOMPARE(acquired[0].slot, 2);
    QCOMPARE(acquired[0].ttlMs, 2500); // from the server clock of the read, not the client's
    // A departure carries what was last known of the holder: its lease left relative to this read.
    const auto expired = monitor::diffSnapshots(&after, snapshot({}, 3, kNow + 3000), 8);
    QCOMPARE(summary(expired), QStringList{"expired a"});
    QCOMPARE(expired[0].token, 17);
    QCOMPARE(expired[0].ttlMs, -500);
}

void TestSnapshotDiff::appearedSaysLimitAndUse() {
    const auto got = monitor::diffSnapshots(nullptr, snapshot({holder("a"), holder("b")}, 4), 1);
    QCOMPARE(got.size(), 1);
    QCOMPARE(got[0].details, QStringLiteral("limit 4, 2 used"));
    QVERIFY(got[0].holder.isEmpty());
}

void TestSnapshotDiff::limitChangeSaysBoth() {
    const Snapshot a = snapshot({}, 3), b = snapshot({}, 5);
    const auto got = monitor::diffSnapshots(&a, b, 1);
    QCOMPARE(got.size(), 1);
    QCOMPARE(got[0].details, QStringLiteral("limit 3 → 5"));
}

void TestSnapshotDiff::clearedRecordSaysItsState_data() {
    QTest::addColumn<int>("state");
    QTest::addColumn<QString>("expected");
    QTest::newRow("expired") << int(HolderState::ExpiredPresent)
                             << "the record of an expired holder was cleared";
    QTest::newRow("stale") << int(HolderState::Stale) << "the record of a stale holder was cleared";
}

void TestSnapshotDiff::clearedRecordSaysItsState() {
    // What `watch` prints when a purge (or the next acquire) clears a gone holder: "an expired", not
    // "a expired".
    QFETCH(int, state);
    QFETCH(QString, expected);
    const Snapshot before = snapshot({holder("a", HolderState(state), kNow - 1, 3)});
    const auto got = monitor::diffSnapshots(&before, snapshot({}), 1);
    QCOMPARE(summary(got), QStringList{"removed a"});
    QCOMPARE(got[0].details, expected);
}

void TestSnapshotDiff::jsonHasEveryKey() {
    HolderEvent e;
    e.atMs = 1700000000123;
    e.event = monitor::events::Acquired;
    e.ref.kind = core::Kind::Slots;
    e.ref.name = QStringLiteral("pool");
    e.holder = QStringLiteral("w1");
    e.slot = 3;
    const QJsonObject o = monitor::toJson(e);
    QCOMPARE(o.keys(),
             (QStringList{"at_ms", "details", "event", "holder", "kind", "name", "slot", "token", "ttl_ms"}));
    QCOMPARE(o.value("at_ms").toDouble(), 1700000000123.0);
    QCOMPARE(o.value("kind").toString(), QStringLiteral("slots"));
    QCOMPARE(o.value("slot").toInt(), 3);
    QVERIFY(o.value("token").isNull());
    QVERIFY(o.value("ttl_ms").isNull());
    e.holder.clear();
    QVERIFY(monitor::toJson(e).value("holder").isNull());
}

void TestSnapshotDiff::textLine() {
    HolderEvent e;
    e.atMs = 0;
    e.event = monitor::events::Expired;
    e.ref.kind = core::Kind::Zset;
    e.ref.name = QStringLiteral("q");
    e.holder = QStringLiteral("h");
    e.token = 4;
    const QString line = monitor::toText(e);
    QVERIFY2(line.contains(QStringLiteral("expired zset:q holder=h token=4")), qPrintable(line));
}

SEMSCOPE_TEST_GUILESS_MAIN(TestSnapshotDiff)
#include "tst_snapshotdiff.moc"
