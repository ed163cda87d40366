#pragma once

#include "TestWait.h"
#include "core/SemaphoreStore.h"

#include <QMap>
#include <functional>
#include <memory>
#include <optional>

namespace semscope::test {

// What a write answered, reduced to what a read-only test asserts about any of them.
struct WriteAnswer {
    bool ok = false;
    QString text; // the error or message
};

using WriteCall = std::function<void(core::SemaphoreStore &store, const core::SemaphoreRef &ref,
                                     std::function<void(WriteAnswer)> done)>;

// Every write core::SemaphoreStore offers, by name: the rows of the read-only tables, so that a
// write added to the interface is added here once and refused in every backend's table.
inline QMap<QString, WriteCall> everyStoreWrite() {
    const auto grantOf = [](const core::SemaphoreRef &ref) {
        core::Grant g;
        g.ref = ref;
        g.holder = QStringLiteral("h");
        g.rawHolder = "h";
        g.token = 1;
        return g;
    };
    const auto holder = [] {
        core::Holder h;
        h.id = QStringLiteral("h");
        h.rawId = "h";
        h.token = 1;
        return h;
    };
    const auto acquire = [](qint64 waitMs) {
        return [waitMs](core::SemaphoreStore &s, const core::SemaphoreRef &ref, auto done) {
            core::AcquireRequest req;
            req.holder = QStringLiteral("h");
            req.ttlMs = 10000;
            req.waitMs = waitMs;
            s.acquire(ref, req, {}, [done](const core::AcquireResult &r) {
                done({r.status == core::AcquireResult::Status::Granted, r.error});
            });
        };
    };
    const auto maintenance = [](std::function<void(WriteAnswer)> done) {
        return [done](const core::MaintenanceResult &r) { done({r.ok, r.message}); };
    };
    return {
        {QStringLiteral("acquire"), acquire(0)},
        {QStringLiteral("acquire waiting"), acquire(1000)},
        {QStringLiteral("refresh"),
         [grantOf](core::SemaphoreStore &s, const core::SemaphoreRef &ref, auto done) {
             s.refresh(grantOf(ref), 10000, [done](const core::RefreshResult &r) {
                 done({r.status == core::RefreshResult::Status::Ok, r.error});
             });
         }},
        {QStringLiteral("release"),
         [grantOf](core::SemaphoreStore &s, const core::SemaphoreRef &ref, auto done) {
             s.release(grantOf(ref), [done](const core::ReleaseResult &r) {
                 done({r.status == core::ReleaseResult::Status::Ok, r.error});
             });
         }},
        {QStringLiteral("force-release"),
         [holder](core::SemaphoreStore &s, const core::SemaphoreRef &ref, auto done) {
             s.forceRelease(ref, holder(), qint64(1), [done](const core::ForceReleaseResult &r) {
                 done({r.status != core::ForceReleaseResult::Status::Error, r.message});
             });
         }},
        {QStringLiteral("purge-expired"),
         [maintenance](core::SemaphoreStore &s, const core::SemaphoreRef &ref, auto done) {
             s.purgeExpired(ref, maintenance(done));
         }},
        {QStringLiteral("repair"), [maintenance](core::SemaphoreStore &s, const core::SemaphoreRef &ref,
                                                 auto done) { s.repair(ref, maintenance(done)); }},
        {QStringLiteral("set-limit"), [maintenance](core::SemaphoreStore &s, const core::SemaphoreRef &ref,
                                                    auto done) { s.setLimit(ref, 9, maintenance(done)); }},
    };
}

// How one write went: its answer, and whether that answer came before the call returned (the
// interface promises it later, on the store's thread).
struct WriteOutcome {
    std::optional<WriteAnswer> answer;
    bool answeredBeforeReturn = false;
};

inline WriteOutcome runWrite(const WriteCall &call, core::SemaphoreStore &store,
                             const core::SemaphoreRef &ref, int timeoutMs = 10000) {
    // Shared: an answer arriving after the test gave up must not touch its stack.
    auto outcome = std::make_shared<WriteOutcome>();
    auto returned = std::make_shared<bool>(false);
    call(store, ref, [outcome, returned](WriteAnswer a) {
        outcome->answeredBeforeReturn = !*returned;
        outcome->answer = std::move(a);
    });
    *returned = true;
    waitFor([outcome] { return outcome->answer.has_value(); }, timeoutMs);
    return *outcome;
}

} // namespace semscope::test
