#include "TestMain.h"
#include "core/Kind.h"

#include <QTest>

using namespace semscope::core;

class TestKind : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void namesRoundTrip() {
        const QStringList names = allKindNames();
        QVERIFY(names.size() >= 12);
        for (const QString &name : names) {
            const auto kind = kindFromName(name);
            QVERIFY2(kind.has_value(), qPrintable(name));
            QCOMPARE(kindName(*kind), name);
            QVERIFY(!kindDescription(*kind).isEmpty());
        }
    }
    void caseInsensitive() { QCOMPARE(kindFromName(QStringLiteral("LEASED")), Kind::Leased); }
    void unknownName() { QVERIFY(!kindFromName(QStringLiteral("mutexish")).has_value()); }
    void backends() {
        QCOMPARE(backendOf(Kind::Consul), Backend::Consul);
        QCOMPARE(backendOf(Kind::ConsulMutex), Backend::Consul); // the holder table and page rely on it
        QCOMPARE(backendOf(Kind::RedissonLock), Backend::Redis);
        QCOMPARE(backendOf(Kind::Slots), Backend::Redis);
        QVERIFY(kindIsWritable(Kind::Leased));
        QVERIFY(!kindIsWritable(Kind::RedissonSemaphore));
    }

    // set-limit acts on what each kind stores: these decide between a server write, a profile value
    // and "a mutex is always 1".
    void limitStorage_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("storage");
        const QList<std::pair<const char *, LimitStorage>> table{
            {"slots", LimitStorage::Stored},
            {"leased", LimitStorage::Stored},
            {"consul", LimitStorage::Stored},
            {"redisson-permit", LimitStorage::Stored},
            {"fair", LimitStorage::Profile},
            {"zset", LimitStorage::Profile},
            {"node-semaphore", LimitStorage::Profile},
            {"redisson-semaphore", LimitStorage::Profile},
            {"lock", LimitStorage::Fixed},
            {"consul-mutex", LimitStorage::Fixed},
            {"redisson-lock", LimitStorage::Fixed},
            {"node-mutex", LimitStorage::Fixed},
        };
        QCOMPARE(table.size(), allKindNames().size());
        for (const auto &[name, storage] : table)
            QTest::newRow(name) << QString::fromLatin1(name) << int(storage);
    }
    void limitStorage() {
        QFETCH(QString, kind);
        QFETCH(int, storage);
        QCOMPARE(int(semscope::core::limitStorage(*kindFromName(kind))), storage);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestKind)
#include "tst_kind.moc"
