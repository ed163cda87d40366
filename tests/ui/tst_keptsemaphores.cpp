// Issue 31 item 3: a semaphore that was there does not vanish. A ZSET semaphore whose last holder
// left has no keys (Redis deletes an empty ZSET), so it dropped out of the list at some rescans and
// came back at others. Seen once, it stays listed as "empty since …" over rescans and across a new
// window (the history keeps it), until the operator forgets it or it stays empty past the retention
// set with View → Keep empty semaphores listed…. Real redis-server.

#include "RestartableWindow.h"
#include "TestMain.h"
#include "TestWait.h"
#include "ui/SemaphorePage.h"

#include <QDateTime>
#include <QDir>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace semscope;
using core::Kind;
using core::SemaphoreRef;
using model::SemaphoreListModel;

class TestKeptSemaphores : public QObject {
    Q_OBJECT

    test::RestartableWindow m_w;
    const SemaphoreRef m_rate{Kind::Zset, QStringLiteral("rate-limit"), {}};

    static bool rescan(model::ConnectionSession *s) {
        QSignalSpy done(s, &model::ConnectionSession::discoveryFinished);
        s->discover();
        return done.wait(30000);
    }

    static QString usageText(model::ConnectionSession *s, const SemaphoreRef &ref) {
        return s->list.index(s->list.rowOf(ref), SemaphoreListModel::UsageColumn).data().toString();
    }

    void addHolder(const QByteArray &key) {
        const QByteArray expiry = QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000);
        m_w.server.command({"ZADD", key, expiry, "worker-1"});
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_w.start(QStringLiteral("api")), qPrintable(m_w.server.errorString())); }
    void cleanupTestCase() { m_w.window.reset(); }

    void anEmptySemaphoreStaysListed() {
        addHolder("rate-limit");
        addHolder("jobs-sem");
        auto *s = m_w.open();
        QVERIFY(s);
        QVERIFY(s->list.rowOf(m_rate) >= 0);
        QVERIFY(!s->list.emptySinceMs(s->list.rowOf(m_rate)));

        // The last holder leaves: Redis deletes the ZSET. The next scan misses it; it stays.
        m_w.server.command({"DEL", "rate-limit"});
        QVERIFY(rescan(s));
        QVERIFY2(s->list.rowOf(m_rate) >= 0, "a semaphore seen before dropped out of the list");
        QVERIFY(s->list.emptySinceMs(s->list.rowOf(m_rate)));
        QVERIFY2(usageText(s, m_rate).startsWith(QLatin1String("empty since ")),
                 qPrintable(usageText(s, m_rate)));
        QVERIFY(rescan(s));
        QVERIFY(s->list.rowOf(m_rate) >= 0);
        QVERIFY(m_w.window->openSemaphore(m_w.config.id, m_rate));
        m_w.window->semaphoreView()->selectRow(
            s->proxy.mapFromSource(s->list.index(s->list.rowOf(m_rate), 0)).row());
        const QString dir = QStringLiteral(SEMSCOPE_SCREENSHOT_DIR);
        QVERIFY(QDir().mkpath(dir));
        test::deliverPostedEvents();
        QVERIFY(m_w.window->grab().save(dir + QStringLiteral("/empty-since.png")));

        // A new window (the app started again): the history lists it as empty at once.
        s = m_w.open();
        QVERIFY(s);
        QTRY_VERIFY_WITH_TIMEOUT(s->list.rowOf(m_rate) >= 0, 15000);
        QVERIFY(usageText(s, m_rate).startsWith(QLatin1String("empty since ")));

        // A new holder: a normal row again.
        addHolder("rate-limit");
        QVERIFY(rescan(s));
        QVERIFY(!s->list.emptySinceMs(s->list.rowOf(m_rate)));
        QVERIFY(!usageText(s, m_rate).startsWith(QLatin1String("empty")));
    }

    void forgetRemovesIt() {
        auto *s = m_w.window->session(m_w.config.id);
        QVERIFY(s);
        m_w.server.command({"DEL", "rate-limit"});
        QVERIFY(rescan(s));
        QVERIFY(s->list.emptySinceMs(s->list.rowOf(m_rate)));
        const QModelIndex index = s->proxy.mapFromSource(s->list.index(s->list.rowOf(m_rate), 0));
        QAction *forget = nullptr;
        for (QAction *a : m_w.window->semaphoreContextActions(index)) {
            if (a && a->text() == QLatin1String("&Forget"))
                forget = a;
        }
        QVERIFY(forget);
        forget->trigger();
        QCOMPARE(s->list.rowOf(m_rate), -1);
        QVERIFY(rescan(s));
        QCOMPARE(s->list.rowOf(m_rate), -1);
        // Forgotten in the history too: a new window does not bring it back.
        s = m_w.open();
        QVERIFY(s);
        QVERIFY(rescan(s)); // the history has answered by the end of a second scan
        QCOMPARE(s->list.rowOf(m_rate), -1);
    }

    void retentionExpiresIt() {
        auto *s = m_w.window->session(m_w.config.id);
        const SemaphoreRef jobs{Kind::Zset, QStringLiteral("jobs-sem"), {}};
        QVERIFY(s->list.rowOf(jobs) >= 0);
        m_w.server.command({"DEL", "jobs-sem"});
        QVERIFY(rescan(s));
        QVERIFY(s->list.emptySinceMs(s->list.rowOf(jobs)));
        QCOMPARE(m_w.window->keepEmptyHours(), 24);
        m_w.window->setKeepEmptyHours(0); // View → Keep empty semaphores listed…: 0 hours
        QCOMPARE(s->list.rowOf(jobs), -1);
        QCOMPARE(m_w.window->keepEmptyHours(), 0); // kept in the window's settings
        m_w.window->setKeepEmptyHours(24);
    }
};

SEMSCOPE_TEST_MAIN(TestKeptSemaphores)
#include "tst_keptsemaphores.moc"
