// core::AsyncChain: the ownership every self-continuing request chain shares (Consul discovery and
// release, the Cluster slot-map reload): held by the request in flight only, and silent once its
// owner is gone.
#include "TestMain.h"
#include "core/AsyncChain.h"

#include <QTest>
#include <functional>
#include <memory>

using semscope::core::AsyncChain;

namespace {

// Stands for a client: remembers the one callback in flight until the test answers or drops it.
struct FakeRequests {
    std::function<void(bool)> pending;
    void ask(std::function<void(bool)> reply) { pending = std::move(reply); }
    void answer(bool ok) {
        auto reply = std::move(pending);
        pending = nullptr;
        reply(ok);
    }
};

} // namespace

class TestAsyncChain : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void runsStepAfterStepUntilDone() {
        QObject owner;
        FakeRequests requests;
        QList<int> tried;
        bool finished = false;
        {
            const auto chain = AsyncChain<int>::start(&owner, [&](const AsyncChain<int>::Ptr &next, int i) {
                tried << i;
                requests.ask([next, i, &finished](bool ok) {
                    if (ok)
                        finished = true;
                    else
                        (*next)(i + 1);
                });
            });
            (*chain)(0);
        }
        requests.answer(false);
        requests.answer(false);
        requests.answer(true);
        QCOMPARE(tried, (QList<int>{0, 1, 2}));
        QVERIFY(finished);
        QCOMPARE(AsyncChain<int>::live(), 0); // done: nothing holds it any more
    }

    void abandonedChainFreesItselfAndWhatItCaptured() {
        QObject owner;
        FakeRequests requests;
        auto captured = std::make_shared<int>(0);
        const std::weak_ptr<int> watched = captured;
        {
            const auto chain = AsyncChain<int>::start(
                &owner, [&requests, captured](const AsyncChain<int>::Ptr &next, int i) {
                    requests.ask([next, i](bool) { (*next)(i + 1); });
                });
            (*chain)(0);
            requests.answer(false); // one round trip, then the second request is never answered
        }
        captured.reset();
        QCOMPARE(AsyncChain<int>::live(), 1); // the request in flight holds it
        QVERIFY(!watched.expired());
        requests.pending = nullptr; // the client drops its request (shutdown)
        QCOMPARE(AsyncChain<int>::live(), 0);
        QVERIFY2(watched.expired(), "an abandoned chain kept what it captured alive");
    }

    void noStepRunsOnceTheOwnerIsGone() {
        auto owner = std::make_unique<QObject>();
        FakeRequests requests;
        int steps = 0;
        {
            const auto chain = AsyncChain<>::start(owner.get(), [&](const AsyncChain<>::Ptr &next) {
                ++steps;
                requests.ask([next](bool) { (*next)(); });
            });
            (*chain)();
        }
        QCOMPARE(steps, 1);
        owner.reset(); // destroyed mid-chain, its reply still to come
        requests.answer(false);
        QCOMPARE(steps, 1);
        QVERIFY(!requests.pending); // nothing new was asked either
        QCOMPARE(AsyncChain<>::live(), 0);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestAsyncChain)
#include "tst_asyncchain.moc"
