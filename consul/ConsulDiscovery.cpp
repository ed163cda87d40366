#include "ConsulDiscovery.h"

#include "LockDocument.h"
#include "core/AsyncChain.h"
#include "core/GlobPattern.h"

namespace semscope::consul {

namespace {

constexpr int kDiscoverParallel = 4; // `.lock` reads in flight at once

} // namespace

void discoverSemaphores(ConsulClient &consul, const core::DiscoverRequest &request, core::Cancellation cancel,
                        core::Callback<core::DiscoverProgress> progress,
                        core::Callback<core::DiscoverResult> done) {
    ConsulClient *client = &consul;
    if (request.kind && core::backendOf(*request.kind) != core::Backend::Consul) {
        core::DiscoverResult r;
        r.ok = true;
        done(r);
        return;
    }
    // `match` is a KV prefix or a glob ("semaphore/*", "*jobs*"): list under its literal head, then
    // keep the `.lock` keys whose semaphore prefix matches the whole glob.
    QString pattern = request.match.trimmed();
    while (pattern.startsWith(QLatin1Char('/')))
        pattern.remove(0, 1);
    if (pattern.isEmpty())
        pattern = QStringLiteral("*");
    // Without a wildcard the pattern is a KV prefix, as Consul's own `?keys` takes it.
    const QString prefix = core::GlobPattern::literalPrefix(pattern);
    const core::GlobPattern matcher(core::GlobPattern::hasWildcard(pattern)
                                        ? pattern
                                        : core::GlobPattern::escape(prefix) + QLatin1Char('*'));
    client->kvKeys(
        prefix, {}, {}, [client, request, matcher, cancel, progress, done](ConsulClient::KeysResult keys) {
            core::DiscoverResult result;
            if (!keys.http.ok()) {
                result.error = QStringLiteral("listing keys failed: %1").arg(keys.http.error);
                done(result);
                return;
            }
            result.scannedKeys = keys.keys.size();
            QStringList locks;
            for (const auto &k : keys.keys) {
                if (k.endsWith(QLatin1String("/.lock")) && matcher.matches(QStringView(k).left(k.size() - 6)))
                    locks.append(k);
            }
            // Classify each `.lock` by its flags and JSON, a few requests at a time.
            struct State {
                QStringList todo;
                int running = 0;
                core::DiscoverResult result;
                bool finished = false;
            };
            auto st = std::make_shared<State>();
            st->todo = locks;
            st->result = result;
            // Only the reads in flight hold the pump (core::AsyncChain), so a discovery abandoned at
            // shutdown (its replies never come) frees everything.
            const auto pump = core::AsyncChain<>::start(client, [client, st, request, cancel, progress,
                                                                 done](const core::AsyncChain<>::Ptr &pump) {
                if (st->finished)
                    return;
                if (cancel.isCancelled()) {
                    st->finished = true;
                    st->result.cancelled = true;
                    st->result.ok = false;
                    done(st->result);
                    return;
                }
                if (st->todo.isEmpty() && st->running == 0) {
                    st->finished = true;
                    st->result.ok = true;
                    done(st->result);
                    return;
                }
                while (st->running < kDiscoverParallel && !st->todo.isEmpty()) {
                    const QString key = st->todo.takeFirst();
                    ++st->running;
                    client->kvGet(key, {}, [st, pump, key, request, progress](ConsulClient::KvResult r) {
                        --st->running;
                        if (st->finished)
                            return;
                        core::DiscoveredSemaphore d;
                        d.ref.name = key.left(key.size() - 6);
                        d.ref.kind = core::Kind::Consul;
                        d.keys.append(key);
                        if (!r.http.ok()) {
                            d.warnings.append(QStringLiteral("could not read %1: %2").arg(key, r.http.error));
                        } else if (r.found && !r.entries.isEmpty()) {
                            const KvEntry &e = r.entries.first();
                            if (e.flags == kLockFlagValue) {
                                d.ref.kind = core::Kind::ConsulMutex;
                                d.ref.profile.limit = 1;
                            } else {
                                QString error;
                                if (auto doc = LockDocument::parse(e.value, &error))
                                    d.ref.profile.limit = doc->limit();
                                else
                                    d.warnings.append(error);
                            }
                        }
                        if (!request.kind || *request.kind == d.ref.kind) {
                            st->result.semaphores.append(d);
                            core::DiscoverProgress p;
                            p.scannedKeys = st->result.scannedKeys;
                            p.totalKeys = st->result.scannedKeys;
                            p.found.append(d);
                            if (progress)
                                progress(p);
                        }
                        (*pump)();
                    });
                }
            });
            (*pump)();
        });
}

} // namespace semscope::consul
