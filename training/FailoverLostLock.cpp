#include "FailoverLostLock.h"
#include "TrainingScenarios.h"

#include "localredis/LocalRedisProcess.h"
#include "redis/RedisConnection.h"
#include "redis/RedisSemaphoreStore.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QHash>
#include <QJsonArray>
#include <QTimer>
#include <memory>

namespace semscope::redis {

namespace {

constexpr int kStepTimeoutMs = 15000;
const QByteArray kMaster = QByteArrayLiteral("training");

// The run's cancellation, seen by every wait below (one run per thread at a time).
thread_local const core::Cancellation *t_cancel = nullptr;

bool cancelled() {
    return t_cancel && t_cancel->isCancelled();
}

// Runs the event loop until `done` holds, the time is up or the run is cancelled.
bool spinUntil(const std::function<bool()> &done, int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    while (!done()) {
        if (deadline.hasExpired() || cancelled())
            return false;
        QEventLoop loop;
        QTimer::singleShot(20, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return true;
}

RedisReply ask(const ConnectionSettings &where, const QList<QByteArray> &args) {
    ConnectionSettings s = where;
    s.autoReconnect = false;
    s.clientName = QStringLiteral("semscope-training-control");
    s.commandTimeoutMs = 5000;
    RedisConnection connection(s);
    connection.open();
    std::optional<RedisReply> reply;
    connection.command(args, [&reply](const RedisReply &r) { reply = r; });
    if (!spinUntil([&] { return reply.has_value(); }, 7000))
        return RedisReply::transportError(QStringLiteral("no reply"));
    return *reply;
}

QByteArray infoField(const RedisReply &info, const QByteArray &key) {
    for (const QByteArray &line : info.str.split('\n')) {
        if (line.startsWith(QByteArray(key + ':')))
            return line.mid(key.size() + 1).trimmed();
    }
    return {};
}

// The private group of one side: master, replica, sentinel.
struct Group {
    LocalRedisProcess master;
    LocalRedisProcess replica;
    LocalRedisProcess sentinel;
    QString error;

    QList<qint64> pids;

    bool start() {
        // A replica's first full sync would wait 5 s for other replicas to join.
        LocalRedisProcess::Options data;
        data.extraArgs = {QStringLiteral("--repl-diskless-sync-delay"), QStringLiteral("0")};
        data.label = QStringLiteral("the training master");
        if (!master.startAndWait(data))
            return fail(master.errorString());
        pids << master.pid();
        data.label = QStringLiteral("the training replica");
        data.extraArgs << QStringLiteral("--replicaof") << QStringLiteral("127.0.0.1")
                       << QString::number(master.port());
        if (!replica.startAndWait(data))
            return fail(replica.errorString());
        pids << replica.pid();
        if (!spinUntil(
                [&] {
                    return infoField(ask(replica.settings(), {"INFO", "replication"}),
                                     "master_link_status") == "up";
                },
                kStepTimeoutMs))
            return fail(QStringLiteral("the replica did not link to the master"));
        LocalRedisProcess::Options s;
        s.program = LocalRedisProcess::Program::Sentinel;
        s.label = QStringLiteral("the training sentinel");
        s.configText = QStringLiteral("sentinel monitor %1 127.0.0.1 %2 1\n"
                                      "sentinel down-after-milliseconds %1 1000\n"
                                      "sentinel failover-timeout %1 3000")
                           .arg(QString::fromUtf8(kMaster))
                           .arg(master.port());
        if (!sentinel.startAndWait(s))
            return fail(sentinel.errorString());
        pids << sentinel.pid();
        // The sentinel can promote the replica only once it has read the replica's own INFO.
        const bool known = spinUntil(
            [&] {
                const RedisReply r = ask(sentinel.settings(), {"SENTINEL", "REPLICAS", kMaster});
                if (!r.isArray() || r.elements.size() != 1)
                    return false;
                QHash<QByteArray, QByteArray> f;
                const RedisReply &one = r.elements.constFirst();
                for (qsizetype i = 0; i + 1 < one.elements.size(); i += 2)
                    f.insert(one.elements.at(i).str, one.elements.at(i + 1).str);
                return f.value("flags") == "slave" && f.value("master-link-status") == "ok" &&
                       f.value("info-refresh").toLongLong() < 5000;
            },
            kStepTimeoutMs);
        return known || fail(QStringLiteral("the sentinel did not discover the replica"));
    }
    bool fail(const QString &message) {
        error = cancelled() ? QStringLiteral("cancelled") : message;
        return false;
    }
    ConnectionSettings viaSentinel(const QString &client) const {
        ConnectionSettings s = *ConnectionSettings::fromUrl(QStringLiteral("redis+sentinel://127.0.0.1:%1/%2")
                                                                .arg(sentinel.port())
                                                                .arg(QString::fromUtf8(kMaster)));
        s.clientName = client;
        s.sentinelPassword.clear(); // the private sentinel has none, whatever the environment says
        s.password.clear();
        return s;
    }
    ~Group() {
        sentinel.stop();
        replica.stop();
        master.stop();
    }
};

core::AcquireResult acquire(RedisSemaphoreStore &store, const core::SemaphoreRef &ref, const QString &holder,
                            int replicas) {
    core::AcquireRequest req;
    req.holder = holder;
    req.ttlMs = 60000;
    req.replicas = replicas;
    req.replicaTimeoutMs = FailoverLostLock::kReplicaTimeoutMs;
    std::optional<core::AcquireResult> result;
    store.acquire(ref, req, {}, [&result](core::AcquireResult r) { result = std::move(r); });
    if (!spinUntil([&] { return result.has_value(); }, kStepTimeoutMs)) {
        core::AcquireResult late;
        late.error = QStringLiteral("no answer within %1 s").arg(kStepTimeoutMs / 1000);
        return late;
    }
    return *result;
}

QString refusalText(const core::AcquireResult &r) {
    return r.status == core::AcquireResult::Status::Busy ? QStringLiteral("the slot is taken") : r.error;
}

void runSide(FailoverLostLock::Side &side, const QString &semaphore,
             const std::function<void(const QString &)> &progress) {
    auto step = [&](const QString &line) {
        side.steps << line;
        if (progress)
            progress(side.label + QStringLiteral(": ") + line);
    };
    Group group;
    const bool started = group.start();
    side.pids = group.pids;
    if (!started) {
        side.error = group.error;
        return;
    }
    // Each step below ends with a wait that returns early on cancel: check after it.
    auto stopIfCancelled = [&side] {
        if (!cancelled())
            return false;
        side.error = QStringLiteral("cancelled");
        return true;
    };
    step(QStringLiteral("master 127.0.0.1:%1, replica 127.0.0.1:%2, sentinel 127.0.0.1:%3 are up")
             .arg(group.master.port())
             .arg(group.replica.port())
             .arg(group.sentinel.port()));
    core::SemaphoreRef ref;
    ref.kind = core::Kind::Leased;
    ref.name = semaphore;
    ref.profile.limit = 1;

    RedisSemaphoreStore a(group.viaSentinel(QStringLiteral("semscope-training-client-a")));
    // Connected (through the sentinel) before the replica is paused, so that the acquire below is
    // one round trip and nothing else.
    if (!spinUntil([&] { return a.connection().state() == RedisConnection::State::Connected; },
                   kStepTimeoutMs)) {
        if (!stopIfCancelled())
            side.error = QStringLiteral("client A did not reach the training master through the sentinel");
        return;
    }
    // The semaphore has been in use before, as one in production has: client W takes and gives back
    // a slot, and the replica copies the counter. (Without it both masters would create the
    // semaphore, each counter starting from its server's clock, and B's token would be above A's:
    // only the over-admission would show.)
    const core::AcquireResult rw = acquire(a, ref, QStringLiteral("client-W"), 0);
    if (stopIfCancelled())
        return;
    if (rw.status != core::AcquireResult::Status::Granted) {
        side.error = QStringLiteral("client W's acquire failed: ") + refusalText(rw);
        return;
    }
    // Shared: the answer may come after a cancelled wait has returned.
    const auto released = std::make_shared<std::optional<core::ReleaseResult>>();
    a.release(rw.grant, [released](const core::ReleaseResult &r) { *released = r; });
    const QList<QByteArray> fence{"HGET", '{' + semaphore.toUtf8() + "}:meta", "fence"};
    const bool copied = spinUntil(
        [&] {
            return released->has_value() &&
                   ask(group.replica.settings(), fence).str == QByteArray::number(*rw.grant.token);
        },
        kStepTimeoutMs);
    if (!copied || (*released)->status != core::ReleaseResult::Status::Ok) {
        if (!stopIfCancelled())
            side.error = released->has_value() && (*released)->status != core::ReleaseResult::Status::Ok
                             ? QStringLiteral("client W's release failed: ") + (*released)->error
                             : QStringLiteral("the replica did not copy the semaphore within %1 s")
                                   .arg(kStepTimeoutMs / 1000);
        return;
    }
    step(QStringLiteral("client W acquired and released %1 (fencing token %2); the replica has the counter")
             .arg(semaphore)
             .arg(*rw.grant.token));

    group.replica.suspend();
    ask(group.master.settings(), {"CLIENT", "KILL", "TYPE", "replica"});
    step(QStringLiteral("replica paused (SIGSTOP) and cut off: replication is behind from here"));

    QElapsedTimer timer;
    timer.start();
    const core::AcquireResult ra = acquire(a, ref, QStringLiteral("client-A"), side.replicas);
    side.aLatencyMs = timer.elapsed();
    if (stopIfCancelled())
        return;
    switch (FailoverLostLock::outcomeOf(ra)) {
    case FailoverLostLock::Outcome::Granted:
        side.aGranted = true;
        side.aToken = ra.grant.token;
        step(QStringLiteral("client A acquired %1 (fencing token %2) in %3 ms")
                 .arg(semaphore)
                 .arg(ra.grant.token.value_or(0))
                 .arg(side.aLatencyMs));
        break;
    case FailoverLostLock::Outcome::Refused:
        side.aRefusal = refusalText(ra);
        ++side.refusedGrants;
        step(QStringLiteral("client A was refused after %1 ms: %2").arg(side.aLatencyMs).arg(side.aRefusal));
        break;
    case FailoverLostLock::Outcome::Failed:
        side.error = QStringLiteral("client A's acquire failed: ") + ra.error;
        return;
    }

    group.master.kill();
    group.replica.resume();
    step(QStringLiteral("master killed (SIGKILL); replica resumed"));
    // The sentinel may start a failover of its own once it sees the master down; either way the
    // replica is promoted.
    bool requested = false;
    const bool promoted = spinUntil(
        [&] {
            if (!requested) {
                // NOGOODSLAVE until the sentinel has seen the resumed replica again: ask again.
                const RedisReply r = ask(group.sentinel.settings(), {"SENTINEL", "FAILOVER", kMaster});
                requested = r.str == "OK" || r.str.startsWith("INPROG");
            }
            const RedisReply role = ask(group.replica.settings(), {"ROLE"});
            const RedisReply named =
                ask(group.sentinel.settings(), {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", kMaster});
            return role.isArray() && !role.elements.isEmpty() && role.elements.constFirst().str == "master" &&
                   named.isArray() && named.elements.size() == 2 &&
                   named.elements.at(1).str.toUInt() == group.replica.port();
        },
        kStepTimeoutMs);
    if (!promoted) {
        if (stopIfCancelled())
            return;
        side.error =
            QStringLiteral("the sentinel did not promote the replica within %1 s").arg(kStepTimeoutMs / 1000);
        return;
    }
    step(
        QStringLiteral("the sentinel promoted the replica 127.0.0.1:%1 to master").arg(group.replica.port()));

    RedisSemaphoreStore b(group.viaSentinel(QStringLiteral("semscope-training-client-b")));
    const core::AcquireResult rb = acquire(b, ref, QStringLiteral("client-B"), side.replicas);
    if (stopIfCancelled())
        return;
    switch (FailoverLostLock::outcomeOf(rb)) {
    case FailoverLostLock::Outcome::Granted:
        side.bGranted = true;
        side.bToken = rb.grant.token;
        step(QStringLiteral("client B acquired %1 on the new master (fencing token %2)")
                 .arg(semaphore)
                 .arg(rb.grant.token.value_or(0)));
        break;
    case FailoverLostLock::Outcome::Refused:
        side.bRefusal = refusalText(rb);
        ++side.refusedGrants;
        step(QStringLiteral("client B was refused: %1").arg(side.bRefusal));
        break;
    case FailoverLostLock::Outcome::Failed:
        side.error = QStringLiteral("client B's acquire failed: ") + rb.error;
        return;
    }
    // A still believes it holds (its lease runs 60 s): both at once is more than the limit of 1.
    const int holders = int(side.aGranted) + int(side.bGranted);
    side.overAdmissions = std::max(0, holders - 1);
    if (side.aToken && side.bToken && *side.bToken <= *side.aToken)
        side.tokenViolations = 1;
}

} // namespace

FailoverLostLock::Outcome FailoverLostLock::outcomeOf(const core::AcquireResult &r) {
    switch (r.status) {
    case core::AcquireResult::Status::Granted:
        return Outcome::Granted;
    case core::AcquireResult::Status::Busy:
        return Outcome::Refused;
    case core::AcquireResult::Status::Error:
        break;
    }
    return core::isReplicationRefusal(r.error) ? Outcome::Refused : Outcome::Failed;
}

QString FailoverLostLock::title() {
    return QStringLiteral(
        "A failover loses a lock: asynchronous replication vs. replica-acknowledged grants");
}

QString FailoverLostLock::explanation() {
    return QStringLiteral(
        "Redis replicates asynchronously: the master answers \"granted\" before any replica has the "
        "grant. If the master dies in that moment and a replica is promoted, the grant is gone: the "
        "next client is admitted to the same slot, and the fencing counter, kept in Redis too, starts "
        "again from where the replica was, so the new holder's token is not above the old one's. "
        "Here the replica is paused while client A acquires, the master is killed, and the sentinel "
        "promotes the replica; client B then acquires. With --replicas 1 every grant waits (WAIT) "
        "until a replica has it and is released when none acknowledges it in time: A is refused "
        "instead of trusting a grant that a failover can lose, and B too while no replica is left. "
        "That is the price: refused grants and a replica round trip in every acquire. WAIT is not "
        "consensus: a replica that acknowledged can still lose the write if another one is promoted. "
        "What still catches a stale holder is the protected resource itself checking fencing tokens: "
        "it refuses a token that is not above the highest it has seen - but only if the counter "
        "never goes back, which is exactly what this failover broke on the naive side.");
}

FailoverLostLock::Report FailoverLostLock::run(const QString &name,
                                               const std::function<void(const QString &)> &progress,
                                               const core::Cancellation &cancel) {
    const core::Cancellation *outer = t_cancel;
    t_cancel = &cancel;
    Report report;
    report.naive.label = QStringLiteral("naive");
    report.naive.replicas = 0;
    report.safe.label = QStringLiteral("replica-acknowledged");
    report.safe.replicas = 1;
    runSide(report.naive, name + QStringLiteral("-naive"), progress);
    if (!cancel.isCancelled())
        runSide(report.safe, name + QStringLiteral("-safe"), progress);
    if (cancel.isCancelled()) {
        report.cancelled = true;
        for (Side *side : {&report.naive, &report.safe}) {
            if (side->error.isEmpty())
                side->error = QStringLiteral("cancelled");
        }
    }
    t_cancel = outer;
    return report;
}

QJsonObject FailoverLostLock::Side::toJson() const {
    // "run", as a load test's report names its run: both sides read alike in every scenario's JSON.
    QJsonObject o{{QStringLiteral("run"), label},
                  {QStringLiteral("replicas"), replicas},
                  {QStringLiteral("a_granted"), aGranted},
                  {QStringLiteral("b_granted"), bGranted},
                  {QStringLiteral("a_acquire_ms"), aLatencyMs},
                  {QStringLiteral("over_admissions"), overAdmissions},
                  {QStringLiteral("token_violations"), tokenViolations},
                  {QStringLiteral("refused_grants"), refusedGrants},
                  {QStringLiteral("steps"), QJsonArray::fromStringList(steps)},
                  {QStringLiteral("completed"), ok()}};
    if (aToken)
        o.insert(QStringLiteral("a_token"), *aToken);
    if (bToken)
        o.insert(QStringLiteral("b_token"), *bToken);
    if (!aRefusal.isEmpty())
        o.insert(QStringLiteral("a_refusal"), aRefusal);
    if (!bRefusal.isEmpty())
        o.insert(QStringLiteral("b_refusal"), bRefusal);
    if (!error.isEmpty())
        o.insert(QStringLiteral("error"), error);
    return o;
}

QString FailoverLostLock::Side::summaryText() const {
    QString text;
    for (const QString &s : steps)
        text += QStringLiteral("  - ") + s + QLatin1Char('\n');
    if (!error.isEmpty()) {
        text += QStringLiteral("  the run failed: ") + error + QLatin1Char('\n');
        return text;
    }
    text += QStringLiteral("  %1 over-admission%2, %3 token violation%4, %5 refused grant%6\n")
                .arg(overAdmissions)
                .arg(overAdmissions == 1 ? QString() : QStringLiteral("s"))
                .arg(tokenViolations)
                .arg(tokenViolations == 1 ? QString() : QStringLiteral("s"))
                .arg(refusedGrants)
                .arg(refusedGrants == 1 ? QString() : QStringLiteral("s"));
    return text;
}

QJsonObject FailoverLostLock::Report::toJson() const {
    return QJsonObject{{QStringLiteral("scenario"), scenarioName()},
                       {QStringLiteral("title"), title()},
                       {QStringLiteral("explanation"), explanation()},
                       // The names every scenario's sides go by (TrainingScenarios.h).
                       {scenarioUnsafeSide(), naive.toJson()},
                       {scenarioAtomicSide(), safe.toJson()},
                       {QStringLiteral("shows_the_lesson"), showsTheLesson()}};
}

} // namespace semscope::redis
