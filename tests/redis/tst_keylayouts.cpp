// The one table of Redis key layouts (redis/kinds/KeyLayouts): the keys of each kind, their Redis
// types, that every kind names its keys from it, and that recognition's reading of a key's name
// (baseOf) undoes the naming.
#include "TestMain.h"
#include "redis/kinds/BuiltinKinds.h"
#include "redis/kinds/KeyLayouts.h"

#include <QTest>

using semscope::core::Kind;
using namespace semscope::redis;

Q_DECLARE_METATYPE(semscope::core::Kind)

class TestKeyLayouts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void keysOfEachKind_data();
    void keysOfEachKind();
    void everyRedisKindHasALayout();
    void kindsNameTheirKeysFromTheTable_data();
    void kindsNameTheirKeysFromTheTable();
    void baseOfUndoesKeyWithBase();
    void baseOfRefusesOtherNames_data();
    void baseOfRefusesOtherNames();
};

void TestKeyLayouts::keysOfEachKind_data() {
    QTest::addColumn<Kind>("kind");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QList<QByteArray>>("keys");
    QTest::addColumn<QList<QByteArray>>("types");

    QTest::newRow("slots") << Kind::Slots << "jobs"
                           << QList<QByteArray>{"jobs|list", "jobs|map", "jobs|lease"}
                           << QList<QByteArray>{"list", "hash", "zset"};
    QTest::newRow("fair") << Kind::Fair << "S" << QList<QByteArray>{"S", "S:owner", "S:counter", "lock:S"}
                          << QList<QByteArray>{"zset", "zset", "string", "string"};
    QTest::newRow("zset") << Kind::Zset << "q" << QList<QByteArray>{"q"} << QList<QByteArray>{"zset"};
    QTest::newRow("lock") << Kind::Lock << "L" << QList<QByteArray>{"L"} << QList<QByteArray>{"string"};
    QTest::newRow("leased") << Kind::Leased << "N"
                            << QList<QByteArray>{"{N}:holders", "{N}:meta", "{N}:owners", "{N}:queue",
                                                 "{N}:waiting"}
                            << QList<QByteArray>{"zset", "hash", "hash", "list", "hash"};
    QTest::newRow("leased name with braces is still wrapped")
        << Kind::Leased << "a{b}"
        << QList<QByteArray>{"{a{b}}:holders", "{a{b}}:meta", "{a{b}}:owners", "{a{b}}:queue",
                             "{a{b}}:waiting"}
        << QList<QByteArray>{"zset", "hash", "hash", "list", "hash"};
    QTest::newRow("redisson semaphore") << Kind::RedissonSemaphore << "permits"
                                        << QList<QByteArray>{"permits"} << QList<QByteArray>{"string"};
    QTest::newRow("redisson permit expirable")
        << Kind::RedissonPermitExpirable << "p" << QList<QByteArray>{"p", "{p}:timeout"}
        << QList<QByteArray>{"string", "zset"};
    QTest::newRow("redisson permit expirable, name with a hash tag")
        << Kind::RedissonPermitExpirable << "{p}x" << QList<QByteArray>{"{p}x", "{p}x:timeout"}
        << QList<QByteArray>{"string", "zset"};
    QTest::newRow("redisson lock") << Kind::RedissonLock << "L"
                                   << QList<QByteArray>{"L", "redisson_lock_token:{L}"}
                                   << QList<QByteArray>{"hash", "string"};
    QTest::newRow("redisson lock, name with a hash tag")
        << Kind::RedissonLock << "a{b}" << QList<QByteArray>{"a{b}", "redisson_lock_token:a{b}"}
        << QList<QByteArray>{"hash", "string"};
    QTest::newRow("node mutex") << Kind::NodeMutex << "m" << QList<QByteArray>{"mutex:m"}
                                << QList<QByteArray>{"string"};
    QTest::newRow("node semaphore") << Kind::NodeSemaphore << "s" << QList<QByteArray>{"semaphore:s"}
                                    << QList<QByteArray>{"zset"};
}

void TestKeyLayouts::keysOfEachKind() {
    QFETCH(Kind, kind);
    QFETCH(QString, name);
    QFETCH(QList<QByteArray>, keys);
    QFETCH(QList<QByteArray>, types);
    QCOMPARE(keyLayout(kind).kind, kind);
    QCOMPARE(keyLayout(kind).keysFor(name), keys);
    QCOMPARE(keyLayout(kind).types(), types);
}

void TestKeyLayouts::everyRedisKindHasALayout() {
    QList<Kind> described;
    for (const KeyLayout &layout : keyLayouts()) {
        QVERIFY2(!described.contains(layout.kind), qPrintable(semscope::core::kindName(layout.kind)));
        QVERIFY(!layout.keys.isEmpty());
        described << layout.kind;
    }
    for (const auto &kind : builtinRedisKinds())
        QVERIFY2(described.contains(kind->kind()), qPrintable(semscope::core::kindName(kind->kind())));
}

void TestKeyLayouts::kindsNameTheirKeysFromTheTable_data() {
    QTest::addColumn<QString>("name");
    QTest::newRow("plain") << "orders";
    QTest::newRow("with a hash tag") << "a{b}";
    QTest::newRow("with separators") << "svc:batch|x";
}

void TestKeyLayouts::kindsNameTheirKeysFromTheTable() {
    QFETCH(QString, name);
    for (const auto &kind : builtinRedisKinds())
        QCOMPARE(kind->keysOf(name), keyLayout(kind->kind()).keysFor(name));
}

void TestKeyLayouts::baseOfUndoesKeyWithBase() {
    for (const KeyLayout &layout : keyLayouts()) {
        for (const LayoutKey &key : layout.keys) {
            for (const QByteArray &base : {QByteArray("orders"), QByteArray("a:b"), QByteArray("x|y")}) {
                const QByteArray expected = key.shape == LayoutKey::Shape::Base ? QByteArray() : base;
                QCOMPARE(key.baseOf(key.keyWithBase(base)), expected);
            }
        }
    }
}

void TestKeyLayouts::baseOfRefusesOtherNames_data() {
    QTest::addColumn<Kind>("kind");
    QTest::addColumn<QByteArray>("affix");
    QTest::addColumn<QByteArray>("key");

    QTest::newRow("suffix alone has no base") << Kind::Slots << QByteArray("|list") << QByteArray("|list");
    QTest::newRow("suffix elsewhere") << Kind::Slots << QByteArray("|list") << QByteArray("a|list:b");
    QTest::newRow("prefix alone has no base")
        << Kind::NodeMutex << QByteArray("mutex:") << QByteArray("mutex:");
    QTest::newRow("empty tag") << Kind::Leased << QByteArray(":meta") << QByteArray("{}:meta");
    QTest::newRow("no tag") << Kind::Leased << QByteArray(":meta") << QByteArray("N:meta");
    QTest::newRow("unwrapped Redisson timeout is not searched for")
        << Kind::RedissonPermitExpirable << QByteArray(":timeout") << QByteArray("p:timeout");
    QTest::newRow("token without tag")
        << Kind::RedissonLock << QByteArray("redisson_lock_token:") << QByteArray("redisson_lock_token:L");
}

void TestKeyLayouts::baseOfRefusesOtherNames() {
    QFETCH(Kind, kind);
    QFETCH(QByteArray, affix);
    QFETCH(QByteArray, key);
    QCOMPARE(keyLayout(kind).key(affix).baseOf(key), QByteArray());
}

SEMSCOPE_TEST_GUILESS_MAIN(TestKeyLayouts)
#include "tst_keylayouts.moc"
