#pragma once

#include "ConsulTypes.h"
#include "LockDocument.h"
#include "core/SemaphoreTypes.h"

#include <QHash>
#include <QSet>

namespace semscope::consul {

// What one listing of `<prefix>/` says about a semaphore: the `.lock` entry and its parsed JSON,
// the contender keys, and the sessions that are alive by the official rule (a session is alive iff
// some key under the prefix carries it; pruneDeadHolders in hashicorp/consul api/semaphore.go).
struct PrefixView {
    QString prefix;                  // without trailing '/'
    std::optional<KvEntry> lock;     // `<prefix>/.lock`
    std::optional<LockDocument> doc; // parsed `.lock` (semaphore dialects)
    QString lockError;               // why `doc` is empty although `lock` is present
    bool isMutex = false;            // `consul lock -n 1` key (LockFlagValue)
    QList<KvEntry> contenders;       // `<prefix>/<session-uuid>`
    QSet<QString> alive;
    quint64 index = 0; // X-Consul-Index of the listing

    static PrefixView from(const QString &prefix, const QList<KvEntry> &entries, quint64 index);

    QString lockKey() const { return prefix + QStringLiteral("/.lock"); }
    QString contenderKey(const QString &sid) const { return prefix + QLatin1Char('/') + sid; }
    const KvEntry *contender(const QString &sid) const;
    // Holders whose session is still alive, in stored order.
    QStringList liveHolders() const;
    QStringList staleHolders() const;
    quint64 lockFlags() const { return lock ? lock->flags : kSemaphoreFlagValue; }
};

bool isSessionId(const QString &text);
// Strips a leading '/' (as `consul lock` does) and trailing '/'.
QString normalizePrefix(const QString &name);

// Builds the operator's view of the semaphore. `sessions` adds name/node/TTL/behaviour/checks to
// each holder; it may be empty when the session list could not be read.
core::Snapshot buildSnapshot(const core::SemaphoreRef &ref, const PrefixView &view,
                             const QHash<QString, SessionInfo> &sessions);

} // namespace semscope::consul
