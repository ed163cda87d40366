#include "TestMain.h"
#include "model/SharedSnapshotReads.h"

#include <QSignalSpy>
#include <QtTest>

using namespace semscope;
using model::SharedSnapshotReads;

namespace {

core::SemaphoreRef ref(const QString &name = QStringLiteral("jobs")) {
    core::SemaphoreRef r;
    r.kind = core::Kind::Zset;
    r.name = name;
    return r;
}

// The connection: reads wait here until the test answers them, each answer numbered by the read.
struct FakeConnection {
    QList<std::pair<core::SemaphoreRef, core::Callback<core::Snapshot>>> pending;
    int sent = 0;
    qint64 now = 1000;

    SharedSnapshotReads::Issue issue() {
        return [this](const core::SemaphoreRef &r, core::Callback<core::Snapshot> done) {
            ++sent;
            pending.append({r, std::move(done)});
        };
    }
    SharedSnapshotReads::Clock clock() {
        return [this] { return now; };
    }
    // Answers the oldest read with a snapshot whose version is the read's number.
    void answerOne(qint64 version) {
        auto [r, done] = pending.takeFirst();
        core::Snapshot s;
        s.ref = r;
        s.version = version;
        done(s);
    }
};

// What each asker got: the version of the snapshot handed to it (-1: nothing yet).
struct Answers {
    QList<qint64> got;
    core::Callback<core::Snapshot> slot() {
        const qsizetype i = got.size();
        got << -1;
        return [this, i](const core::Snapshot &s) { got[i] = s.version.value_or(-2); };
    }
};

} // namespace

class TestSharedSnapshotReads : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void askersShareOneRead_data();
    void askersShareOneRead();
    void anAskersOwnLastReadIsNotHandedBack();
    void periodicAskersReadOncePerInterval_data();
    void periodicAskersReadOncePerInterval();
    void aChangeIsNeverAnsweredWithAnEarlierRead();
    void anAnswerComesLaterNeverFromInsideTheCall();
    void aSharedAnswerKeepsTheServerClockRight();
    void differentProfilesAreReadApart();
    void aGuessedScoreUnitSharesWithAuto();
    void oldAnswersAreForgotten();
};

// Two askers, the second `afterMs` after the first, each allowing answers `maxAgeMs` old; whether
// the first read is still in flight when the second asks.
void TestSharedSnapshotReads::askersShareOneRead_data() {
    QTest::addColumn<qint64>("afterMs");
    QTest::addColumn<qint64>("maxAgeMs");
    QTest::addColumn<bool>("firstAnswered");
    QTest::addColumn<int>("readsSent");

    QTest::newRow("in flight: joins it") << qint64(10) << qint64(900) << false << 1;
    QTest::newRow("answered 300 ms ago, 900 allowed: shared") << qint64(300) << qint64(900) << true << 1;
    QTest::newRow("answered 950 ms ago, 900 allowed: read again") << qint64(950) << qint64(900) << true << 2;
    QTest::newRow("fresh asked while in flight: a read after it") << qint64(10) << qint64(0) << false << 2;
    QTest::newRow("fresh asked after an answer: read again") << qint64(10) << qint64(0) << true << 2;
}

void TestSharedSnapshotReads::askersShareOneRead() {
    QFETCH(qint64, afterMs);
    QFETCH(qint64, maxAgeMs);
    QFETCH(bool, firstAnswered);
    QFETCH(int, readsSent);

    FakeConnection connection;
    SharedSnapshotReads reads(connection.issue(), connection.clock());
    Answers answers;
    reads.read(ref(), 900, answers.slot());
    QCOMPARE(connection.sent, 1);
    if (firstAnswered)
        connection.answerOne(1);
    connection.now += afterMs;
    reads.read(ref(), maxAgeMs, answers.slot());
    if (!firstAnswered)
        connection.answerOne(1);
    while (!connection.pending.isEmpty())
        connection.answerOne(connection.sent);
    QTRY_VERIFY(!answers.got.contains(-1));
    QCOMPARE(connection.sent, readsSent);
    QCOMPARE(int(reads.readsIssued()), readsSent);
    QCOMPARE(answers.got.first(), 1);
    // The second asker got the read it was entitled to: the shared one, or the one sent for it.
    QCOMPARE(answers.got.last(), qint64(readsSent));
}

// A periodic asker's own last read is one of its intervals old by definition: handing it back would
// halve how often a watcher alone reads.
void TestSharedSnapshotReads::anAskersOwnLastReadIsNotHandedBack() {
    FakeConnection connection;
    SharedSnapshotReads reads(connection.issue(), connection.clock());
    Answers answers;
    int watcher = 0, page = 0;
    reads.read(ref(), 1000, answers.slot(), &watcher);
    connection.answerOne(1);
    connection.now += 30;
    reads.read(ref(), 1000, answers.slot(), &watcher); // asked again at once (a rescan): shared
    QCOMPARE(connection.sent, 1);
    connection.now += 900;
    reads.read(ref(), 1000, answers.slot(), &watcher); // on its timer: its own read, not shared back
    QCOMPARE(connection.sent, 2);
    connection.answerOne(2);
    connection.now += 900;
    reads.read(ref(), 1000, answers.slot(), &page); // someone else's: shared
    QCOMPARE(connection.sent, 2);
    QTRY_VERIFY(!answers.got.contains(-1));
    QCOMPARE(answers.got, (QList<qint64>{1, 1, 2, 2}));
}

// The page, the ★ watcher and the semaphore list ask on their own timers, with their own drift;
// whatever their phases, the semaphore is read about once per (shortest) interval.
void TestSharedSnapshotReads::periodicAskersReadOncePerInterval_data() {
    QTest::addColumn<QList<int>>("periods"); // ms between one asker's asks
    QTest::addColumn<int>("phaseMs");        // the second asker starts this much later
    QTest::newRow("page and watcher, same beat") << QList<int>{1000, 1000} << 500;
    QTest::newRow("page and watcher, watcher drifting") << QList<int>{1000, 1070} << 100;
    QTest::newRow("page, watcher and list") << QList<int>{1000, 1040, 3000} << 950;
    QTest::newRow("watcher alone") << QList<int>{1000} << 0;
}

void TestSharedSnapshotReads::periodicAskersReadOncePerInterval() {
    QFETCH(QList<int>, periods);
    QFETCH(int, phaseMs);
    FakeConnection connection;
    connection.now = 0;
    SharedSnapshotReads reads(connection.issue(), connection.clock());
    QList<qint64> next;
    for (int i = 0; i < periods.size(); ++i)
        next << qint64(i * phaseMs);
    const qint64 runMs = 60000;
    int answered = 0;
    for (connection.now = 0; connection.now < runMs; connection.now += 10) {
        for (int i = 0; i < periods.size(); ++i) {
            if (connection.now < next[i])
                continue;
            next[i] = connection.now + periods[i];
            reads.read(
                ref(), periods[i], [&](const core::Snapshot &) { ++answered; }, &periods[i]);
        }
        while (!connection.pending.isEmpty()) // answered within the 10 ms step
            connection.answerOne(connection.sent);
    }
    const int shortest = *std::min_element(periods.begin(), periods.end());
    const int once = int(runMs / shortest);
    QVERIFY2(connection.sent >= once - 1 && connection.sent <= once + 2,
             qPrintable(QStringLiteral("%1 reads in %2 s").arg(connection.sent).arg(runMs / 1000)));
    QTRY_VERIFY(answered > 0);
}

void TestSharedSnapshotReads::aChangeIsNeverAnsweredWithAnEarlierRead() {
    FakeConnection connection;
    SharedSnapshotReads reads(connection.issue(), connection.clock());
    Answers answers;
    reads.read(ref(), 900, answers.slot()); // read 1 in flight
    reads.changed(ref());                   // a write (or a keyspace notification) meanwhile
    reads.read(ref(), 900, answers.slot()); // must not get read 1
    QCOMPARE(connection.sent, 1);           // one read at a time
    connection.answerOne(1);
    QCOMPARE(connection.sent, 2); // the read for the second asker goes out once the first is answered
    connection.answerOne(2);
    QTRY_VERIFY(!answers.got.contains(-1));
    QCOMPARE(answers.got, (QList<qint64>{1, 2}));

    // Answered, then changed: the cached answer is not handed out again however young.
    reads.changed(ref());
    reads.read(ref(), 900, answers.slot());
    QCOMPARE(connection.sent, 3);
    connection.answerOne(3);
    QTRY_COMPARE(answers.got.last(), 3);
}

void TestSharedSnapshotReads::anAnswerComesLaterNeverFromInsideTheCall() {
    FakeConnection connection;
    SharedSnapshotReads reads(connection.issue(), connection.clock());
    Answers answers;
    reads.read(ref(), 900, answers.slot());
    connection.answerOne(1);
    QCOMPARE(answers.got.first(), 1);
    reads.read(ref(), 900, answers.slot()); // shared from memory
    QCOMPARE(answers.got.last(), -1);       // not yet: callers finish their own bookkeeping first
    QTRY_COMPARE(answers.got.last(), 1);
    QCOMPARE(connection.sent, 1);
}

// The page syncs its countdowns to a snapshot's server time: an answer shared 400 ms after it came
// says the server's "now" 400 ms later, or every TTL would show 400 ms too long.
void TestSharedSnapshotReads::aSharedAnswerKeepsTheServerClockRight() {
    FakeConnection connection;
    SharedSnapshotReads reads(connection.issue(), connection.clock());
    std::optional<core::Snapshot> first, shared;
    reads.read(ref(), 900, [&](const core::Snapshot &s) { first = s; });
    auto [r, done] = connection.pending.takeFirst();
    core::Snapshot answer;
    answer.ref = r;
    answer.serverNowMs = 5'000'000;
    done(answer);
    connection.now += 400;
    reads.read(ref(), 900, [&](const core::Snapshot &s) { shared = s; });
    QTRY_VERIFY(shared);
    QCOMPARE(connection.sent, 1);
    QCOMPARE(first->serverNowMs, 5'000'000);
    QCOMPARE(shared->serverNowMs, 5'000'400);
}

void TestSharedSnapshotReads::differentProfilesAreReadApart() {
    FakeConnection connection;
    SharedSnapshotReads reads(connection.issue(), connection.clock());
    Answers answers;
    core::SemaphoreRef four = ref();
    four.profile.limit = 4;
    reads.read(ref(), 900, answers.slot());
    reads.read(four, 900, answers.slot()); // another limit reads the layout differently
    reads.read(ref(QStringLiteral("other")), 900, answers.slot());
    QCOMPARE(connection.sent, 3);
}

void TestSharedSnapshotReads::aGuessedScoreUnitSharesWithAuto() {
    FakeConnection connection;
    SharedSnapshotReads reads(connection.issue(), connection.clock());
    Answers answers;
    core::SemaphoreRef guessed = ref();
    guessed.profile.scoreUnit = core::ScoreUnit::Milliseconds;
    guessed.profile.unitInferred = true; // what discovery guessed from the scores
    reads.read(guessed, 900, answers.slot());
    reads.read(ref(), 900, answers.slot()); // Auto: the store guesses the same from the same scores
    QCOMPARE(connection.sent, 1);

    core::SemaphoreRef stated = ref();
    stated.profile.scoreUnit = core::ScoreUnit::Seconds; // an operator's profile: read as told
    reads.read(stated, 900, answers.slot());
    QCOMPARE(connection.sent, 2);
}

void TestSharedSnapshotReads::oldAnswersAreForgotten() {
    FakeConnection connection;
    SharedSnapshotReads reads(connection.issue(), connection.clock());
    Answers answers;
    reads.read(ref(), 900, answers.slot());
    connection.answerOne(1);
    // Long after, even an asker allowing any age gets a new read: the old one was dropped.
    connection.now += SharedSnapshotReads::kKeepMs + 1000;
    reads.read(ref(QStringLiteral("other")), 900, answers.slot()); // any call sweeps
    reads.read(ref(), std::numeric_limits<qint64>::max() / 2, answers.slot());
    QCOMPARE(connection.sent, 3);
}

SEMSCOPE_TEST_GUILESS_MAIN(TestSharedSnapshotReads)
#include "tst_sharedsnapshotreads.moc"
