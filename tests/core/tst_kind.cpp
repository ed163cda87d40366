#include "core/Kind.h"

#include <QTest>

using namespace semscope::core;

class TestKind : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesRoundTrip()
    {
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
    void backends()
    {
        QCOMPARE(backendOf(Kind::Consul), Backend::Consul);
        QCOMPARE(backendOf(Kind::Slots), Backend::Redis);
        QVERIFY(kindIsWritable(Kind::Leased));
        QVERIFY(!kindIsWritable(Kind::RedissonSemaphore));
    }
};

QTEST_GUILESS_MAIN(TestKind)
#include "tst_kind.moc"
