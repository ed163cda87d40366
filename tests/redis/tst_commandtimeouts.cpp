// Command deadlines (redis/connection/CommandTimeouts) and the reconnect backoff beside them: which
// commands are overdue, that the timer fires for the earliest one, that no timeout means none.
#include "TestMain.h"
#include "redis/connection/CommandTimeouts.h"
#include "redis/connection/ReconnectBackoff.h"

#include <QTest>

using semscope::redis::CommandTimeouts;
using semscope::redis::PendingCommand;
using semscope::redis::ReconnectBackoff;
using semscope::redis::ReplyDispatch;

namespace {

PendingCommand pending(const QByteArray &name, qint64 deadline) {
    PendingCommand p;
    p.name = name;
    p.deadline = deadline;
    return p;
}

} // namespace

class TestCommandTimeouts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void noTimeoutMeansNoDeadline();
    void overdueInFlightFailsTheConnection();
    void overdueQueuedCommandsAreTakenInOrder();
    void timerFiresForTheEarliestDeadline();
    void backoffDoublesUpToFiveSeconds();
};

void TestCommandTimeouts::noTimeoutMeansNoDeadline() {
    QObject context;
    bool due = false;
    CommandTimeouts timeouts(0, &context, [&] { due = true; });
    QCOMPARE(timeouts.deadlineFromNow(), qint64(0));
    ReplyDispatch dispatch;
    dispatch.inFlight.push_back(pending("GET", 0));
    timeouts.arm(dispatch);
    QVERIFY(!timeouts.inFlightOverdue(dispatch));
    QCoreApplication::processEvents();
    QVERIFY(!due);
}

void TestCommandTimeouts::overdueInFlightFailsTheConnection() {
    QObject context;
    CommandTimeouts timeouts(1, &context, [] {});
    ReplyDispatch dispatch;
    QVERIFY(!timeouts.inFlightOverdue(dispatch)); // nothing in flight
    dispatch.inFlight.push_back(pending("GET", timeouts.deadlineFromNow()));
    QTRY_VERIFY(timeouts.inFlightOverdue(dispatch));
}

void TestCommandTimeouts::overdueQueuedCommandsAreTakenInOrder() {
    QObject context;
    CommandTimeouts timeouts(1, &context, [] {});
    ReplyDispatch dispatch;
    const qint64 deadline = timeouts.deadlineFromNow(); // one, so both fall due together
    dispatch.queue.push_back({"a", pending("FIRST", deadline)});
    dispatch.queue.push_back({"b", pending("SECOND", deadline)});
    dispatch.queue.push_back({"c", pending("NO-DEADLINE", 0)});
    dispatch.queue.push_back({"d", pending("BEHIND", deadline)});
    std::deque<PendingCommand> overdue;
    const auto takeOverdue = [&] {
        for (PendingCommand &p : timeouts.takeOverdueQueued(dispatch))
            overdue.push_back(std::move(p));
        return overdue.size() == 2;
    };
    QTRY_VERIFY(takeOverdue());
    QCOMPARE(overdue.at(0).name, QByteArray("FIRST"));
    QCOMPARE(overdue.at(1).name, QByteArray("SECOND"));
    // A command without a deadline stops the walk: the queue is a FIFO.
    QCOMPARE(dispatch.queue.size(), size_t(2));
    QCOMPARE(dispatch.queue.front().pending.name, QByteArray("NO-DEADLINE"));
}

void TestCommandTimeouts::timerFiresForTheEarliestDeadline() {
    QObject context;
    int due = 0;
    CommandTimeouts timeouts(20, &context, [&] { ++due; });
    ReplyDispatch dispatch;
    dispatch.inFlight.push_back(pending("GET", timeouts.deadlineFromNow()));
    timeouts.arm(dispatch);
    timeouts.arm(dispatch); // armed already: no second timer
    QTRY_COMPARE(due, 1);
    // A coarse timer may fire a little early (the connection then arms it again).
    QTRY_VERIFY(timeouts.inFlightOverdue(dispatch));
    QCOMPARE(due, 1);
    timeouts.stop();
}

void TestCommandTimeouts::backoffDoublesUpToFiveSeconds() {
    ReconnectBackoff backoff;
    QList<int> delays;
    for (int i = 0; i < 8; ++i)
        delays << backoff.next();
    QCOMPARE(delays, (QList<int>{100, 200, 400, 800, 1600, 3200, 5000, 5000}));
    backoff.reset();
    QCOMPARE(backoff.next(), 100);
}

SEMSCOPE_TEST_GUILESS_MAIN(TestCommandTimeouts)
#include "tst_commandtimeouts.moc"
