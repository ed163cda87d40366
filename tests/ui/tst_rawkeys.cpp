// The raw view from the semaphore page on the demo sandbox, through the real widgets: Ctrl+K (the
// page's Raw keys… action) opens the keys of the shown semaphore — a `leased` one on Redis (zset
// of holders as member/score, meta hash as field/value) and a Consul one (`.lock` pretty-printed,
// its flags and indices) — Ctrl+C copies rows, and nothing in the window can write.

#include "DemoFixture.h"
#include "TestMain.h"
#include "model/RawKeyListModel.h"
#include "ui/rawkeys/RawKeysWindow.h"

#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableView>
#include <QtTest>

using namespace semscope;

class TestRawKeys : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void redisKeysAsTables();
    void consulEntriesWithProperties();
    void offersNoWrite();

private:
    ui::RawKeysWindow *openFor(const QString &connectionId, const core::SemaphoreRef &ref);
    int rowOfKeyEndingWith(ui::RawKeysWindow *w, const QString &suffix);

    std::unique_ptr<test::DemoFixture> m_demo;
    model::ConnectionConfig m_redis;
    model::ConnectionConfig m_consul;
};

void TestRawKeys::initTestCase() {
    m_demo = std::make_unique<test::DemoFixture>();
    QVERIFY2(m_demo->start(false), "the demo sandbox did not start");
    m_demo->window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_demo->window.get()));
    m_redis = m_demo->sandbox->redisConnection();
    m_consul = m_demo->sandbox->consulConnection();
    QVERIFY(m_demo->open(m_redis));
    QVERIFY(m_demo->open(m_consul));
}

void TestRawKeys::cleanupTestCase() {
    m_demo.reset();
}

ui::RawKeysWindow *TestRawKeys::openFor(const QString &connectionId, const core::SemaphoreRef &ref) {
    if (!m_demo->window->openSemaphore(connectionId, ref))
        return nullptr;
    auto *page = m_demo->window->semaphorePage();
    auto *action = page->rawKeysAction();
    if (!action || action->shortcut() != QKeySequence(QStringLiteral("Ctrl+K")) || !action->isEnabled())
        return nullptr;
    // The shortcut an operator presses, on the main window.
    m_demo->window->activateWindow();
    if (!QTest::qWaitForWindowActive(m_demo->window.get()))
        return nullptr;
    QTest::keyClick(m_demo->window.get(), Qt::Key_K, Qt::ControlModifier);
    ui::RawKeysWindow *found = nullptr;
    for (auto *w : page->findChildren<ui::RawKeysWindow *>())
        if (w->ref().name == ref.name && w->isVisible())
            found = w;
    if (!found)
        return nullptr;
    QSignalSpy loaded(found, &ui::RawKeysWindow::loaded);
    if (found->keysModel()->rowCount() == 0 && !loaded.wait(30000))
        return nullptr;
    return found;
}

int TestRawKeys::rowOfKeyEndingWith(ui::RawKeysWindow *w, const QString &suffix) {
    for (int r = 0; r < w->keysModel()->rowCount(); ++r)
        if (w->keysModel()->keyAt(r)->name.endsWith(suffix))
            return r;
    return -1;
}

void TestRawKeys::redisKeysAsTables() {
    core::SemaphoreRef jobs;
    jobs.kind = core::Kind::Leased;
    jobs.name = QStringLiteral("demo:jobs");
    auto *w = openFor(m_redis.id, jobs);
    QVERIFY(w);
    QVERIFY(QTest::qWaitForWindowExposed(w));
    QVERIFY(
        w->findChild<QLabel *>(QStringLiteral("rawKeysTitle"))->text().contains(QLatin1String("read-only")));
    const int holders = rowOfKeyEndingWith(w, QStringLiteral(":holders"));
    QVERIFY2(holders >= 0, qPrintable(w->statusLabel()->text()));
    QCOMPARE(w->keysModel()->index(holders, model::RawKeyListModel::TypeColumn).data().toString(),
             QStringLiteral("zset"));
    w->keysView()->setFocus();
    w->keysView()->setCurrentIndex(w->keysModel()->index(holders, 0));
    QCOMPARE(w->contentModel()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("member"));
    QCOMPARE(w->contentModel()->headerData(1, Qt::Horizontal).toString(), QStringLiteral("score"));
    QVERIFY(w->contentModel()->rowCount() >= 1);
    QVERIFY(w->contentView()->isVisible());
    QVERIFY(!w->valueView()->isVisible()); // a zset is a table, not text

    // Ctrl+C on the contents copies its rows as text.
    w->contentView()->setFocus();
    w->contentView()->selectRow(0);
    QApplication::clipboard()->clear();
    QTest::keyClick(w->contentView(), Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(QApplication::clipboard()->text(), w->contentModel()->rowText(0) + QLatin1Char('\n'));
    QVERIFY(QApplication::clipboard()->text().contains(QLatin1Char('\t')));

    const int meta = rowOfKeyEndingWith(w, QStringLiteral(":meta"));
    QVERIFY(meta >= 0);
    w->keysView()->setCurrentIndex(w->keysModel()->index(meta, 0));
    QCOMPARE(w->contentModel()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("field"));
    w->keysView()->setCurrentIndex(w->keysModel()->index(holders, 0));
    QDir().mkpath(QStringLiteral(SEMSCOPE_SCREENSHOT_DIR));
    QVERIFY(w->grab().save(QStringLiteral(SEMSCOPE_SCREENSHOT_DIR "/raw-keys-redis.png")));
    // Asking again for the same semaphore brings back the same window.
    QCOMPARE(openFor(m_redis.id, jobs), w);
    w->close();
}

void TestRawKeys::consulEntriesWithProperties() {
    core::SemaphoreRef api;
    api.kind = core::Kind::Consul;
    api.name = QStringLiteral("demo/service-a");
    auto *w = openFor(m_consul.id, api);
    QVERIFY(w);
    const int lock = rowOfKeyEndingWith(w, QStringLiteral("/.lock"));
    QVERIFY2(lock >= 0, qPrintable(w->statusLabel()->text()));
    w->keysView()->setCurrentIndex(w->keysModel()->index(lock, 0));
    QVERIFY(w->valueView()->isVisible());
    const QString value = w->valueView()->toPlainText();
    QVERIFY2(value.contains(QLatin1String("\n")) && value.contains(QLatin1String("Holders")),
             qPrintable(value));
    QCOMPARE(w->contentModel()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("property"));
    QStringList properties;
    for (int r = 0; r < w->contentModel()->rowCount(); ++r)
        properties << w->contentModel()->index(r, 0).data().toString();
    QCOMPARE(properties, (QStringList{"Flags", "Session", "CreateIndex", "ModifyIndex", "LockIndex"}));
    QVERIFY(w->grab().save(QStringLiteral(SEMSCOPE_SCREENSHOT_DIR "/raw-keys-consul.png")));
    w->close();
}

void TestRawKeys::offersNoWrite() {
    core::SemaphoreRef jobs;
    jobs.kind = core::Kind::Leased;
    jobs.name = QStringLiteral("demo:jobs");
    auto *w = openFor(m_redis.id, jobs);
    QVERIFY(w);
    // The only button reads again; no view can be edited.
    QStringList buttons;
    for (auto *b : w->findChildren<QPushButton *>())
        buttons << b->text();
    QCOMPARE(buttons, QStringList{QStringLiteral("&Refresh")});
    QVERIFY(w->valueView()->isReadOnly());
    QCOMPARE(w->keysView()->editTriggers(), QAbstractItemView::NoEditTriggers);
    QCOMPARE(w->contentView()->editTriggers(), QAbstractItemView::NoEditTriggers);
    const QString before = w->statusLabel()->text();
    QSignalSpy loaded(w, &ui::RawKeysWindow::loaded);
    QTest::keyClick(w, Qt::Key_F5);
    QVERIFY(loaded.wait(30000));
    QVERIFY(loaded.first().first().toBool());
    w->close();
    // With no semaphore on the page there is nothing to show.
    m_demo->window->semaphorePage()->clearSemaphore();
    QVERIFY(!m_demo->window->semaphorePage()->rawKeysAction()->isEnabled());
    QVERIFY(!m_demo->window->semaphorePage()->openRawKeys());
}

SEMSCOPE_TEST_MAIN(TestRawKeys)
#include "tst_rawkeys.moc"
