#include "TrainingScenarios.h"

#include "FairWithoutLockStore.h"
#include "IncrLockStore.h"
#include "SetDelLockStore.h"
#include "SlotsCrashLeakStore.h"
#include "ZsetSkewedClocksStore.h"

namespace semscope::redis {

namespace {

constexpr qint64 msNs = 1'000'000;

// The shape under which every unsafe design shows its flaw within seconds: 50 clients over 4
// connections, each holding 1-5 ms and asking again at once. (Ten clients that release the moment
// they are granted, the plain load test's defaults, hardly ever hold at the same time: the naive
// designs then look as safe as their atomic twins.)
core::LoadTestConfig contended(core::Kind kind, int limit) {
    core::LoadTestConfig c;
    c.ref.kind = kind;
    c.limit = limit;
    c.clients = 50;
    c.connections = 4;
    c.hold = core::Distribution::uniform(1 * msNs, 5 * msNs);
    c.think = core::Distribution::fixed(0);
    c.ttlMs = 10'000;
    c.ref.profile.timeoutMs = c.ttlMs;
    c.durationMs = 3'000;
    return c;
}

} // namespace

QList<TrainingScenario> trainingScenarios() {
    using core::Kind;
    QList<TrainingScenario> list;

    TrainingScenario fair;
    fair.name = QStringLiteral("fair-without-lock");
    fair.title = QStringLiteral("Fair semaphore in several round trips, without its lock");
    fair.design = QStringLiteral("the Redis-in-Action fair semaphore without its outer lock");
    fair.explanation = QStringLiteral(
        "The Redis-in-Action fair semaphore (section 6.3.2) purges, takes a number with INCR, adds "
        "itself with two ZADDs and checks its ZRANK, each a separate round trip. Client A takes 31, B "
        "takes 32; B adds and ranks first and gets the last slot; then A adds with the smaller number, "
        "ranks ahead of B and gets in too. The book patches this with an outer lock; without it the "
        "limit is exceeded. Here a pause (the race window) sits between INCR and the ZADDs, where a real "
        "client can be descheduled. semscope's `fair` kind does the whole acquire in one Lua script.");
    fair.counterpart = Kind::Fair;
    fair.raceWindowMs = 5;
    fair.defaults = contended(Kind::Fair, 5);
    list << fair;

    TrainingScenario zset;
    zset.name = QStringLiteral("zset-skewed-clocks");
    zset.title = QStringLiteral("Expiring ZSET: add, then rank, with the clients' own clocks");
    zset.design = QStringLiteral("the add-then-rank expiring ZSET semaphore on client clocks");
    zset.explanation = QStringLiteral(
        "The non-fair expiring ZSET semaphore ZADDs itself with expiry = its clock + timeout, purges entries "
        "older than its clock, and keeps the slot if its ZRANK is inside the limit. Rank is by expiry: "
        "a client whose clock runs behind scores below every live holder and ranks inside the limit on "
        "top of them; a client whose clock runs ahead purges live holders as expired. Each client here "
        "has its clock off by up to --skew (default 2 s). semscope's `zset` kind takes the time from "
        "Redis and counts the live holders before adding, in one script.");
    zset.counterpart = Kind::Zset;
    zset.raceWindowMs = 1;
    zset.defaults = contended(Kind::Zset, 5);
    zset.defaults.skewMs = 2000;
    list << zset;

    TrainingScenario incr;
    incr.name = QStringLiteral("incr-lock");
    incr.title = QStringLiteral("INCR-counter lock released with DEL");
    incr.design = QStringLiteral("the INCR-counter lock released with DEL");
    incr.explanation = QStringLiteral(
        "The INCR-counter lock: getLock is INCR and succeeds while the count is within the range, "
        "releaseLock is DEL, initLock resets the counter to 0. With the usual try/finally every "
        "contender runs releaseLock, including those that did not get the lock: their DEL wipes the "
        "counter while the holder still works, and the next INCR returns 1 to a second holder. No pause "
        "is needed; a small one before the losers' DEL is kept for symmetry. semscope's `lock` kind "
        "uses SET NX PX and deletes only its own token, in one script.");
    incr.counterpart = Kind::Lock;
    incr.raceWindowMs = 1;
    incr.defaults = contended(Kind::Lock, 1);
    list << incr;

    TrainingScenario setdel;
    setdel.name = QStringLiteral("set-del-lock");
    setdel.title = QStringLiteral("Lock by look-then-SET without NX, released with DEL");
    setdel.design = QStringLiteral("the look-then-SET lock without NX, released with DEL");
    setdel.explanation = QStringLiteral(
        "The look-then-SET lock writes the lock with a plain set (HSET, then EXPIRE) and releases it with "
        "DEL. Used as a lock, a client looks whether the key is there and sets it if not. Two clients "
        "that both look before either sets both believe they hold it, and a DEL removes whoever's lock "
        "is there. The race window is a pause between the look and the set. semscope's `lock` kind "
        "sets with NX in the same command that checks, and releases by compare-and-delete.");
    setdel.counterpart = Kind::Lock;
    setdel.raceWindowMs = 5;
    setdel.defaults = contended(Kind::Lock, 1);
    list << setdel;

    TrainingScenario leak;
    leak.name = QStringLiteral("slots-crash-leak");
    leak.title = QStringLiteral("Slot semaphore without TTL: crashed holders leak their slot");
    leak.design = QStringLiteral("the hash+list slot semaphore without TTL");
    leak.explanation = QStringLiteral(
        "The hash+list slot semaphore takes and returns slot numbers in atomic Lua scripts, so it never "
        "over-admits, but it has no TTL. A holder that crashes never gives its slot back; after enough "
        "crashes nobody gets in any more. Here one client in ten crashes while holding (--crash-rate "
        "changes that); the report lists the slots leaked. "
        "semscope's `slots` kind writes the same layout and keeps a lease (R|lease) beside it for "
        "semaphores it created, so a crashed holder's slot comes back when its lease runs out.");
    leak.counterpart = Kind::Slots;
    leak.showsLeak = true;
    leak.defaults = contended(Kind::Slots, 5);
    // One client in ten crashes while holding, each within the first half second; thinking clients
    // leave a freed slot to others for a moment, so that every crasher gets its turn early. A short
    // lease lets the atomic side's crashed slots visibly come back well within the run.
    leak.defaults.crashRate = 0.1;
    leak.defaults.crashWindowMs = 500;
    leak.defaults.think = core::Distribution::uniform(1 * msNs, 20 * msNs);
    leak.defaults.ttlMs = 2'000;
    leak.defaults.ref.profile.timeoutMs = leak.defaults.ttlMs;
    leak.defaults.durationMs = 5'000;
    list << leak;
    return list;
}

const TrainingScenario *findTrainingScenario(const QString &name) {
    static const QList<TrainingScenario> all = trainingScenarios();
    for (const TrainingScenario &s : all)
        if (s.name == name)
            return &s;
    return nullptr;
}

QStringList trainingScenarioNames() {
    QStringList names;
    for (const TrainingScenario &s : trainingScenarios())
        names << s.name;
    return names;
}

std::unique_ptr<core::SemaphoreStore>
makeTrainingStore(const QString &name, const ConnectionSettings &settings, int raceWindowMs) {
    const TrainingScenario *scenario = findTrainingScenario(name);
    if (!scenario)
        return nullptr;
    const int window = raceWindowMs >= 0 ? raceWindowMs : scenario->raceWindowMs;
    if (name == QLatin1String("fair-without-lock"))
        return std::make_unique<FairWithoutLockStore>(settings, window);
    if (name == QLatin1String("zset-skewed-clocks"))
        return std::make_unique<ZsetSkewedClocksStore>(settings, window);
    if (name == QLatin1String("incr-lock"))
        return std::make_unique<IncrLockStore>(settings, window);
    if (name == QLatin1String("set-del-lock"))
        return std::make_unique<SetDelLockStore>(settings, window);
    if (name == QLatin1String("slots-crash-leak"))
        return std::make_unique<SlotsCrashLeakStore>(settings, window);
    return nullptr;
}

} // namespace semscope::redis
