// What the demo shows a new operator beyond the semaphores it lists: a holder whose client has
// exited (its card says "client gone"), a key named like a semaphore but of the wrong type (listed
// with its warning) and a redis-py lock whose name says nothing (not listed until opened with
// File → Open key…). The demo is what the README sends people to; these are the cases issue 31
// items 2 and 6 are about, so the demo must have them.

#include "DemoFixture.h"
#include "LabelText.h"
#include "TestMain.h"

#include <QLabel>
#include <QTableView>
#include <QtTest>

using namespace semscope;
using core::Kind;
using core::SemaphoreRef;

class TestDemoSeeds : public QObject {
    Q_OBJECT

    test::DemoFixture m_demo;

private Q_SLOTS:
    void initTestCase() {
        if (!m_demo.start())
            QSKIP("the demo sandbox did not start (no redis-server?)");
        m_demo.window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_demo.window.get()));
    }

    void showsTheCasesAnOperatorMeets() {
        const model::ConnectionConfig redis = m_demo.sandbox->redisConnection();
        auto *s = m_demo.open(redis);
        QVERIFY(s);

        const SemaphoreRef legacy{Kind::NodeSemaphore, QStringLiteral("payments-legacy"), {}};
        QVERIFY(s->list.rowOf(legacy) >= 0);
        QVERIFY2(s->list.warningsOf(legacy).join(u'|').contains(QLatin1String("is a list")),
                 qPrintable(s->list.warningsOf(legacy).join(u'|')));
        QCOMPARE(s->list.rowOf({Kind::Lock, QStringLiteral("invoice-run"), {}}), -1);

        const SemaphoreRef imports{Kind::Leased, QStringLiteral("demo:imports"), {}};
        QVERIFY(s->list.rowOf(imports) >= 0);
        QVERIFY(m_demo.window->openSemaphore(redis.id, imports));
        ui::SemaphorePage *page = m_demo.window->semaphorePage();
        QTRY_VERIFY_WITH_TIMEOUT(page->selectHolder(QStringLiteral("nightly-import@ops-laptop")), 15000);
        auto *line = page->findChild<QLabel *>(QStringLiteral("holderLiveness"));
        QVERIFY(line);
        QTRY_VERIFY2_WITH_TIMEOUT(test::shownText(line).startsWith(QStringLiteral("client gone")),
                                  qPrintable(test::shownText(line)), 15000);
    }
};

SEMSCOPE_TEST_MAIN(TestDemoSeeds)
#include "tst_demoseeds.moc"
