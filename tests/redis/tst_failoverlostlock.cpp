// What the failover-lost-lock lesson makes of each acquire: only the semaphore saying no is a
// refused grant; a lost connection or no answer fails the run instead of passing for a refusal (CI
// once showed client B "refused" by a connection that had merely been dropped, and the naive side
// then seemed not to over-admit).
#include "TestMain.h"
#include "training/FailoverLostLock.h"
#include "training/ScenarioRuns.h"

#include <QJsonObject>
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

    // issue 29 item 5: every scenario's JSON (`loadtest --scenario S --json`, the app's export)
    // names its two sides alike, failover-lost-lock included, and each side says what it ran and
    // what it found under the same names: one script reads them all.
    void everyScenarioNamesItsSidesAlike() {
        QList<std::pair<QString, QJsonObject>> documents;
        for (const semscope::redis::TrainingScenario &s : semscope::redis::trainingScenarios())
            documents.append({s.name, semscope::redis::scenarioReportJson(s, {}, {})});
        FailoverLostLock::Report failover;
        failover.naive.label = QStringLiteral("naive");
        failover.safe.label = QStringLiteral("replica-acknowledged");
        documents.append({FailoverLostLock::scenarioName(), failover.toJson()});
        QVERIFY(documents.size() >= 6);

        const QStringList sides{QStringLiteral("atomic"), QStringLiteral("unsafe")};
        for (const auto &[name, o] : documents) {
            QStringList found;
            for (auto it = o.begin(); it != o.end(); ++it) {
                if (it.value().isObject())
                    found << it.key();
            }
            found.sort();
            QVERIFY2(found == sides, qPrintable(name + QStringLiteral(": ") + found.join(QLatin1Char(','))));
            for (const char *key : {"scenario", "title", "explanation"})
                QVERIFY2(o.value(QLatin1String(key)).isString(), qPrintable(name + QLatin1Char(' ') + key));
            for (const QString &side : sides) {
                const QJsonObject report = o.value(side).toObject();
                for (const char *key :
                     {"run", "completed", "over_admissions", "token_violations", "refused_grants"})
                    QVERIFY2(
                        report.contains(QLatin1String(key)),
                        qPrintable(QStringLiteral("%1, %2 side: no %3").arg(name, side, QLatin1String(key))));
            }
        }
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestFailoverLostLock)
#include "tst_failoverlostlock.moc"
