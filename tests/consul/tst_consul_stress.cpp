// Safety under contention: 32 clients x 250 acquire/release through the Consul API double with a
// limit of 3 must never have more than 3 holders, and must reach 3 (each grant is held 10-20 ms,
// longer than the others need to be granted, or the run would prove nothing about over-admission). Each
// client records [grant received, release sent]; that interval lies inside the real holding interval, so more
// than 3 overlapping intervals would be a real over-admission.
#include "TestMain.h"
#include "TestWait.h"
#include "consul/ConsulSemaphoreStore.h"
#include "consuldouble/ConsulDouble.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTest>
#include <QTimer>
#include <algorithm>

using namespace semscope;
using namespace semscope::consul;

class TestConsulStress : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void neverMoreHoldersThanTheLimit() {
        const int clients = qEnvironmentVariableIntValue("SEMSCOPE_CONSUL_STRESS_CLIENTS") > 0
                                ? qEnvironmentVariableIntValue("SEMSCOPE_CONSUL_STRESS_CLIENTS")
                                : 32;
        const int rounds = qEnvironmentVariableIntValue("SEMSCOPE_CONSUL_STRESS_ROUNDS") > 0
                               ? qEnvironmentVariableIntValue("SEMSCOPE_CONSUL_STRESS_ROUNDS")
#ifdef SEMSCOPE_SANITIZED_BUILD
                               : 100;
#else
                               : 250;
#endif
        constexpr int limit = 3;
        const int kMinHoldMs = qEnvironmentVariableIntValue("SEMSCOPE_CONSUL_STRESS_HOLD_MS") > 0
                                   ? qEnvironmentVariableIntValue("SEMSCOPE_CONSUL_STRESS_HOLD_MS")
                                   : 10;
        const int kHoldSpreadMs = kMinHoldMs;

        ConsulDouble fake;
        QVERIFY(fake.listen());
        fake.setTtlMultiplier(1);
        ConsulConfig config;
        config.address = fake.url();

        core::SemaphoreRef ref;
        ref.kind = core::Kind::Consul;
        ref.name = QStringLiteral("semaphore/stress");
        ref.profile.limit = limit;

        struct Client {
            std::unique_ptr<ConsulSemaphoreStore> store;
            int done = 0;
        };
        std::vector<Client> all(clients);
        QElapsedTimer clock;
        clock.start();
        QList<QPair<qint64, qint64>> intervals; // [grant received, release sent] in ns
        QStringList errors;
        int finished = 0;
        std::function<void(int, const core::Grant &)> releaseThenContinue;
        std::function<void(int)> cycle = [&](int i) {
            Client &c = all[i];
            core::AcquireRequest req;
            req.ttlMs = 30000;
            req.waitMs = 120000;
            c.store->acquire(ref, req, {}, [&, i](core::AcquireResult r) {
                Client &c = all[i];
                if (r.status != core::AcquireResult::Status::Granted) {
                    errors.append(QStringLiteral("client %1 round %2: %3").arg(i).arg(c.done).arg(r.error));
                    ++finished;
                    return;
                }
                const qint64 granted = clock.nsecsElapsed();
                // Hold long enough that the other holders' grants come in meanwhile (an acquire
                // takes several round trips), so that the limit is reached and over-admission
                // could show.
                const int holdMs = kMinHoldMs + int(QRandomGenerator::global()->bounded(kHoldSpreadMs));
                QTimer::singleShot(holdMs, &fake, [&, i, granted, grant = r.grant] {
                    intervals.append({granted, clock.nsecsElapsed()});
                    releaseThenContinue(i, grant);
                });
            });
        };
        releaseThenContinue = [&](int i, const core::Grant &grant) {
            Client &c = all[i];
            {
                c.store->release(grant, [&, i](core::ReleaseResult rr) {
                    Client &c = all[i];
                    if (rr.status != core::ReleaseResult::Status::Ok)
                        errors.append(QStringLiteral("client %1 release: %2").arg(i).arg(rr.error));
                    if (++c.done >= rounds || !errors.isEmpty()) {
                        ++finished;
                        return;
                    }
                    cycle(i);
                });
            }
        };
        for (int i = 0; i < clients; ++i)
            all[i].store = std::make_unique<ConsulSemaphoreStore>(config);
        for (int i = 0; i < clients; ++i)
            cycle(i);
        // A real event loop, not QTRY: QTest::qWait sleeps 10 ms between rounds of events, which
        // left this run idle half of its time.
        semscope::test::waitFor([&] { return finished == clients; }, 1500 * 1000);
        QCOMPARE(finished, clients);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.mid(0, 5).join(QLatin1Char('\n'))));
        QCOMPARE(intervals.size(), qsizetype(clients) * rounds);

        // Sweep: +1 at a grant, -1 at a release; releases sort before grants at the same instant.
        QList<QPair<qint64, int>> events;
        for (const auto &iv : std::as_const(intervals)) {
            events.append({iv.first, +1});
            events.append({iv.second, -1});
        }
        std::sort(events.begin(), events.end());
        int holders = 0;
        int most = 0;
        for (const auto &e : std::as_const(events)) {
            holders += e.second;
            most = std::max(most, holders);
        }
        QVERIFY2(most <= limit,
                 qPrintable(QStringLiteral("%1 holders at once, limit %2").arg(most).arg(limit)));
        QCOMPARE(most, limit); // the clients did contend: the limit was reached
        qInfo("%d clients x %d rounds: %lld HTTP requests, at most %d holders at once", clients, rounds,
              fake.requestCount(), most);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestConsulStress)
#include "tst_consul_stress.moc"
