// What the failover-lost-lock lesson makes of each acquire: only the semaphore saying no is a
// refused grant; a lost connection or no answer fails the run instead of passing for a refusal (CI
// once showed client B "refused" by a connection that had merely been dropped, and the naive side
// then seemed not to over-admit).
#include "TestMain.h"
#include "redis/training/FailoverLostLock.h"

#include <QTest>

using semscope::core::AcquireResult;
using semscope::redis::FailoverLostLock;

class TestFailoverLostLock : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void outcomeOf_data() {
        QTest::addColumn<AcquireResult::Status>("status");
        QTest::addColumn<QString>("error");
        QTest::addColumn<FailoverLostLock::Outcome>("outcome");
        QTest::newRow("granted") << AcquireResult::Status::Granted << QString()
                                 << FailoverLostLock::Outcome::Granted;
        QTest::newRow("the slot is taken")
            << AcquireResult::Status::Busy << QString() << FailoverLostLock::Outcome::Refused;
        QTest::newRow("not on a replica, given back")
            << AcquireResult::Status::Error
            << QStringLiteral("not replicated to 1 replica within 300 ms (acknowledged by 0): released")
            << FailoverLostLock::Outcome::Refused;
        QTest::newRow("not on a replica, and still standing")
            << AcquireResult::Status::Error
            << QStringLiteral("not replicated to 1 replica within 300 ms (acknowledged by 0); releasing it "
                              "failed too (it stands until its TTL): no reply")
            << FailoverLostLock::Outcome::Failed;
        QTest::newRow("connection ended by a failover")
            << AcquireResult::Status::Error
            << QStringLiteral(
                   "acquire failed: no reply: redis+sentinel://127.0.0.1:5/training/0: failover: the "
                   "master of 'training' moved from 127.0.0.1:1 to 127.0.0.1:2; commands in flight "
                   "were not sent again")
            << FailoverLostLock::Outcome::Failed;
        QTest::newRow("no answer") << AcquireResult::Status::Error << QStringLiteral("no answer within 15 s")
                                   << FailoverLostLock::Outcome::Failed;
    }
    void outcomeOf() {
        QFETCH(AcquireResult::Status, status);
        QFETCH(QString, error);
        QFETCH(FailoverLostLock::Outcome, outcome);
        AcquireResult r;
        r.status = status;
        r.error = error;
        QCOMPARE(FailoverLostLock::outcomeOf(r), outcome);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestFailoverLostLock)
#include "tst_failoverlostlock.moc"
