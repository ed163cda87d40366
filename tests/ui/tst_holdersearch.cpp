// Tools → Find holder across the demo's Redis and Consul connections, through the real widgets:
// one search finds a holder wherever it holds (a Redis slot and a Consul session named after it),
// globs work, a miss says so, Cancel ends a search at once, and activating a result opens that
// semaphore on its connection.

#include "DemoFixture.h"
#include "LabelText.h"
#include "TestMain.h"
#include "model/HolderSearchModel.h"
#include "ui/search/HolderSearchWindow.h"

#include <QAction>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableView>
#include <QtTest>

using namespace semscope;
using model::HolderSearchModel;

class TestHolderSearch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void findsAHolderOnEveryConnection();
    void globsAndMisses_data();
    void globsAndMisses();
    void globThatCannotMatchIsSaid();
    void statusShowsThePatternAsTyped_data();
    void statusShowsThePatternAsTyped();
    void newSearchWhileOneRunsKeepsItsProgressAndCancel();
    void cancelEndsASearchAtOnce();
    void activatingAResultOpensItsSemaphore();
    void closingAConnectionMidSearchStillEnds();

private:
    bool acquire(core::SemaphoreStore *store, const core::SemaphoreRef &ref, const QString &holder);
    ui::HolderSearchWindow *openWindow();
    bool searchFor(ui::HolderSearchWindow *w, const QString &text);

    std::unique_ptr<test::DemoFixture> m_demo;
    std::unique_ptr<core::SemaphoreStore> m_redisClient;
    std::unique_ptr<core::SemaphoreStore> m_consulClient;
    model::ConnectionConfig m_redis;
    model::ConnectionConfig m_consul;
    core::SemaphoreRef m_redisRef;
    core::SemaphoreRef m_consulRef;
};

void TestHolderSearch::initTestCase() {
    m_demo = std::make_unique<test::DemoFixture>();
    QVERIFY2(m_demo->start(false), "the demo sandbox did not start");
    m_demo->window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_demo->window.get()));
    m_redis = m_demo->sandbox->redisConnection();
    m_consul = m_demo->sandbox->consulConnection();
    m_redisClient = model::storeFactoryFor(m_redis)();
    m_consulClient = model::storeFactoryFor(m_consul)();
    m_redisRef.kind = core::Kind::Leased;
    m_redisRef.name = QStringLiteral("test:search");
    m_redisRef.profile.limit = 3;
    m_consulRef.kind = core::Kind::Consul;
    m_consulRef.name = QStringLiteral("demo/test-search");
    m_consulRef.profile.limit = 3;
    // Held before the connections open, so their first discovery lists both.
    QVERIFY(acquire(m_redisClient.get(), m_redisRef, QStringLiteral("worker-17@rack-4")));
    QVERIFY(acquire(m_redisClient.get(), m_redisRef, QStringLiteral("worker-2@rack-1")));
    QVERIFY(acquire(m_consulClient.get(), m_consulRef, QStringLiteral("worker-17@rack-4")));
    QVERIFY(m_demo->open(m_redis));
    QVERIFY(m_demo->open(m_consul));
}

void TestHolderSearch::cleanupTestCase() {
    m_redisClient.reset();
    m_consulClient.reset();
    m_demo.reset();
}

bool TestHolderSearch::acquire(core::SemaphoreStore *store, const core::SemaphoreRef &ref,
                               const QString &holder) {
    std::optional<core::AcquireResult> result;
    core::AcquireRequest req;
    req.holder = holder;
    req.ttlMs = 120000;
    store->acquire(ref, req, {}, [&](core::AcquireResult r) { result = r; });
    if (!QTest::qWaitFor([&] { return result.has_value(); }, 30000) ||
        result->status != core::AcquireResult::Status::Granted) {
        qWarning() << "acquire failed:" << (result ? result->error : QStringLiteral("no answer"));
        return false;
    }
    return true;
}

ui::HolderSearchWindow *TestHolderSearch::openWindow() {
    // Through the menu entry an operator uses (Tools → Find holder…, Ctrl+Shift+F).
    auto *action = m_demo->window->findChild<QAction *>(QStringLiteral("findHolderAction"));
    if (!action || action->shortcut() != QKeySequence(QStringLiteral("Ctrl+Shift+F")))
        return nullptr;
    action->trigger();
    auto *w = m_demo->window->findChild<ui::HolderSearchWindow *>();
    return w && w->isVisible() ? w : nullptr;
}

bool TestHolderSearch::searchFor(ui::HolderSearchWindow *w, const QString &text) {
    QSignalSpy done(w, &ui::HolderSearchWindow::searchFinished);
    w->searchEdit()->clear();
    QTest::keyClicks(w->searchEdit(), text);
    QTest::keyClick(w->searchEdit(), Qt::Key_Return);
    return done.wait(30000) && !done.first().first().toBool();
}

void TestHolderSearch::findsAHolderOnEveryConnection() {
    auto *w = openWindow();
    QVERIFY(w);
    QVERIFY(QTest::qWaitForWindowExposed(w));
    QCOMPARE(QApplication::focusWidget(), w->searchEdit());
    QVERIFY(searchFor(w, QStringLiteral("worker-17")));
    auto *m = w->model();
    QCOMPARE(m->rowCount(), 2);
    QStringList where;
    for (int r = 0; r < m->rowCount(); ++r) {
        const model::HolderMatch *match = m->matchAt(r);
        where << match->connectionId + QLatin1Char(' ') + core::kindName(match->ref.kind) + QLatin1Char(':') +
                     match->ref.name;
        QCOMPARE(m->index(r, HolderSearchModel::StateColumn).data().toString(), QStringLiteral("live"));
        QVERIFY(m->index(r, HolderSearchModel::HolderColumn)
                    .data()
                    .toString()
                    .contains(QLatin1String("worker-17")));
        QCOMPARE(m->index(r, HolderSearchModel::EnvironmentColumn).data().toString(),
                 model::environmentName(match->environment));
    }
    where.sort();
    QCOMPARE(where, (QStringList{m_consul.id + QStringLiteral(" consul:demo/test-search"),
                                 m_redis.id + QStringLiteral(" leased:test:search")}));
    // The Redis holder's TTL and slot/token as read; the Consul one is its session's.
    const QString status = w->statusLabel()->text();
    QVERIFY2(status.contains(QLatin1String("2 holders")) && status.contains(QLatin1String("2 connections")),
             qPrintable(status));
    QVERIFY(!w->progressBar()->isVisible());
    QDir().mkpath(QStringLiteral(SEMSCOPE_SCREENSHOT_DIR));
    QVERIFY(w->grab().save(QStringLiteral(SEMSCOPE_SCREENSHOT_DIR "/holder-search.png")));
}

void TestHolderSearch::globsAndMisses_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("rows");
    QTest::newRow("glob, both connections") << "worker-1?@rack-*" << 2;
    QTest::newRow("glob on the node") << "*@rack-1" << 1;
    QTest::newRow("substring, every rack") << "@RACK-" << 3;
    QTest::newRow("nobody") << "nobody-here" << 0;
}

void TestHolderSearch::globsAndMisses() {
    QFETCH(QString, text);
    QFETCH(int, rows);
    auto *w = openWindow();
    QVERIFY(w);
    QVERIFY(searchFor(w, text));
    QCOMPARE(w->model()->rowCount(), rows);
    if (rows == 0)
        QVERIFY(w->statusLabel()->text().startsWith(QLatin1String("0 holders")));
}

void TestHolderSearch::globThatCannotMatchIsSaid() {
    // "worker-[" once searched every connection and reported "0 holders": Redis' glob rules close
    // the class at the end, so it matches nothing whatever is held.
    auto *w = openWindow();
    QVERIFY(w);
    QVERIFY(searchFor(w, QStringLiteral("worker-1")));
    QVERIFY(w->model()->rowCount() > 0);
    QSignalSpy done(w, &ui::HolderSearchWindow::searchFinished);
    w->searchEdit()->clear();
    QTest::keyClicks(w->searchEdit(), QStringLiteral("worker-["));
    QTest::keyClick(w->searchEdit(), Qt::Key_Return);
    QVERIFY(!w->isSearching());
    QCOMPARE(done.size(), 0);
    QCOMPARE(w->model()->rowCount(), 0); // the previous search's results are not this one's
    const QString status = w->statusLabel()->text();
    QVERIFY2(
        status.contains(QStringLiteral("Cannot search for “worker-[”: '[' at position 8 is never closed; "
                                       "write \\[ for a bracket")
                            .toHtmlEscaped()),
        qPrintable(status));
    QDir().mkpath(QStringLiteral(SEMSCOPE_SCREENSHOT_DIR));
    QVERIFY(w->grab().save(QStringLiteral(SEMSCOPE_SCREENSHOT_DIR "/holder-search-bad-glob.png")));
}

// The status line is markup (its errors are red): what the operator typed is shown as typed, never
// as "&amp;" nor taken for markup of its own.
void TestHolderSearch::statusShowsThePatternAsTyped_data() {
    QTest::addColumn<QString>("text");
    QTest::newRow("ampersand") << "R&D-worker";
    QTest::newRow("markup") << "<b>x</b>";
    QTest::newRow("markup after a glob") << "worker-17*<i>";
}

void TestHolderSearch::statusShowsThePatternAsTyped() {
    QFETCH(QString, text);
    auto *w = openWindow();
    QVERIFY(w);
    QSignalSpy done(w, &ui::HolderSearchWindow::searchFinished);
    w->searchEdit()->clear();
    QTest::keyClicks(w->searchEdit(), text);
    QTest::keyClick(w->searchEdit(), Qt::Key_Return);
    const QString quoted = QStringLiteral("“%1”").arg(text);
    // While it searches, and once it is done.
    QString status = test::displayedText(w->statusLabel());
    QVERIFY2(status.contains(QStringLiteral("for ") + quoted), qPrintable(status));
    QVERIFY(done.wait(30000));
    status = test::displayedText(w->statusLabel());
    QVERIFY2(status.contains(QStringLiteral("matching ") + quoted), qPrintable(status));
}

// Return pressed again while a search runs: the first ends as cancelled, the second shows its own
// progress and can be cancelled in turn.
void TestHolderSearch::newSearchWhileOneRunsKeepsItsProgressAndCancel() {
    auto *w = openWindow();
    QVERIFY(w);
    QSignalSpy done(w, &ui::HolderSearchWindow::searchFinished);
    w->searchEdit()->clear();
    QTest::keyClicks(w->searchEdit(), QStringLiteral("first"));
    QTest::keyClick(w->searchEdit(), Qt::Key_Return);
    QVERIFY(w->isSearching());
    w->searchEdit()->clear();
    QTest::keyClicks(w->searchEdit(), QStringLiteral("second"));
    QTest::keyClick(w->searchEdit(), Qt::Key_Return);
    QVERIFY(w->isSearching());
    QVERIFY(w->progressBar()->isVisible());
    auto *cancel = w->findChild<QPushButton *>(QStringLiteral("holderSearchCancel"));
    QVERIFY(cancel);
    QVERIFY(cancel->isEnabled());
    const QString status = test::displayedText(w->statusLabel());
    QVERIFY2(status.startsWith(QStringLiteral("Searching 2 connections for “second”")), qPrintable(status));
    QCOMPARE(done.size(), 1); // the first, cancelled
    QVERIFY(done.first().first().toBool());
    QVERIFY(done.wait(30000));
    QVERIFY(!done.last().first().toBool());
}

void TestHolderSearch::cancelEndsASearchAtOnce() {
    auto *w = openWindow();
    QVERIFY(w);
    QSignalSpy done(w, &ui::HolderSearchWindow::searchFinished);
    w->searchEdit()->setText(QStringLiteral("worker"));
    w->search();
    QVERIFY(w->isSearching());
    QVERIFY(w->cancelButton()->isEnabled());
    QVERIFY(w->progressBar()->isVisible());
    QTest::mouseClick(w->cancelButton(), Qt::LeftButton);
    QCOMPARE(done.size(), 1); // at once, not when the reads come back
    QVERIFY(done.first().first().toBool());
    QVERIFY(!w->isSearching());
    QVERIFY(!w->cancelButton()->isEnabled());
    QVERIFY2(w->statusLabel()->text().startsWith(QLatin1String("Cancelled")),
             qPrintable(w->statusLabel()->text()));
    // Answers still on their way change nothing: a window of 300 ms in which nothing may happen.
    const int rows = w->model()->rowCount();
    QTest::qWait(300);
    QCOMPARE(w->model()->rowCount(), rows);
    QCOMPARE(done.size(), 1);
}

void TestHolderSearch::activatingAResultOpensItsSemaphore() {
    auto *w = openWindow();
    QVERIFY(w);
    QVERIFY(searchFor(w, QStringLiteral("worker-17")));
    // Pick the Consul result while the Redis connection is the selected one: the main window
    // switches to the result's connection, the page never shows it under another connection.
    m_demo->window->selectConnection(m_redis.id);
    int consulRow = -1;
    for (int r = 0; r < w->proxy()->rowCount(); ++r)
        if (w->proxy()->index(r, 0).data(HolderSearchModel::ConnectionIdRole).toString() == m_consul.id)
            consulRow = r;
    QVERIFY(consulRow >= 0);
    w->view()->setFocus();
    w->view()->setCurrentIndex(w->proxy()->index(consulRow, 0));
    QTest::keyClick(w->view(), Qt::Key_Return);
    auto *page = m_demo->window->semaphorePage();
    QTRY_COMPARE_WITH_TIMEOUT(page->ref().name, QStringLiteral("demo/test-search"), 10000);
    QVERIFY(page->session());
    QCOMPARE(page->session()->config().id, m_consul.id);
    QCOMPARE(m_demo->window->currentSession()->config().id, m_consul.id);
}

void TestHolderSearch::closingAConnectionMidSearchStillEnds() {
    auto *w = openWindow();
    QVERIFY(w);
    QSignalSpy done(w, &ui::HolderSearchWindow::searchFinished);
    w->searchEdit()->setText(QStringLiteral("worker"));
    w->search();
    QVERIFY(w->isSearching());
    // The Consul connection goes away while its reads are on their way: the search must not wait
    // for answers that will never come.
    m_demo->window->closeConnection(m_consul.id);
    QVERIFY(done.wait(30000) || !done.isEmpty());
    QVERIFY(!done.first().first().toBool());
    QVERIFY(!w->isSearching());
    QVERIFY(!w->cancelButton()->isEnabled());
}

SEMSCOPE_TEST_MAIN(TestHolderSearch)
#include "tst_holdersearch.moc"
