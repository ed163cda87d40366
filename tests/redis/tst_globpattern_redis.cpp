// The glob table (tests/support/GlobPatternTable.h) against a real redis-server: the server's own
// matcher (KEYS uses the one SCAN … MATCH uses) must agree with every row, so core::GlobPattern,
// checked against the same rows in tst_globpattern, keeps what a Redis scan sends.
#include "GlobPatternTable.h"
#include "RedisServer.h"
#include "TestMain.h"

#include <QtTest>

using namespace semscope;

class TestGlobPatternRedis : public QObject {
    Q_OBJECT

private:
    test::RedisServer m_server;

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_server.start(), qPrintable(m_server.errorString())); }

    void serverAgrees_data() { test::globPatternRows(); }
    void serverAgrees() {
        QFETCH(QString, pattern);
        QFETCH(QString, text);
        QFETCH(bool, match);
        QCOMPARE(m_server.command({"FLUSHALL"}).str, QByteArray("OK"));
        QCOMPARE(m_server.command({"SET", text.toUtf8(), "x"}).str, QByteArray("OK"));
        const redis::RedisReply keys = m_server.command({"KEYS", pattern.toUtf8()});
        QCOMPARE(keys.elements.size(), match ? 1 : 0);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestGlobPatternRedis)
#include "tst_globpattern_redis.moc"
