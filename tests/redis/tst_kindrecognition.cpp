#include "TestMain.h"
#include "redis/KindRecognition.h"

#include <QTest>

using namespace semscope::core;
using namespace semscope::redis;

// Declared before the first addColumn<> so no implicit instantiation comes first.
Q_DECLARE_METATYPE(QList<semscope::redis::KeyFingerprint>)
Q_DECLARE_METATYPE(semscope::redis::KeyFingerprint)

namespace {
const qint64 kNowMs = 1'790'000'000'000LL; // a fixed "server now" in 2026

KeyFingerprint fp(const QByteArray &key, const QByteArray &type, QList<QByteArray> members = {},
                  QList<QByteArray> values = {}, QByteArray value = {}, qint64 pttl = -1) {
    KeyFingerprint f;
    f.key = key;
    f.type = type;
    f.members = members;
    f.values = values;
    f.value = value;
    f.length = type == "string" ? value.size() : members.size();
    f.pttl = pttl;
    return f;
}

QByteArray num(double v) {
    return QByteArray::number(v, 'f', 3);
}

const DiscoveredSemaphore *findByName(const QList<DiscoveredSemaphore> &all, const QString &name) {
    for (const DiscoveredSemaphore &d : all) {
        if (d.ref.name == name)
            return &d;
    }
    return nullptr;
}
} // namespace

class TestKindRecognition : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void scoreUnits_data() {
        QTest::addColumn<double>("score");
        QTest::addColumn<int>("unit"); // -1 none
        QTest::newRow("seconds now") << double(kNowMs) / 1000.0 << int(ScoreUnit::Seconds);
        QTest::newRow("seconds in 10 s") << double(kNowMs) / 1000.0 + 10 << int(ScoreUnit::Seconds);
        QTest::newRow("ms in 30 s") << double(kNowMs + 30000) << int(ScoreUnit::Milliseconds);
        QTest::newRow("ms an hour ago") << double(kNowMs - 3'600'000) << int(ScoreUnit::Milliseconds);
        QTest::newRow("counter") << 42.0 << -1;
        QTest::newRow("redisson no lease") << double(kRedissonNoLeaseScore) << -1;
        QTest::newRow("inf") << std::numeric_limits<double>::infinity() << -1;
    }
    void scoreUnits() {
        QFETCH(double, score);
        QFETCH(int, unit);
        const auto guessed = guessScoreUnit(score, kNowMs);
        QCOMPARE(guessed.has_value() ? int(*guessed) : -1, unit);
    }

    void readScoresTellsExpiryFromAcquireTime() {
        const ScoreReading expiries = readScores({num(kNowMs + 5000), num(kNowMs + 9000)}, kNowMs);
        QCOMPARE(expiries.unit, std::optional(ScoreUnit::Milliseconds));
        QVERIFY(expiries.expiry);
        const ScoreReading acquired =
            readScores({num(kNowMs / 1000.0 - 3), num(kNowMs / 1000.0 - 1)}, kNowMs);
        QCOMPARE(acquired.unit, std::optional(ScoreUnit::Seconds));
        QVERIFY(!acquired.expiry);
        QVERIFY(readScores({"abc"}, kNowMs).nonNumeric);
        QVERIFY(readScores({num(kNowMs / 1000.0), num(kNowMs)}, kNowMs).mixedUnits);
    }

    void candidatesByName_data() {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QByteArray>("type");
        QTest::addColumn<bool>("candidate");
        QTest::addColumn<QByteArray>("base");
        QTest::newRow("slots list") << QByteArray("job|list") << QByteArray("list") << true
                                    << QByteArray("job");
        QTest::newRow("slots map") << QByteArray("job|map") << QByteArray("hash") << true
                                   << QByteArray("job");
        QTest::newRow("fair owner") << QByteArray("sem:owner") << QByteArray("zset") << true
                                    << QByteArray("sem");
        QTest::newRow("fair counter")
            << QByteArray("sem:counter") << QByteArray("string") << true << QByteArray("sem");
        QTest::newRow("permit timeout")
            << QByteArray("{p}:timeout") << QByteArray("zset") << true << QByteArray("p");
        QTest::newRow("leased holders")
            << QByteArray("{q}:holders") << QByteArray("zset") << true << QByteArray("q");
        QTest::newRow("plain zset") << QByteArray("anything") << QByteArray("zset") << true
                                    << QByteArray("anything");
        QTest::newRow("node mutex") << QByteArray("mutex:a") << QByteArray("string") << true
                                    << QByteArray("mutex:a");
        QTest::newRow("data string") << QByteArray("key:123") << QByteArray("string") << false
                                     << QByteArray("key:123");
        QTest::newRow("data list") << QByteArray("queue") << QByteArray("list") << false
                                   << QByteArray("queue");
        // Lock-ish names are matched in any case, anywhere in the name.
        QTest::newRow("lock in capitals")
            << QByteArray("JobLOCK") << QByteArray("string") << true << QByteArray("JobLOCK");
        QTest::newRow("mutex mixed case")
            << QByteArray("a:MuTeX:b") << QByteArray("string") << true << QByteArray("a:MuTeX:b");
        QTest::newRow("lock split by a colon")
            << QByteArray("lo:ck") << QByteArray("string") << false << QByteArray("lo:ck");
        QTest::newRow("shorter than lock")
            << QByteArray("loc") << QByteArray("string") << false << QByteArray("loc");
        // Names that say semaphore or lock in a whole word are sampled whatever their type (issue 31
        // item 2): the sample says it is a LIST, and the list shows it with a warning.
        QTest::newRow("semaphore-named, any type")
            << QByteArray("semaphore:payments-legacy") << QByteArray("string") << true
            << QByteArray("semaphore:payments-legacy");
        QTest::newRow("sem word") << QByteArray("billing_sem") << QByteArray("list") << true
                                  << QByteArray("billing_sem");
        QTest::newRow("word inside another word")
            << QByteArray("semantic:index") << QByteArray("list") << false << QByteArray("semantic:index");
        QTest::newRow("leased key of another suffix")
            << QByteArray("{q}:other") << QByteArray("string") << false << QByteArray("{q}:other");
    }
    void candidatesByName() {
        QFETCH(QByteArray, key);
        QFETCH(QByteArray, type);
        QFETCH(bool, candidate);
        QFETCH(QByteArray, base);
        const KeyRole role = keyRole(key, type);
        QCOMPARE(role.candidate, candidate);
        QCOMPARE(role.base, base);
    }

    void companions() {
        QVERIFY(companionKeys("{p}:timeout", "zset").contains("p"));
        const auto fair = companionKeys("sem:owner", "zset");
        QVERIFY(fair.contains("sem"));
        QVERIFY(fair.contains("sem:counter"));
        QVERIFY(fair.contains("lock:sem"));
        QCOMPARE(companionKeys("lockname", "hash"), QList<QByteArray>{"redisson_lock_token:{lockname}"});
        // Hashes that other layouts' names claim are never a Redisson lock: no token read for them.
        QVERIFY(companionKeys("{q}:meta", "hash").isEmpty());
        QVERIFY(companionKeys("{q}:owners", "hash").isEmpty());
        QVERIFY(companionKeys("job|map", "hash").isEmpty());
    }

    void recognizesEveryLayout() {
        const QByteArray uuid = "0f8fad5b-d9cb-469f-a165-70867728950e";
        const QList<KeyFingerprint> keys{
            fp("job|list", "list", {"2", "3"}),
            fp("job|map", "hash", {"10.0.0.1"}, {"1"}),
            fp("sem", "zset", {"a", "b"}, {num(kNowMs / 1000.0 - 2), num(kNowMs / 1000.0 - 1)}),
            fp("sem:owner", "zset", {"a", "b"}, {"7", "8"}),
            fp("sem:counter", "string", {}, {}, "8"),
            fp("semaphore:acquire", "zset", {"u1"}, {num(kNowMs + 30000)}),
            fp("semaphore:node", "zset", {"id"}, {num(kNowMs - 1000)}, {}, 9000),
            fp("mutex:m", "string", {}, {}, "ident", 5000),
            fp("perm", "string", {}, {}, "2"),
            fp("{perm}:timeout", "zset", {QByteArray(16, '\x01')}, {num(kNowMs + 1000)}),
            fp("rl", "hash", {uuid + ":1"}, {"1"}, {}, 30000),
            fp("{own}:holders", "zset", {"h"}, {num(kNowMs + 1000)}),
            fp("{own}:meta", "hash", {"limit"}, {"5"}),
            fp("{own}:queue", "list", {"w"}),
            fp("{own}:waiting", "hash", {"w"}, {"1|30000|" + num(kNowMs + 10000) + "|ab|cli"}),
            fp("cron.lock", "string", {}, {}, "token", 8000),
        };
        const auto found = recognizeSemaphores(keys, kNowMs);
        auto kindOf = [&](const char *name) {
            const DiscoveredSemaphore *d = findByName(found, QString::fromLatin1(name));
            return d ? kindName(d->ref.kind) : QStringLiteral("(none)");
        };
        QCOMPARE(kindOf("job"), QStringLiteral("slots"));
        QCOMPARE(kindOf("sem"), QStringLiteral("fair"));
        QCOMPARE(kindOf("semaphore:acquire"), QStringLiteral("zset"));
        QCOMPARE(kindOf("node"), QStringLiteral("node-semaphore"));
        QCOMPARE(kindOf("m"), QStringLiteral("node-mutex"));
        QCOMPARE(kindOf("perm"), QStringLiteral("redisson-permit"));
        QCOMPARE(kindOf("rl"), QStringLiteral("redisson-lock"));
        QCOMPARE(kindOf("own"), QStringLiteral("leased"));
        QCOMPARE(kindOf("cron.lock"), QStringLiteral("lock"));
        QCOMPARE(found.size(),
                 9); // the leased queue and waiter records are part of `own`, nothing of their own
        QCOMPARE(findByName(found, QStringLiteral("own"))->keys.size(), 4);
        for (const DiscoveredSemaphore &d : found)
            QVERIFY2(d.warnings.isEmpty(),
                     qPrintable(d.ref.name + QStringLiteral(": ") + d.warnings.join(QStringLiteral("; "))));

        const DiscoveredSemaphore *fair = findByName(found, QStringLiteral("sem"));
        QCOMPARE(fair->keys.size(), 3);
        QCOMPARE(fair->ref.profile.scoreUnit, ScoreUnit::Seconds);
        QVERIFY(fair->ref.profile.unitInferred);
        QVERIFY(!fair->ref.profile.inferred); // the limit was not guessed: only the unit
        const DiscoveredSemaphore *zset = findByName(found, QStringLiteral("semaphore:acquire"));
        QCOMPARE(zset->ref.profile.scoreUnit, ScoreUnit::Milliseconds);
        const DiscoveredSemaphore *node = findByName(found, QStringLiteral("node"));
        QCOMPARE(node->ref.profile.timeoutMs, std::optional<qint64>(10000)); // PTTL 9000 + 1000 since refresh
        QVERIFY(node->ref.profile.timeoutInferred);
        QVERIFY(!node->ref.profile.inferred);
    }

    // Issue 14 items 9 and 10: node redis-semaphore is told from an expiring ZSET by every signal
    // (a `semaphore:` in the name after any ioredis keyPrefix, a key TTL, past millisecond scores),
    // never by the `semaphore:` prefix alone.
    void nodeSemaphoreOrZset_data() {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<double>("scoreFromNow"); // ms
        QTest::addColumn<qint64>("pttl");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("name");
        QTest::newRow("seed's key, holders expired, no TTL")
            << QByteArray("semaphore:acquire") << -2000.0 << qint64(-1) << QStringLiteral("zset")
            << QStringLiteral("semaphore:acquire");
        QTest::newRow("seed's key, live holders")
            << QByteArray("semaphore:acquire") << 30000.0 << qint64(-1) << QStringLiteral("zset")
            << QStringLiteral("semaphore:acquire");
        QTest::newRow("redis-semaphore") << QByteArray("semaphore:uploads") << -1000.0 << qint64(9000)
                                         << QStringLiteral("node-semaphore") << QStringLiteral("uploads");
        QTest::newRow("redis-semaphore under keyPrefix app:")
            << QByteArray("app:semaphore:uploads") << -1000.0 << qint64(9000)
            << QStringLiteral("node-semaphore") << QStringLiteral("app:semaphore:uploads");
        QTest::newRow("redis-semaphore whose key has 'semaphore:' in it")
            << QByteArray("semaphore:semaphore:x") << -1000.0 << qint64(9000)
            << QStringLiteral("node-semaphore") << QStringLiteral("semaphore:semaphore:x");
        QTest::newRow("expiry scores under a TTL (madelson)")
            << QByteArray("app:semaphore:jobs") << 20000.0 << qint64(30000) << QStringLiteral("zset")
            << QStringLiteral("app:semaphore:jobs");
    }
    void nodeSemaphoreOrZset() {
        QFETCH(QByteArray, key);
        QFETCH(double, scoreFromNow);
        QFETCH(qint64, pttl);
        QFETCH(QString, kind);
        QFETCH(QString, name);
        const auto found = recognizeSemaphores(
            {fp(key, "zset", {"id"}, {num(double(kNowMs) + scoreFromNow)}, {}, pttl)}, kNowMs);
        QCOMPARE(found.size(), 1);
        QCOMPARE(kindName(found.first().ref.kind), kind);
        QCOMPARE(found.first().ref.name, name);
        if (found.first().ref.kind == Kind::NodeSemaphore)
            QCOMPARE(nodeSemaphoreKey(name), key);
    }

    // A profile that names the kind decides, whatever the data says (an idle demo, a client that
    // has not yet set its TTL).
    void profileNamesTheZsetKind() {
        KeyFingerprint key = fp("semaphore:demo", "zset", {"a"}, {num(kNowMs - 500)});
        key.namedKind = Kind::NodeSemaphore;
        QCOMPARE(recognizeSemaphores({key}, kNowMs).first().ref.kind, Kind::NodeSemaphore);
        key.pttl = 9000;
        key.namedKind = Kind::Zset;
        QCOMPARE(recognizeSemaphores({key}, kNowMs).first().ref.kind, Kind::Zset);
    }

    void nodeSemaphoreKeysAndNames() {
        QCOMPARE(nodeSemaphoreKey(QStringLiteral("uploads")), QByteArray("semaphore:uploads"));
        QCOMPARE(nodeSemaphoreKey(QStringLiteral("app:semaphore:uploads")),
                 QByteArray("app:semaphore:uploads"));
        QCOMPARE(nodeSemaphoreName("semaphore:uploads"), QStringLiteral("uploads"));
        QCOMPARE(nodeSemaphoreName("app:semaphore:uploads"), QStringLiteral("app:semaphore:uploads"));
    }

    void onlyOneKind() {
        const QList<KeyFingerprint> keys{fp("job|list", "list", {"1"}),
                                         fp("z", "zset", {"a"}, {num(kNowMs + 10)})};
        const auto found = recognizeSemaphores(keys, kNowMs, Kind::Zset);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().ref.kind, Kind::Zset);
    }

    void malformedAreListedWithWarnings_data() {
        QTest::addColumn<QList<KeyFingerprint>>("keys");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("warning");
        QTest::newRow("slots map of wrong type")
            << QList<KeyFingerprint>{fp("a|list", "list", {"1"}), fp("a|map", "string", {}, {}, "x")}
            << QStringLiteral("a") << QStringLiteral("a|map is a string, expected a hash");
        QTest::newRow("slots list garbage") << QList<KeyFingerprint>{fp("b|list", "list", {"1", "banana"})}
                                            << QStringLiteral("b") << QStringLiteral("not a slot number");
        QTest::newRow("slots hash garbage") << QList<KeyFingerprint>{fp("c|map", "hash", {"h"}, {"zz"})}
                                            << QStringLiteral("c") << QStringLiteral("not a slot number");
        QTest::newRow("fair counter garbage")
            << QList<KeyFingerprint>{fp("f", "zset", {"a"}, {num(kNowMs / 1000.0)}),
                                     fp("f:owner", "zset", {"a"}, {"1"}),
                                     fp("f:counter", "string", {}, {}, "seven")}
            << QStringLiteral("f") << QStringLiteral("f:counter is not an integer");
        KeyFingerprint huge = fp("g:counter", "string", {}, {}, QByteArray(64, 'x'));
        huge.length = 10 * 1024 * 1024;
        QTest::newRow("fair counter 10 MB")
            << QList<KeyFingerprint>{fp("g:owner", "zset", {"a"}, {"1"}), huge} << QStringLiteral("g")
            << QStringLiteral("10.0 MB");
        QTest::newRow("fair owner non-counter")
            << QList<KeyFingerprint>{fp("h:owner", "zset", {"a"}, {"1.5"}),
                                     fp("h:counter", "string", {}, {}, "1")}
            << QStringLiteral("h") << QStringLiteral("non-counter score");
        QTest::newRow("fair stuck lock") << QList<KeyFingerprint>{fp("i:owner", "zset", {"a"}, {"1"}),
                                                                  fp("i:counter", "string", {}, {}, "1"),
                                                                  fp("lock:i", "string", {}, {}, "x", -1)}
                                         << QStringLiteral("i") << QStringLiteral("lock:i has no TTL");
        QTest::newRow("zset infinite scores")
            << QList<KeyFingerprint>{fp("j-sem", "zset", {"a"}, {"inf"})} << QStringLiteral("j-sem")
            << QStringLiteral("non-numeric scores");
        QTest::newRow("permit available garbage")
            << QList<KeyFingerprint>{fp("k", "string", {}, {}, "lots"),
                                     fp("{k}:timeout", "zset", {"x"}, {num(kNowMs)})}
            << QStringLiteral("k") << QStringLiteral("k is not an integer");
        QTest::newRow("permit available missing")
            << QList<KeyFingerprint>{fp("l2", "hash", {"f"}, {"v"}),
                                     fp("{l}:timeout", "zset", {"x"}, {num(kNowMs)})}
            << QStringLiteral("l") << QStringLiteral("is missing");
    }
    void malformedAreListedWithWarnings() {
        QFETCH(QList<KeyFingerprint>, keys);
        QFETCH(QString, name);
        QFETCH(QString, warning);
        const auto found = recognizeSemaphores(keys, kNowMs);
        const DiscoveredSemaphore *d = findByName(found, name);
        QVERIFY2(d, qPrintable(name));
        QVERIFY2(d->warnings.join(u'|').contains(warning), qPrintable(d->warnings.join(u'|')));
    }

    // A key named like a semaphore or a lock whose type no such layout uses is listed, under the kind
    // its name suggests, with a warning that says what is wrong, instead of silently skipped.
    void wrongTypesAreListedWithAWarning_data() {
        QTest::addColumn<KeyFingerprint>("key");
        QTest::addColumn<QString>("kind"); // empty: not listed
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("warning");
        QTest::newRow("semaphore: as a list")
            << fp("semaphore:payments-legacy", "list", {"a", "b"}) << QStringLiteral("node-semaphore")
            << QStringLiteral("payments-legacy")
            << QStringLiteral("semaphore:payments-legacy is a list, expected a zset");
        QTest::newRow("lock: as a hash")
            << fp("lock:orders", "hash", {"owner"}, {"svc-a"}) << QStringLiteral("lock")
            << QStringLiteral("lock:orders") << QStringLiteral("lock:orders is a hash, expected a string");
        QTest::newRow("mutex as a set")
            << fp("billing_mutex", "set", {"x"}) << QStringLiteral("lock") << QStringLiteral("billing_mutex")
            << QStringLiteral("billing_mutex is a set, expected a string");
        QTest::newRow("permits as a stream")
            << fp("api-permits", "stream") << QStringLiteral("zset") << QStringLiteral("api-permits")
            << QStringLiteral("api-permits is a stream, expected a zset");
        QTest::newRow("clock is no lock")
            << fp("clock:drift", "list", {"1"}) << QString() << QString() << QString();
        QTest::newRow("counter named sem is data")
            << fp("sem:count", "string", {}, {}, "42") << QString() << QString() << QString();
        QTest::newRow("redisson lock hash keeps its kind")
            << fp("lock:jobs", "hash", {"0f8fad5b-d9cb-469f-a165-70867728950e:1"}, {"1"}, {}, 30000)
            << QStringLiteral("redisson-lock") << QStringLiteral("lock:jobs") << QString();
    }
    void wrongTypesAreListedWithAWarning() {
        QFETCH(KeyFingerprint, key);
        QFETCH(QString, kind);
        QFETCH(QString, name);
        QFETCH(QString, warning);
        const auto found = recognizeSemaphores({key}, kNowMs);
        if (kind.isEmpty()) {
            QVERIFY2(found.isEmpty(), qPrintable(found.value(0).ref.name));
            return;
        }
        QCOMPARE(found.size(), 1);
        QCOMPARE(kindName(found.first().ref.kind), kind);
        QCOMPARE(found.first().ref.name, name);
        QCOMPARE(found.first().keys, QStringList{QString::fromUtf8(key.key)});
        if (warning.isEmpty())
            QVERIFY2(found.first().warnings.isEmpty(), qPrintable(found.first().warnings.join(u'|')));
        else
            QVERIFY2(found.first().warnings.join(u'|').contains(warning),
                     qPrintable(found.first().warnings.join(u'|')));
    }

    void redissonLockFields() {
        QVERIFY(looksLikeRedissonLockField("0f8fad5b-d9cb-469f-a165-70867728950e:57"));
        QVERIFY(!looksLikeRedissonLockField("0f8fad5b-d9cb-469f-a165-70867728950e"));
        QVERIFY(!looksLikeRedissonLockField("user:1"));
    }

    void dataKeysAreNotSemaphores() {
        const QList<KeyFingerprint> keys{fp("user:1", "hash", {"name"}, {"x"}),
                                         fp("key:1", "string", {}, {}, "42"),
                                         fp("leaderboard", "zset", {"ann", "bob"}, {"12", "40"})};
        QVERIFY(recognizeSemaphores(keys, kNowMs).isEmpty());
    }

    // A Redisson RSemaphore is a bare integer string, like millions of counters: the integer alone
    // never makes one (Redisson's RedissonSemaphore.java keeps nothing else). A waiting client's channel or
    // the operator's profile does; a named key that is not a permit count is still listed, with the warning
    // saying why.
    void redissonSemaphoreNeedsEvidence_data() {
        QTest::addColumn<QByteArray>("type");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<bool>("channel");
        QTest::addColumn<int>("named");    // -1 none, else the Kind a profile names it as
        QTest::addColumn<QString>("kind"); // expected, empty: not a semaphore
        QTest::addColumn<QString>("warning");
        const int none = -1;
        QTest::newRow("integer alone")
            << QByteArray("string") << QByteArray("5") << false << none << QString() << QString();
        QTest::newRow("lockish integer")
            << QByteArray("string") << QByteArray("5") << false << none << QString() << QString();
        QTest::newRow("channel") << QByteArray("string") << QByteArray("5") << true << none
                                 << QStringLiteral("redisson-semaphore") << QString();
        QTest::newRow("profile, idle")
            << QByteArray("string") << QByteArray("0") << false << int(Kind::RedissonSemaphore)
            << QStringLiteral("redisson-semaphore") << QString();
        QTest::newRow("profile, not a number")
            << QByteArray("string") << QByteArray("many") << false << int(Kind::RedissonSemaphore)
            << QStringLiteral("redisson-semaphore") << QStringLiteral("not an integer");
        QTest::newRow("profile, wrong type")
            << QByteArray("list") << QByteArray() << false << int(Kind::RedissonSemaphore)
            << QStringLiteral("redisson-semaphore") << QStringLiteral("expected a string");
        QTest::newRow("profile of another kind")
            << QByteArray("string") << QByteArray("5") << false << int(Kind::Fair) << QString() << QString();
        QTest::newRow("permit semaphore, idle")
            << QByteArray("string") << QByteArray("4") << false << int(Kind::RedissonPermitExpirable)
            << QStringLiteral("redisson-permit") << QString();
    }
    void redissonSemaphoreNeedsEvidence() {
        QFETCH(QByteArray, type);
        QFETCH(QByteArray, value);
        QFETCH(bool, channel);
        QFETCH(int, named);
        QFETCH(QString, kind);
        QFETCH(QString, warning);
        const QByteArray key =
            QTest::currentDataTag() == QByteArray("lockish integer") ? "lock:jobs" : "permits";
        KeyFingerprint f =
            fp(key, type, type == "list" ? QList<QByteArray>{"1"} : QList<QByteArray>{}, {}, value);
        f.channelSeen = channel;
        if (named >= 0)
            f.namedKind = Kind(named);
        const QList<DiscoveredSemaphore> found = recognizeSemaphores({f}, kNowMs);
        if (kind.isEmpty()) {
            QVERIFY(found.isEmpty());
            return;
        }
        QCOMPARE(found.size(), 1);
        QCOMPARE(kindName(found.first().ref.kind), kind);
        QCOMPARE(found.first().ref.name, QString::fromLatin1(key));
        if (warning.isEmpty())
            QVERIFY2(found.first().warnings.isEmpty(), qPrintable(found.first().warnings.join(u';')));
        else
            QVERIFY2(found.first().warnings.join(u' ').contains(warning),
                     qPrintable(found.first().warnings.join(u';')));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestKindRecognition)
#include "tst_kindrecognition.moc"
