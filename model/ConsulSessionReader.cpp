#include "ConsulSessionReader.h"

#include "consul/ConsulSemaphoreStore.h"
#include "core/Kind.h"

#include <QHash>
#include <QPointer>
#include <memory>

namespace semscope::model {

using namespace semscope::core;
using consul::ConsulSemaphoreStore;

namespace {
struct ReadState {
    SessionScan scan;
    QHash<QString, QList<SessionHolding>> holdings; // session ID -> where it takes part
    int pending = 0;
    Callback<SessionScan> done;

    void finish() {
        for (SessionEntry &e : scan.sessions)
            e.holdings = holdings.value(e.info.id);
        scan.ok = true;
        done(scan);
    }
};
} // namespace

void ConsulSessionReader::read(ConnectionController *controller, const QList<SemaphoreRef> &semaphores,
                               QObject *context, Callback<SessionScan> done) {
    const QString endpoint = controller->config().endpoint();
    ConsulSemaphoreStore::SessionsOutcome noStore;
    noStore.error = QStringLiteral("not connected");
    QPointer<ConnectionController> ctl(controller);
    QPointer<QObject> guard(context);
    controller->call<ConsulSemaphoreStore::SessionsOutcome>(
        [](SemaphoreStore &store, Callback<ConsulSemaphoreStore::SessionsOutcome> cb) {
            if (auto *consulStore = qobject_cast<ConsulSemaphoreStore *>(&store)) {
                consulStore->listSessions(cb);
                return;
            }
            ConsulSemaphoreStore::SessionsOutcome r;
            r.error = QStringLiteral("only Consul connections have sessions");
            cb(r);
        },
        noStore, context,
        [ctl, guard, endpoint, semaphores, done](ConsulSemaphoreStore::SessionsOutcome outcome) {
            if (!outcome.ok) {
                SessionScan failed;
                failed.error =
                    atEndpoint(endpoint, QStringLiteral("listing sessions failed: %1").arg(outcome.error));
                return done(failed);
            }
            auto state = std::make_shared<ReadState>();
            state->done = done;
            for (const consul::SessionInfo &info : outcome.sessions)
                state->scan.sessions.append(SessionEntry{info, {}});
            QList<SemaphoreRef> toRead;
            for (const SemaphoreRef &ref : semaphores)
                if (backendOf(ref.kind) == Backend::Consul)
                    toRead << ref;
            if (toRead.size() > kMaxSemaphores) {
                state->scan.semaphoresSkipped = int(toRead.size()) - kMaxSemaphores;
                toRead = toRead.mid(0, kMaxSemaphores);
            }
            if (toRead.isEmpty() || !ctl || !guard)
                return state->finish();
            state->pending = int(toRead.size());
            for (const SemaphoreRef &ref : toRead) {
                ctl->snapshot(ref, guard, [state, ref](Snapshot s) {
                    const QString error = s.details.value(QStringLiteral("error")).toString();
                    if (!error.isEmpty()) {
                        state->scan.snapshotErrors << QStringLiteral("%1: %2").arg(ref.name, error);
                    } else {
                        ++state->scan.semaphoresRead;
                        for (const Holder &h : s.holders) {
                            const QString sid = h.details.value(QStringLiteral("session")).toString();
                            if (sid.isEmpty())
                                continue;
                            state->holdings[sid].append(SessionHolding{
                                ref, h.state, h.details.value(QStringLiteral("contenderKey")).toString()});
                        }
                    }
                    if (--state->pending == 0)
                        state->finish();
                });
            }
        });
}

} // namespace semscope::model
