// The History tab reads the shared history on the history's own thread (issue 29 item 6): it says
// "Loading…" while a query runs, shows the rows when it answers, and an answer for a semaphore no
// longer shown is dropped.
#include "TestMain.h"
#include "TestWait.h"
#include "monitor/HistoryStore.h"
#include "monitor/HistoryWorker.h"
#include "ui/HistoryPanel.h"

#include <QDateTime>
#include <QLabel>
#include <QTemporaryDir>
#include <QtTest>

using namespace semscope;

namespace {

const QString kEndpoint = QStringLiteral("redis://history-panel");

core::SemaphoreRef named(const QString &name) {
    core::SemaphoreRef ref;
    ref.kind = core::Kind::Leased;
    ref.name = name;
    return ref;
}

// Written by another connection, as `semscope-cli watch` in another process would.
void writeEvents(const QString &path, const core::SemaphoreRef &ref, int count) {
    monitor::HistoryStore store(path);
    QList<monitor::HolderEvent> events;
    for (int i = 0; i < count; ++i) {
        monitor::HolderEvent e;
        e.atMs = QDateTime::currentMSecsSinceEpoch() - 1000 + i; // within the retention
        e.event = monitor::events::Acquired;
        e.ref = ref;
        e.holder = QStringLiteral("h%1").arg(i);
        events << e;
    }
    QVERIFY(store.record(kEndpoint, events));
}

// A panel on a history file of its own, as the main window sets one up.
struct PanelOnFile {
    explicit PanelOnFile(const QString &path)
        : worker(path) {
        panel.setMonitoring(nullptr, &worker);
        note = panel.findChild<QLabel *>(QStringLiteral("historyNote"));
    }
    monitor::HistoryWorker worker;
    ui::HistoryPanel panel;
    QLabel *note = nullptr;
};

} // namespace

class TestHistoryPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void loadsWithoutBlockingAndSaysSo();
    void exportSaysHowManyEvents_data();
    void exportSaysHowManyEvents();
};

void TestHistoryPanel::loadsWithoutBlockingAndSaysSo() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("history.sqlite"));
    writeEvents(path, named(QStringLiteral("jobs")), 3);
    writeEvents(path, named(QStringLiteral("other")), 5);
    PanelOnFile f(path);
    ui::HistoryPanel &panel = f.panel;
    QLabel *note = f.note;
    QVERIFY(note);

    panel.setSemaphore(QStringLiteral("c"), kEndpoint, named(QStringLiteral("jobs")));
    // Asked, not answered yet: the window's thread went on.
    QVERIFY(panel.isLoading());
    QCOMPARE(note->text(), QStringLiteral("Loading…"));
    QCOMPARE(panel.model()->rowCount(), 0);
    QVERIFY(test::waitFor([&] { return !panel.isLoading(); }));
    QCOMPARE(panel.model()->rowCount(), 3);
    QVERIFY(note->text() != QStringLiteral("Loading…"));
    QVERIFY(panel.exportButton()->isEnabled());

    // Another semaphore while the first one's answer is still to come: only the last one shows.
    panel.setSemaphore(QStringLiteral("c"), kEndpoint, named(QStringLiteral("jobs")));
    panel.setSemaphore(QStringLiteral("c"), kEndpoint, named(QStringLiteral("other")));
    QCOMPARE(panel.model()->rowCount(), 0); // jobs' rows went with it
    QVERIFY(test::waitFor([&] { return !panel.isLoading(); }));
    QCOMPARE(panel.model()->rowCount(), 5);
}

void TestHistoryPanel::exportSaysHowManyEvents_data() {
    QTest::addColumn<int>("events");
    QTest::addColumn<QString>("expected");
    QTest::newRow("one") << 1 << "Exported 1 event to ";
    QTest::newRow("three") << 3 << "Exported 3 events to ";
}

void TestHistoryPanel::exportSaysHowManyEvents() {
    QFETCH(int, events);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("history.sqlite"));
    writeEvents(path, named(QStringLiteral("jobs")), events);
    PanelOnFile f(path);
    ui::HistoryPanel &panel = f.panel;
    QLabel *note = f.note;
    QVERIFY(note);
    panel.setSemaphore(QStringLiteral("c"), kEndpoint, named(QStringLiteral("jobs")));
    QVERIFY(test::waitFor([&] { return !panel.isLoading(); }));
    QCOMPARE(panel.model()->rowCount(), events);

    // What Export CSV… does with the file the operator picked (the dialog is Qt's own).
    const QString csv = dir.filePath(QStringLiteral("out.csv"));
    panel.exportTo(csv);
    QVERIFY(QFile::exists(csv));
    QCOMPARE(note->text(), expected + csv);
}

SEMSCOPE_TEST_MAIN(TestHistoryPanel)
#include "tst_historypanel.moc"
