#pragma once

#include <QObject>
#include <QPointer>
#include <atomic>
#include <functional>
#include <memory>

namespace semscope::core {

// A chain of asynchronous steps where each reply starts the next step (the next node to ask, the
// next batch of reads, the next retry): Consul discovery, Consul release, the Cluster slot-map
// reload. The one ownership rule they share:
// - nothing holds the chain but the request in flight: a step gets a strong handle to itself
//   (`next`) to capture in the callback it hands out, and the chain keeps no reference to itself. A
//   chain abandoned at shutdown (its reply never comes, the request is dropped) frees itself and
//   everything its step captured. (A std::function that captures its own shared_ptr never does.)
// - a step never runs once its owner (a QObject, usually the `this` the step uses) is destroyed: a
//   late reply reaches a chain that does nothing.
//
//   auto chain = AsyncChain<int>::start(this, [this](const AsyncChain<int>::Ptr &next, int i) {
//       ask(i, [next, i](Reply r) { if (!r.ok) (*next)(i + 1); });
//   });
//   (*chain)(0);
template <typename... Args>
class AsyncChain {
public:
    using Ptr = std::shared_ptr<AsyncChain>;
    using Step = std::function<void(const Ptr &next, Args... args)>;

    static Ptr start(const QObject *owner, Step step) {
        Ptr chain(new AsyncChain(owner, std::move(step)));
        chain->m_self = chain;
        return chain;
    }

    ~AsyncChain() { s_live.fetch_sub(1, std::memory_order_relaxed); }
    AsyncChain(const AsyncChain &) = delete;
    AsyncChain &operator=(const AsyncChain &) = delete;

    // Runs the step (again), unless the owner is gone.
    void operator()(Args... args) {
        if (!m_owner)
            return;
        // Held for the step's duration: the step may drop the last other handle.
        const Ptr self = m_self.lock();
        m_step(self, args...);
    }

    bool ownerAlive() const { return !m_owner.isNull(); }
    // Chains of this signature alive in the process (tests count leaks with it).
    static int live() { return s_live.load(std::memory_order_relaxed); }

private:
    AsyncChain(const QObject *owner, Step step)
        : m_owner(owner)
        , m_step(std::move(step)) {
        s_live.fetch_add(1, std::memory_order_relaxed);
    }

    QPointer<const QObject> m_owner;
    Step m_step;
    std::weak_ptr<AsyncChain> m_self;
    static inline std::atomic<int> s_live{0};
};

} // namespace semscope::core
