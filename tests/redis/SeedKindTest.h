#pragma once

// Shared by the tests of the seed and foreign kinds: a real redis-server, one connection, and
// synchronous wrappers around the asynchronous kind calls.
#include "RedisServer.h"
#include "TestWait.h"
#include "redis/RedisConnection.h"
#include "redis/RedisKind.h"

#include <QDateTime>
#include <QFile>
#include <memory>
#include <optional>

namespace semscope::test {

template <typename T>
T awaitKind(const std::function<void(std::function<void(T)>)> &issue, bool *answered = nullptr,
            int timeoutMs = 20000) {
    const std::optional<T> out = awaitCall<T>(issue, timeoutMs);
    if (answered)
        *answered = out.has_value();
    return out.value_or(T{});
}

// Wraps one RedisKind with synchronous calls for readable tests.
class KindDriver {
public:
    KindDriver(redis::RedisKind &kind, redis::RedisConnection &conn)
        : m_kind(kind)
        , m_conn(conn) {}

    core::SemaphoreRef ref(const QString &name, std::optional<qint64> limit = std::nullopt,
                           std::optional<qint64> timeoutMs = std::nullopt) const {
        core::SemaphoreRef r;
        r.kind = m_kind.kind();
        r.name = name;
        r.profile.limit = limit;
        r.profile.timeoutMs = timeoutMs;
        return r;
    }
    core::Snapshot snapshot(const core::SemaphoreRef &r) {
        return awaitKind<core::Snapshot>([&](auto done) { m_kind.snapshot(m_conn, r, done); });
    }
    core::AcquireResult acquire(const core::SemaphoreRef &r, const QString &holder, qint64 ttlMs = 30000) {
        core::AcquireRequest req;
        req.holder = holder;
        req.ttlMs = ttlMs;
        return awaitKind<core::AcquireResult>([&](auto done) { m_kind.tryAcquire(m_conn, r, req, done); });
    }
    core::RefreshResult refresh(const core::Grant &g, qint64 ttlMs = 30000) {
        return awaitKind<core::RefreshResult>([&](auto done) { m_kind.refresh(m_conn, g, ttlMs, done); });
    }
    core::ReleaseResult release(const core::Grant &g) {
        return awaitKind<core::ReleaseResult>([&](auto done) { m_kind.release(m_conn, g, done); });
    }
    core::ForceReleaseResult forceRelease(const core::SemaphoreRef &r, const core::Holder &h,
                                          std::optional<qint64> version = std::nullopt) {
        return awaitKind<core::ForceReleaseResult>(
            [&](auto done) { m_kind.forceRelease(m_conn, r, h, version, done); });
    }
    core::MaintenanceResult purge(const core::SemaphoreRef &r) {
        return awaitKind<core::MaintenanceResult>([&](auto done) { m_kind.purgeExpired(m_conn, r, done); });
    }
    core::MaintenanceResult repair(const core::SemaphoreRef &r) {
        return awaitKind<core::MaintenanceResult>([&](auto done) { m_kind.repair(m_conn, r, done); });
    }

private:
    redis::RedisKind &m_kind;
    redis::RedisConnection &m_conn;
};

inline const core::Holder *holderById(const core::Snapshot &snap, const QString &id) {
    for (const core::Holder &h : snap.holders) {
        if (h.id == id)
            return &h;
    }
    return nullptr;
}

inline bool warningContains(const core::Snapshot &snap, const QString &text) {
    for (const QString &w : snap.warnings) {
        if (w.contains(text))
            return true;
    }
    return false;
}

inline QByteArray readTestFile(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

} // namespace semscope::test
