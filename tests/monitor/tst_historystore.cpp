#include "TestMain.h"
#include "monitor/HistoryStore.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSemaphore>
#include <QSettings>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <optional>
#include <thread>

using namespace semscope;
using monitor::HistoryStore;
using monitor::HolderEvent;

namespace {

const QString kEndpoint = QStringLiteral("redis://127.0.0.1:6379/0");

core::SemaphoreRef ref(const char *name = "pool", core::Kind kind = core::Kind::Slots) {
    core::SemaphoreRef r;
    r.kind = kind;
    r.name = QString::fromLatin1(name);
    return r;
}

HolderEvent makeEvent(const QString &name, const QString &holder, qint64 atMs,
                      std::optional<qint64> token = {}) {
    HolderEvent e;
    e.atMs = atMs;
    e.event = name;
    e.ref = ref();
    e.holder = holder;
    e.token = token;
    e.details = QStringLiteral("d");
    return e;
}

} // namespace

class TestHistoryStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void eventsRoundTrip();
    void firstSeenSurvivesARestart();
    void keptAcrossProcesses();
    void holdEndsWhenTheHolderIsGone();
    void holdsAreKeptPerEndpointAndSemaphore();
    void twoProcessesWritingAtOnceLoseNothing();
    void openingWhileAnotherProcessSetsTheFileUp();
    void eventsWaitWhileTheFileIsBusy();
    void eventsDroppedPastTheLimitAreCounted_data();
    void eventsDroppedPastTheLimitAreCounted();
    void forceReleaseMarks();
    void seenSemaphoresSurviveARestart();
    void settlingAForceRelease();
    void oldRowsArePruned();
    void sizeIsBounded();
    void damagedFileWarnsAndKeepsWorking_data();
    void damagedFileWarnsAndKeepsWorking();
    void retentionFromSettings();

private:
    QString path() const { return m_dir->filePath(QStringLiteral("history.sqlite")); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestHistoryStore::init() {
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestHistoryStore::eventsRoundTrip() {
    HistoryStore h(path());
    QVERIFY2(h.isAvailable(), qPrintable(h.warning()));
    QVERIFY(h.warning().isEmpty());
    QVERIFY(h.record(kEndpoint, {makeEvent("acquired", "a", 1000, 5), makeEvent("released", "a", 2000, 5)}));
    HolderEvent other = makeEvent("acquired", "b", 1500);
    other.ref = ref("other");
    QVERIFY(h.record(kEndpoint, {other}));
    const auto got = h.events(kEndpoint, ref(), 0);
    QCOMPARE(got.size(), 2);
    QCOMPARE(got[0], makeEvent("released", "a", 2000, 5)); // newest first, every field kept
    QCOMPARE(got[1].event, QStringLiteral("acquired"));
    QVERIFY(!got[1].slot);
    QCOMPARE(h.events(kEndpoint, ref(), 1500).size(), 1);
    QCOMPARE(h.events(kEndpoint, ref(), 0, 1).size(), 1);
    QVERIFY(h.events(QStringLiteral("redis://elsewhere"), ref(), 0).isEmpty());
}

void TestHistoryStore::firstSeenSurvivesARestart() {
    const qint64 t0 = QDateTime::currentMSecsSinceEpoch() - 3600000; // within the retention
    {
        HistoryStore h(path());
        const auto first = h.recordSeen(kEndpoint, ref(), {"a", "b"}, t0);
        QCOMPARE(first.value("a"), t0);
    }
    HistoryStore again(path());
    QVERIFY(again.isAvailable());
    QCOMPARE(again.firstSeen(kEndpoint, ref(), "a"), t0);
    const auto first = again.recordSeen(kEndpoint, ref(), {"a", "b", "c"}, t0 + 5000);
    QCOMPARE(first.value("a"), t0);
    QCOMPARE(first.value("b"), t0);
    QCOMPARE(first.value("c"), t0 + 5000);
}

void TestHistoryStore::keptAcrossProcesses() {
    QProcess writer;
    writer.start(QStringLiteral(HISTORY_WRITER), {path(), QStringLiteral("w1"), QStringLiteral("3")});
    QVERIFY(writer.waitForFinished(30000));
    QCOMPARE(writer.exitCode(), 0);
    HistoryStore h(path());
    core::SemaphoreRef shared = ref("shared");
    QCOMPARE(h.events(QStringLiteral("redis://test"), shared, 0).size(), 3);
    QVERIFY(h.firstSeen(QStringLiteral("redis://test"), shared, "w1").has_value());
}

void TestHistoryStore::holdEndsWhenTheHolderIsGone() {
    HistoryStore h(path());
    h.recordSeen(kEndpoint, ref(), {"a", "b"}, 1000);
    h.recordSeen(kEndpoint, ref(), {"b"}, 2000);
    QVERIFY(!h.firstSeen(kEndpoint, ref(), "a"));
    // Held again later: a new hold, its age starts again.
    QCOMPARE(h.recordSeen(kEndpoint, ref(), {"a", "b"}, 3000).value("a"), 3000);
    const auto holds = h.holds(kEndpoint, ref(), 0);
    QCOMPARE(holds.size(), 3);
    QCOMPARE(holds[0].holder, QStringLiteral("a")); // newest first
    QVERIFY(!holds[0].endedMs);
    const auto ended =
        std::find_if(holds.begin(), holds.end(), [](const auto &r) { return r.endedMs.has_value(); });
    QVERIFY(ended != holds.end());
    QCOMPARE(ended->firstSeenMs, 1000);
    QCOMPARE(ended->lastSeenMs, 1000);
    QCOMPARE(*ended->endedMs, 2000);
    QCOMPARE(holds.last().lastSeenMs, 3000); // b: one hold, seen until the last read
}

void TestHistoryStore::holdsAreKeptPerEndpointAndSemaphore() {
    HistoryStore h(path());
    h.recordSeen(kEndpoint, ref(), {"a"}, 1000);
    h.recordSeen(QStringLiteral("redis://other:6379/0"), ref(), {}, 2000);
    h.recordSeen(kEndpoint, ref("pool", core::Kind::Zset), {}, 2000);
    h.recordSeen(kEndpoint, ref("pool2"), {}, 2000);
    QCOMPARE(h.firstSeen(kEndpoint, ref(), "a"), 1000);
}

void TestHistoryStore::twoProcessesWritingAtOnceLoseNothing() {
    const int count = 200;
    QProcess a, b;
    a.start(QStringLiteral(HISTORY_WRITER), {path(), QStringLiteral("wa"), QString::number(count)});
    b.start(QStringLiteral(HISTORY_WRITER), {path(), QStringLiteral("wb"), QString::number(count)});
    QVERIFY(a.waitForFinished(60000));
    QVERIFY(b.waitForFinished(60000));
    QCOMPARE(a.exitCode(), 0);
    QCOMPARE(b.exitCode(), 0);
    HistoryStore h(path());
    const auto got = h.events(QStringLiteral("redis://test"), ref("shared"), 0, 10 * count);
    QCOMPARE(got.size(), 2 * count);
    QSet<QString> seen;
    for (const HolderEvent &e : got)
        seen.insert(e.holder + QLatin1Char('/') + QString::number(*e.token));
    QCOMPARE(seen.size(), 2 * count); // every event of each writer, none twice
    // The hold both saw is one hold, never two open ones.
    int openCommon = 0;
    for (const auto &r : h.holds(QStringLiteral("redis://test"), ref("shared"), 0))
        openCommon += r.holder == QLatin1String("common") && !r.endedMs;
    QCOMPARE(openCommon, 1);
}

void TestHistoryStore::openingWhileAnotherProcessSetsTheFileUp() {
    // Another program (the CLI, a second app) is creating the same fresh file: it holds the write
    // lock for a moment. SQLite answers the WAL switch "busy" at once instead of waiting; the history
    // must wait its busy timeout like for any write, not turn itself off for the whole session.
    // The other side only records what happened: test macros belong to the test's own thread.
    QSemaphore locked, opened;
    bool held = false;
    bool committed = false;
    std::thread other([&] {
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("other"));
            db.setDatabaseName(path());
            held = db.open();
            QSqlQuery q(db);
            held = held && q.exec(QStringLiteral("BEGIN IMMEDIATE")) &&
                   q.exec(QStringLiteral("CREATE TABLE setting_up(x)"));
            locked.release();
            // Held until the history has tried to open (it waits on the lock, or gave up already).
            if (held)
                opened.tryAcquire(1, 300);
            committed = held && q.exec(QStringLiteral("COMMIT"));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("other"));
    });
    locked.acquire();
    std::optional<HistoryStore> h;
    if (held)
        h.emplace(path(), 5000);
    opened.release();
    other.join();
    QVERIFY(held);
    QVERIFY(committed);
    QVERIFY2(h->isAvailable(), qPrintable(h->warning()));
    QVERIFY(h->record(QStringLiteral("redis://test"),
                      {makeEvent(QStringLiteral("acquired"), QStringLiteral("a"), 1000)}));
}

void TestHistoryStore::eventsWaitWhileTheFileIsBusy() {
    // The app's short busy timeout must not cost events: another process holding the write lock
    // longer than that makes them wait in memory, and they go in with the next write.
    HistoryStore h(path(), 50);
    QVERIFY(h.isAvailable());
    {
        QSqlDatabase blocker =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("blocker"));
        blocker.setDatabaseName(path());
        QVERIFY(blocker.open());
        QSqlQuery lock(blocker);
        QVERIFY(lock.exec(QStringLiteral("BEGIN IMMEDIATE")));
        QVERIFY(!h.record(QStringLiteral("redis://test"),
                          {makeEvent(QStringLiteral("acquired"), QStringLiteral("a"), 1000, 1)}));
        QCOMPARE(h.pendingEvents(), 1);
        QVERIFY(lock.exec(QStringLiteral("COMMIT")));
        blocker.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("blocker"));
    QVERIFY(h.record(QStringLiteral("redis://test"),
                     {makeEvent(QStringLiteral("released"), QStringLiteral("a"), 2000, 1)}));
    QCOMPARE(h.pendingEvents(), 0);
    const auto got = h.events(QStringLiteral("redis://test"), ref(), 0);
    QCOMPARE(got.size(), 2);
    QCOMPARE(got.at(0).event, QStringLiteral("released")); // newest first
    QCOMPARE(got.at(1).event, QStringLiteral("acquired"));
}

void TestHistoryStore::eventsDroppedPastTheLimitAreCounted_data() {
    QTest::addColumn<int>("dropped");
    QTest::addColumn<QString>("expected");
    QTest::newRow("one") << 1 << "1 event could not be written for a long time and was dropped";
    QTest::newRow("three") << 3 << "3 events could not be written for a long time and were dropped";
}

void TestHistoryStore::eventsDroppedPastTheLimitAreCounted() {
    // More events waiting for a busy file than are kept: the oldest go, and the warning counts them.
    QFETCH(int, dropped);
    QFETCH(QString, expected);
    HistoryStore h(path(), 50);
    QVERIFY(h.isAvailable());
    QSqlDatabase blocker = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("blocker"));
    blocker.setDatabaseName(path());
    QVERIFY(blocker.open());
    QSqlQuery lock(blocker);
    QVERIFY(lock.exec(QStringLiteral("BEGIN IMMEDIATE")));
    QList<HolderEvent> many;
    for (int i = 0; i < HistoryStore::kMaxPendingEvents + dropped; ++i)
        many << makeEvent(QStringLiteral("acquired"), QStringLiteral("h%1").arg(i), 1000 + i, i);
    // The busy write's own warning follows; this one must come with the count said properly.
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QRegularExpression::escape(expected)));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("locked|busy")));
    QVERIFY(!h.record(QStringLiteral("redis://test"), many));
    QCOMPARE(h.pendingEvents(), HistoryStore::kMaxPendingEvents);
    QVERIFY(lock.exec(QStringLiteral("ROLLBACK")));
    lock = QSqlQuery();
    blocker.close();
    blocker = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("blocker"));
}

void TestHistoryStore::forceReleaseMarks() {
    HistoryStore h(path());
    const auto id = h.markForceRelease(kEndpoint, ref(), "a", "semscope-cli pid 7", 1000);
    QVERIFY(id);
    h.markForceRelease(kEndpoint, ref(), "b", "semscope pid 8", 1000);
    auto marks = h.forceReleasedSince(kEndpoint, ref(), 500);
    QCOMPARE(marks.value("a"), QStringLiteral("semscope-cli pid 7"));
    QCOMPARE(marks.size(), 2);
    QVERIFY(h.forceReleasedSince(kEndpoint, ref(), 1001).isEmpty());
    h.clearForceRelease(*id);
    marks = h.forceReleasedSince(kEndpoint, ref(), 0);
    QVERIFY(!marks.contains("a"));
    QVERIFY(marks.contains("b"));
}

void TestHistoryStore::settlingAForceRelease() {
    HistoryStore h(path());
    // Not removed (changed, gone, refused): the mark goes, nothing to say.
    const auto kept = h.markForceRelease(kEndpoint, ref(), "a", "x", 1000);
    QVERIFY(h.settleForceRelease(kept, false).isEmpty());
    QVERIFY(!h.forceReleasedSince(kEndpoint, ref(), 0).contains("a"));
    // Removed with its mark: the mark stays for the watchers, nothing to say.
    const auto used = h.markForceRelease(kEndpoint, ref(), "b", "x", 1000);
    QVERIFY(h.settleForceRelease(used, true).isEmpty());
    QVERIFY(h.forceReleasedSince(kEndpoint, ref(), 0).contains("b"));
    // Removed without a mark: the operator is told; not removed without one: nothing.
    QVERIFY(h.settleForceRelease(std::nullopt, true)
                .startsWith(QStringLiteral("the shared history did not record this force-release")));
    QVERIFY(h.settleForceRelease(std::nullopt, false).isEmpty());
}

// Issue 31 item 3: the semaphores a scan found, kept across runs, so one whose keys Redis deleted
// (a ZSET with no members) stays listed as "empty since …".
void TestHistoryStore::seenSemaphoresSurviveARestart() {
    const qint64 t0 = QDateTime::currentMSecsSinceEpoch() - 3600000;
    {
        HistoryStore h(path());
        h.recordSemaphoresSeen(kEndpoint, {ref("pool"), ref("rate", core::Kind::Zset)}, t0);
        h.recordSemaphoresSeen(kEndpoint, {ref("rate", core::Kind::Zset)}, t0 + 5000);
        h.recordSemaphoresSeen(QStringLiteral("redis://elsewhere"), {ref("other")}, t0);
    }
    HistoryStore again(path());
    const auto seen = again.seenSemaphores(kEndpoint);
    QCOMPARE(seen.size(), 2);
    QCOMPARE(seen[0].ref, ref("pool"));
    QCOMPARE(seen[0].firstSeenMs, t0);
    QCOMPARE(seen[0].lastSeenMs, t0);
    QCOMPARE(seen[1].ref, ref("rate", core::Kind::Zset));
    QCOMPARE(seen[1].firstSeenMs, t0);
    QCOMPARE(seen[1].lastSeenMs, t0 + 5000);
    // An older scan's answer never moves "last seen" back.
    again.recordSemaphoresSeen(kEndpoint, {ref("rate", core::Kind::Zset)}, t0 + 1000);
    QCOMPARE(again.seenSemaphores(kEndpoint)[1].lastSeenMs, t0 + 5000);
    again.forgetSemaphore(kEndpoint, ref("pool"));
    QCOMPARE(again.seenSemaphores(kEndpoint).size(), 1);
    QCOMPARE(again.seenSemaphores(QStringLiteral("redis://elsewhere")).size(), 1);
    // Past the history's retention they go like every other row.
    again.prune(t0 + 5000 + again.maxAgeMs() + 1);
    QVERIFY(again.seenSemaphores(kEndpoint).isEmpty());
}

void TestHistoryStore::oldRowsArePruned() {
    const qint64 day = 24 * 3600 * 1000LL;
    const qint64 now = 100 * day;
    HistoryStore h(path());
    h.setRetention(30 * day, HistoryStore::kDefaultMaxBytes);
    QVERIFY(h.record(kEndpoint, {makeEvent("acquired", "old", now - 31 * day),
                                 makeEvent("acquired", "new", now - 29 * day)}));
    h.recordSeen(kEndpoint, ref(), {"old"}, now - 40 * day);
    h.prune(now);
    const auto got = h.events(kEndpoint, ref(), 0);
    QCOMPARE(got.size(), 1);
    QCOMPARE(got[0].holder, QStringLiteral("new"));
    QVERIFY(h.holds(kEndpoint, ref(), 0).isEmpty());
}

void TestHistoryStore::sizeIsBounded() {
    HistoryStore h(path());
    const qint64 limit = 256 * 1024;
    h.setRetention(HistoryStore::kDefaultMaxAgeMs, limit);
    const QString longDetails(400, QLatin1Char('x'));
    for (int batch = 0; batch < 20; ++batch) {
        QList<HolderEvent> list;
        for (int i = 0; i < 100; ++i) {
            HolderEvent e = makeEvent("acquired", "h", 1000 + batch * 100 + i, batch * 100 + i);
            e.details = longDetails;
            list << e;
        }
        QVERIFY(h.record(kEndpoint, list));
        h.prune(2000000);
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("probe"));
    db.setDatabaseName(path());
    QVERIFY(db.open());
    {
        QSqlQuery q(db);
        QVERIFY(q.exec("SELECT (SELECT page_count FROM pragma_page_count()) - (SELECT freelist_count FROM "
                       "pragma_freelist_count()), (SELECT page_size FROM pragma_page_size())"));
        QVERIFY(q.next());
        QVERIFY2(q.value(0).toLongLong() * q.value(1).toLongLong() <= limit,
                 qPrintable(q.value(0).toString()));
    }
    db.close();
    db = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("probe"));
    // The newest events are the ones kept.
    const auto got = h.events(kEndpoint, ref(), 0, 1);
    QCOMPARE(got.size(), 1);
    QCOMPARE(*got[0].token, 1999);
    QVERIFY(h.events(kEndpoint, ref(), 0, 100000).size() < 2000);
}

void TestHistoryStore::damagedFileWarnsAndKeepsWorking_data() {
    QTest::addColumn<bool>("wasDatabase");
    QTest::newRow("not a database") << false;
    QTest::newRow("database with damaged pages") << true;
}

void TestHistoryStore::damagedFileWarnsAndKeepsWorking() {
    QFETCH(bool, wasDatabase);
    QByteArray content = QByteArray("this is not a database, just some text\n").repeated(200);
    if (wasDatabase) {
        {
            HistoryStore h(path());
            QList<HolderEvent> list;
            for (int i = 0; i < 2000; ++i)
                list << makeEvent("acquired", "h", QDateTime::currentMSecsSinceEpoch(), i);
            QVERIFY(h.record(kEndpoint, list));
        }
        QFile db(path());
        QVERIFY(db.open(QIODevice::ReadOnly));
        content = db.readAll();
        QVERIFY(content.size() > 64 * 1024);
        // Pages after the first (the schema) overwritten, the way a bad disk or a copy cut short leaves it.
        for (qsizetype i = 4096; i < content.size(); i += 7)
            content[i] = char(0xee);
        QFile::remove(path() + QStringLiteral("-wal"));
        QFile::remove(path() + QStringLiteral("-shm"));
    }
    QFile f(path());
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(content);
    f.close();
    HistoryStore h(path());
    // Found out on open, or — a damaged page shows when it is read — by the first read.
    if (h.isAvailable())
        QVERIFY(h.events(kEndpoint, ref(), 0, 100000).isEmpty());
    QVERIFY(!h.isAvailable());
    QVERIFY2(h.warning().contains(path()), qPrintable(h.warning()));
    QVERIFY2(h.warning().contains(QStringLiteral("continuing without history")), qPrintable(h.warning()));
    // Everything still answers, with nothing.
    QVERIFY(!h.record(kEndpoint, {makeEvent("acquired", "a", 1)}));
    QVERIFY(h.recordSeen(kEndpoint, ref(), {"a"}, 1).isEmpty());
    QVERIFY(h.events(kEndpoint, ref(), 0).isEmpty());
    QVERIFY(!h.markForceRelease(kEndpoint, ref(), "a", "x", 1));
    h.prune(1);
    // The file is left as it was for the operator to look at.
    QFile again(path());
    QVERIFY(again.open(QIODevice::ReadOnly));
    QCOMPARE(again.readAll(), content);
}

void TestHistoryStore::retentionFromSettings() {
    QSettings settings(QSettings::UserScope, QCoreApplication::organizationName(),
                       QStringLiteral("semscope"));
    settings.setValue("history/maxAgeDays", 7);
    settings.setValue("history/maxMegabytes", 5);
    const auto [age, bytes] = HistoryStore::retentionFromSettings();
    QCOMPARE(age, 7 * 24 * 3600 * 1000LL);
    QCOMPARE(bytes, 5 * 1024 * 1024LL);
    HistoryStore h(path());
    QCOMPARE(h.maxAgeMs(), age);
    settings.remove("history");
    QCOMPARE(HistoryStore::retentionFromSettings().first, HistoryStore::kDefaultMaxAgeMs);
}

static int testMain(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    // Settings of this test only, never the operator's.
    QTemporaryDir settingsDir;
    QCoreApplication::setOrganizationName(QStringLiteral("semscope-test"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_historystore"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
    TestHistoryStore t;
    return QTest::qExec(&t, argc, argv);
}
SEMSCOPE_TEST_CUSTOM_MAIN(testMain)
#include "tst_historystore.moc"
