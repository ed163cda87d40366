// Property test of issue 14's promise, for every writable kind against a real redis-server: a seeded
// random sequence of semscope's operations (through RedisSemaphoreStore, the store the CLI uses),
// a foreign client's own steps (its exact commands, as in tst_slotskind/tst_fairkind/tst_zsetkind/
// tst_lockkind) and damage to the raw keys. After every step the raw keys are read directly (not
// through the snapshot) and checked:
//  - holders that occupy a slot <= limit, and no slot number held twice (`slots`);
//  - fencing tokens that semscope hands out rise strictly and never repeat one on record (`leased`,
//    the `fair` counter);
//  - a force-release of a holder taken from a fresh snapshot removes exactly that acquisition, or
//    reports Changed/Gone (or refuses) and removes nothing;
//  - a release reported Ok removed the holder's record (and only that);
//  - a grant is on record, and every row sees at least a minimum of semscope's grants: a store that
//    refused everything would pass every other check.
// semscope may refuse writes on damaged data: refusals are fine, violations are not. That the checks
// can fail at all is shown by running them against stores broken on purpose (one that refuses
// everything, one whose release does nothing): each must be caught.
//
// Whose violation it is. Every step runs alone (one step, then the checks), so a foreign client's
// racy multi-command sequence runs atomically here, as its correct usage has it; the one exception
// is the book's fair semaphore, which takes its outer lock `lock:S` and then runs its two round
// trips as two steps with semscope's steps allowed in between (issue 14 item 7: semscope must honour
// that lock). The invariants are checked after every step, the foreign ones included, with one
// allowance: a foreign client working on data that is already damaged may break them by itself (the
// seed's slot script refills `HLEN+LLEN+1..N` over a leaked slot; the book's INCR restarts a deleted
// counter and ranks ahead of the holders). Such a foreign break is logged, not failed; from then on
// every semscope step must not make it worse.
//
// `leased` is semscope's own layout: no foreign client writes it, so its other party is a second
// semscope store on its own connection (another CLI or GUI), held to every invariant.
//
// Nothing expires during a row (every lease is 60 s, a row takes a few seconds), so any holder that
// disappears was removed by a step, and a purge must remove nobody.
//
// A failing row prints its seed and the steps that led there; rerun the row to replay it.
#include "RedisServer.h"
#include "TestMain.h"
#include "TestWait.h"
#include "redis/RedisSemaphoreStore.h"

#include <QTimer>

#include <QDateTime>
#include <QFile>
#include <QRandomGenerator>
#include <QtTest>
#include <algorithm>

using namespace semscope;
using core::Kind;
using semscope::test::awaitCall;

namespace {

using Cmd = QList<QByteArray>;

constexpr qint64 kLeaseMs = 60000; // longer than any row: nothing expires on its own
constexpr int kSteps = 300;        // per row, at SEMSCOPE_TEST_SCALE 1.0
// semscope's own grants a row must see, per 100 steps: well below what every kind gets at limit 1
// to 3 with a foreign client contending (6 to 14 seen), far above none.
constexpr int kMinGrantsPer100Steps = 4;
const QByteArray kName = "prop";

// What the raw keys say about one semaphore.
struct RawState {
    QMap<QByteArray, QByteArray> records; // holder -> everything that marks its acquisition
    QMap<QByteArray, qint64> slotOf;      // `slots`: holder -> slot number
    QList<qint64> tokens;                 // tokens on record (`leased` owners, `fair` :owner)
    // False when damage the foreign client cannot cope with is present (see the file comment).
    bool healthy = true;

    qint64 occupying() const { return records.size(); }
    qint64 slotsHeldTwice() const {
        QList<qint64> held = slotOf.values();
        std::sort(held.begin(), held.end());
        return held.size() - (std::unique(held.begin(), held.end()) - held.begin());
    }
    // "slot 3: b, c" for each slot held more than once.
    QStringList slotsHeldTwiceByWhom() const {
        QMap<qint64, QStringList> bySlot;
        for (auto it = slotOf.cbegin(); it != slotOf.cend(); ++it)
            bySlot[it.value()] << QString::fromUtf8(it.key());
        QStringList out;
        for (auto it = bySlot.cbegin(); it != bySlot.cend(); ++it) {
            if (it.value().size() > 1)
                out << QStringLiteral("slot %1: %2").arg(it.key()).arg(it.value().join(QStringLiteral(", ")));
        }
        return out;
    }
};

double testScale() {
    bool ok = false;
    const double scale = qEnvironmentVariable("SEMSCOPE_TEST_SCALE").toDouble(&ok);
    return ok && scale > 0 ? scale : 1.0;
}

// A result status in the step log.
QString statusName(int status, std::initializer_list<const char *> names) {
    return status >= 0 && status < int(names.size()) ? QString::fromLatin1(names.begin()[status])
                                                     : QString::number(status);
}

QByteArray number(qint64 v) {
    return QByteArray::number(v);
}

// How a store under test may be broken on purpose, to show the checks catch it.
enum class Breakage { None, RefusesEverything, ReleaseDoesNothing };

// A store that passes every call to `inner`, except what `breakage` breaks. Callbacks run later, from
// the event loop, as a real store's do.
class BrokenStore : public core::SemaphoreStore {
public:
    BrokenStore(std::unique_ptr<core::SemaphoreStore> inner, Breakage breakage)
        : m_inner(std::move(inner))
        , m_breakage(breakage) {}

    QString endpoint() const override { return m_inner->endpoint(); }
    core::Backend backend() const override { return m_inner->backend(); }
    void discover(const core::DiscoverRequest &request, core::Cancellation cancel,
                  core::Callback<core::DiscoverProgress> progress,
                  core::Callback<core::DiscoverResult> done) override {
        m_inner->discover(request, cancel, progress, done);
    }
    void snapshot(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done) override {
        m_inner->snapshot(ref, done);
    }
    void doAcquire(const core::SemaphoreRef &ref, const core::AcquireRequest &request,
                   core::Cancellation cancel, core::Callback<core::AcquireResult> done) override {
        if (refuses()) {
            core::AcquireResult r;
            r.error = kRefusal;
            return later(done, r);
        }
        m_inner->acquire(ref, request, cancel, done);
    }
    void doRefresh(const core::Grant &grant, qint64 ttlMs,
                   core::Callback<core::RefreshResult> done) override {
        if (refuses()) {
            core::RefreshResult r;
            r.error = kRefusal;
            return later(done, r);
        }
        m_inner->refresh(grant, ttlMs, done);
    }
    void doRelease(const core::Grant &grant, core::Callback<core::ReleaseResult> done) override {
        if (m_breakage == Breakage::ReleaseDoesNothing)
            return later(done, core::ReleaseResult{core::ReleaseResult::Status::Ok, {}});
        if (refuses())
            return later(done, core::ReleaseResult{core::ReleaseResult::Status::Error, kRefusal});
        m_inner->release(grant, done);
    }
    void doForceRelease(const core::SemaphoreRef &ref, const core::Holder &observed,
                        std::optional<qint64> observedVersion,
                        core::Callback<core::ForceReleaseResult> done) override {
        if (refuses())
            return later(done, core::ForceReleaseResult{core::ForceReleaseResult::Status::Error, kRefusal});
        m_inner->forceRelease(ref, observed, observedVersion, done);
    }
    void doPurgeExpired(const core::SemaphoreRef &ref,
                        core::Callback<core::MaintenanceResult> done) override {
        if (refuses())
            return later(done, core::MaintenanceResult{false, 0, kRefusal});
        m_inner->purgeExpired(ref, done);
    }
    void doRepair(const core::SemaphoreRef &ref, core::Callback<core::MaintenanceResult> done) override {
        if (refuses())
            return later(done, core::MaintenanceResult{false, 0, kRefusal});
        m_inner->repair(ref, done);
    }
    void doSetLimit(const core::SemaphoreRef &ref, qint64 limit,
                    core::Callback<core::MaintenanceResult> done) override {
        if (refuses())
            return later(done, core::MaintenanceResult{false, 0, kRefusal});
        m_inner->setLimit(ref, limit, done);
    }

private:
    inline static const QString kRefusal = QStringLiteral("refused (a store broken on purpose)");
    bool refuses() const { return m_breakage == Breakage::RefusesEverything; }
    template <typename T>
    void later(core::Callback<T> done, T result) {
        QTimer::singleShot(0, this, [done = std::move(done), result = std::move(result)] { done(result); });
    }

    std::unique_ptr<core::SemaphoreStore> m_inner;
    Breakage m_breakage;
};

// One row: a semaphore of one kind, semscope's store, the foreign client and the model of who
// holds what (so that a force-release can be judged against the acquisition the operator saw).
class PropertyRun {
public:
    PropertyRun(test::RedisServer &server, Kind kind, qint64 limit, quint32 seed,
                Breakage breakage = Breakage::None)
        : m_server(server)
        , m_kind(kind)
        , m_limit(limit)
        , m_rng(seed) {
        m_ref.kind = kind;
        m_ref.name = QString::fromLatin1(kName);
        m_ref.profile.limit = limit;
        m_ref.profile.timeoutMs = kLeaseMs; // the clients' lease (`fair` timeout, `zset` cap)
        m_store = std::make_unique<redis::RedisSemaphoreStore>(server.settings());
        if (breakage != Breakage::None)
            m_store = std::make_unique<BrokenStore>(std::move(m_store), breakage);
        if (kind == Kind::Leased) // its other client is a second semscope (another CLI, the GUI)
            m_other = std::make_unique<redis::RedisSemaphoreStore>(server.settings());
        m_seedAcquire = readFile(QStringLiteral("seeds/slots_seed_acquire.lua"));
        m_seedRelease = readFile(QStringLiteral("seeds/slots_seed_release.lua"));
    }

    // Runs one step and checks it; an empty string when the invariants hold.
    QString step() {
        m_violation.clear();
        const int roll = int(m_rng.bounded(100));
        if (roll < 24)
            semscopeAcquire();
        else if (roll < 32)
            semscopeRefresh();
        else if (roll < 44)
            semscopeRelease();
        else if (roll < 56)
            semscopeForceRelease();
        else if (roll < 61)
            semscopeMaintenance();
        else if (roll < 93)
            foreignStep();
        else
            damage();
        return m_violation;
    }

    // The seed's slot scripts are test data (tests/redis/seeds).
    bool ready() const {
        return m_kind != Kind::Slots || (!m_seedAcquire.isEmpty() && !m_seedRelease.isEmpty());
    }

    // After the last step: whether the row saw enough of semscope's grants to have tested anything.
    QString finish(int steps) const {
        const int least = std::max(1, steps * kMinGrantsPer100Steps / 100);
        if (m_semscopeGrants < least)
            return QStringLiteral(
                       "semscope was granted %1 times in %2 steps, fewer than the %3 a row must see")
                .arg(m_semscopeGrants)
                .arg(steps)
                .arg(least);
        return {};
    }
    int semscopeGrants() const { return m_semscopeGrants; }

    QString recentSteps() const { return m_log.mid(std::max<qsizetype>(0, m_log.size() - 25)).join(u'\n'); }

private:
    // ---- raw reads ----------------------------------------------------------------------------
    redis::RedisReply cmd(const Cmd &args) { return m_server.command(args); }
    QByteArray key(const char *suffix) const { return kName + suffix; }
    static QByteArray leasedKey(const char *suffix) { return '{' + kName + '}' + suffix; } // hash-tagged

    QMap<QByteArray, QByteArray> zsetScores(const QByteArray &k) {
        QMap<QByteArray, QByteArray> out;
        const redis::RedisReply r = cmd({"ZRANGE", k, "0", "-1", "WITHSCORES"});
        for (qsizetype i = 0; i + 1 < r.elements.size(); i += 2)
            out.insert(r.elements.at(i).str, r.elements.at(i + 1).str);
        return out;
    }
    QMap<QByteArray, QByteArray> hashAll(const QByteArray &k) {
        QMap<QByteArray, QByteArray> out;
        const redis::RedisReply r = cmd({"HGETALL", k});
        for (qsizetype i = 0; i + 1 < r.elements.size(); i += 2)
            out.insert(r.elements.at(i).str, r.elements.at(i + 1).str);
        return out;
    }

    RawState readRaw() {
        RawState s;
        switch (m_kind) {
        case Kind::Leased: {
            const auto owners = hashAll(leasedKey(":owners"));
            const auto holders = zsetScores(leasedKey(":holders"));
            for (auto it = holders.cbegin(); it != holders.cend(); ++it)
                s.records.insert(it.key(), it.value() + '|' + owners.value(it.key()));
            for (const QByteArray &record : owners) {
                bool ok = false;
                const qint64 token = record.split('|').value(0).toLongLong(&ok);
                if (ok)
                    s.tokens << token;
            }
            break;
        }
        case Kind::Slots: {
            const auto map = hashAll(key("|map"));
            const auto lease = zsetScores(key("|lease"));
            QList<qint64> all;
            for (auto it = map.cbegin(); it != map.cend(); ++it) {
                s.records.insert(it.key(), it.value() + '|' + lease.value(it.key()));
                s.slotOf.insert(it.key(), it.value().toLongLong());
                all << it.value().toLongLong();
            }
            for (const redis::RedisReply &free : cmd({"LRANGE", key("|list"), "0", "-1"}).elements)
                all << free.str.toLongLong();
            std::sort(all.begin(), all.end());
            QList<qint64> whole;
            for (qint64 n = 1; n <= m_limit; ++n)
                whole << n;
            // Every slot number exactly once, free or held; anything else makes the seed's refill unsafe.
            s.healthy = map.isEmpty() || all == whole;
            break;
        }
        case Kind::Fair: {
            const auto owner = zsetScores(key(":owner"));
            const auto times = zsetScores(kName);
            qint64 top = 0;
            for (auto it = owner.cbegin(); it != owner.cend(); ++it) {
                s.tokens << it.value().toLongLong();
                top = std::max(top, it.value().toLongLong());
            }
            for (auto it = times.cbegin(); it != times.cend(); ++it) {
                s.records.insert(it.key(), it.value() + '|' + owner.value(it.key(), "-"));
                if (!owner.contains(it.key()))
                    s.healthy = false; // ranks lost: the book's rank check admits anybody
            }
            // A counter below the tokens on record: the book's INCR ranks ahead of the holders.
            if (cmd({"GET", key(":counter")}).toInteger().value_or(0) < top)
                s.healthy = false;
            break;
        }
        case Kind::Zset:
            s.records = zsetScores(kName);
            break;
        case Kind::Lock: {
            const redis::RedisReply value = cmd({"GET", kName});
            if (value.isString())
                s.records.insert(value.str, "held");
            break;
        }
        default:
            break;
        }
        return s;
    }

    // ---- checks -------------------------------------------------------------------------------
    void violate(const QString &what) {
        if (m_violation.isEmpty())
            m_violation = what;
    }

    // `semscope`: a semscope step, held to every invariant. Otherwise the foreign client's, held to
    // them unless the data was damaged before it (see the file comment).
    void checkStep(const RawState &before, const RawState &after, bool semscope) {
        const qint64 overBefore = std::max<qint64>(0, before.occupying() - m_limit);
        const qint64 overAfter = std::max<qint64>(0, after.occupying() - m_limit);
        const qint64 twiceBefore = before.slotsHeldTwice();
        const qint64 twiceAfter = after.slotsHeldTwice();
        const bool worse =
            (overAfter > 0 && overAfter > overBefore) || (twiceAfter > 0 && twiceAfter > twiceBefore);
        if (!worse)
            return;
        QString state = QStringLiteral("%1 holders on limit %2").arg(after.occupying()).arg(m_limit);
        if (twiceAfter > 0)
            state +=
                QStringLiteral(", held twice: ") + after.slotsHeldTwiceByWhom().join(QStringLiteral("; "));
        if (!semscope && !m_grantedUnderBookLock.isEmpty())
            violate(
                QStringLiteral("after the foreign step: %1 (semscope granted %2 while the book's client held "
                               "lock:%3 between its INCR and its ZADDs: issue 14 item 7)")
                    .arg(state, QString::fromUtf8(m_grantedUnderBookLock.join(", ")),
                         QString::fromLatin1(kName)));
        if (semscope || before.healthy)
            violate((semscope ? QStringLiteral("semscope's step left ")
                              : QStringLiteral("after the foreign step: ")) +
                    state);
        else
            log(QStringLiteral("  (the foreign client broke the damaged data itself: %1; not semscope's)")
                    .arg(state));
    }

    // Only `except` may have changed (released, refreshed, re-acquired); every other holder keeps
    // exactly its record.
    void checkOthersKept(const RawState &before, const RawState &after, const QByteArray &except,
                         const QString &what) {
        for (auto it = before.records.cbegin(); it != before.records.cend(); ++it) {
            if (it.key() != except && after.records.value(it.key()) != it.value())
                violate(QStringLiteral("%1 changed another holder: %2 was %3, is %4")
                            .arg(what, QString::fromUtf8(it.key()), QString::fromUtf8(it.value()),
                                 QString::fromUtf8(after.records.value(it.key(), "(gone)"))));
        }
    }

    // Only semscope's grants raise the floor: a foreign client's INCR on a lost counter is its own.
    void checkToken(const std::optional<qint64> &token, const RawState &before, const QString &who) {
        if (m_kind != Kind::Leased && m_kind != Kind::Fair)
            return;
        if (!token) {
            violate(who + QStringLiteral(" was granted without a token"));
            return;
        }
        if (*token <= m_tokenFloor)
            violate(QStringLiteral("%1 got token %2, not above %3 handed out before")
                        .arg(who)
                        .arg(*token)
                        .arg(m_tokenFloor));
        const qint64 topOnRecord =
            before.tokens.isEmpty() ? 0 : *std::max_element(before.tokens.cbegin(), before.tokens.cend());
        if (*token <= topOnRecord)
            violate(QStringLiteral("%1 got token %2, not above %3 that a holder on record carries")
                        .arg(who)
                        .arg(*token)
                        .arg(topOnRecord));
        m_tokenFloor = std::max(m_tokenFloor, *token);
    }

    void log(const QString &line) { m_log << line; }
    void granted(const QByteArray &id) { m_serial.insert(id, ++m_serials); }
    // A new acquisition of `id` in a race, unless its fencing token cannot tell it from the one seen:
    // the same token again, because the counter (`leased` meta, `fair` :counter) was lost while that
    // token was no longer on record, and went on from what was left (a limit of the layouts, not the
    // force-release's to see).
    void regranted(const QByteArray &id, const std::optional<qint64> &token, const core::Holder &observed) {
        m_tokenFloor = std::max(m_tokenFloor, token.value_or(0));
        if (token && token == observed.token)
            log(QStringLiteral("  (token %1 again: the counter was lost with that token off record)")
                    .arg(*token));
        else
            granted(id);
    }

    // ---- semscope's operations (through the store) --------------------------------------------
    static QByteArray rawOf(const core::Grant &g) {
        return g.rawHolder.isEmpty() ? g.holder.toUtf8() : g.rawHolder;
    }

    QByteArray unusedId(const char *prefix, const QList<QByteArray> &held) {
        if (m_kind == Kind::Lock) // lock clients take a fresh id (request id) per acquisition
            return prefix + number(++m_fresh);
        QList<QByteArray> candidates;
        for (int i = 1; i <= int(m_limit) + 2; ++i) {
            const QByteArray id = prefix + number(i);
            if (!held.contains(id))
                candidates << id;
        }
        return candidates.isEmpty() ? QByteArray()
                                    : candidates.at(int(m_rng.bounded(int(candidates.size()))));
    }
    static QList<QByteArray> idsOf(const QList<core::Grant> &grants) {
        QList<QByteArray> ids;
        for (const core::Grant &g : grants)
            ids << rawOf(g);
        return ids;
    }

    std::optional<core::AcquireResult> storeAcquire(core::SemaphoreStore &store, const QByteArray &id) {
        core::AcquireRequest request;
        request.holder = QString::fromUtf8(id);
        request.ttlMs = kLeaseMs;
        return awaitCall<core::AcquireResult>(
            [&](auto done) { store.acquire(m_ref, request, core::Cancellation(), done); });
    }

    // One acquire through `store`; a grant joins `grants`.
    void acquireThrough(core::SemaphoreStore &store, QList<core::Grant> &grants, const char *prefix,
                        const QString &who) {
        const QByteArray id = unusedId(prefix, idsOf(grants));
        if (id.isEmpty())
            return log(who + QStringLiteral(" acquire: every id of this client holds"));
        const RawState before = readRaw();
        const auto result = storeAcquire(store, id);
        const RawState after = readRaw();
        if (!result)
            return violate(who + QStringLiteral(" acquire did not answer"));
        log(QStringLiteral("%1 acquire %2: %3 %4")
                .arg(who, QString::fromUtf8(id))
                .arg(statusName(int(result->status), {"granted", "busy", "refused:"}))
                .arg(result->status == core::AcquireResult::Status::Granted
                         ? QStringLiteral("token %1 slot %2")
                               .arg(result->grant.token.value_or(-1))
                               .arg(result->grant.slot.value_or(-1))
                         : result->error));
        if (result->status == core::AcquireResult::Status::Granted) {
            grants << result->grant;
            granted(id);
            if (m_book.active) // between the book's INCR and its ZADDs, under its lock:S
                m_grantedUnderBookLock << id;
            checkToken(result->grant.token, before, who);
            if (!after.records.contains(id))
                violate(who + QStringLiteral(" was granted, but the raw keys do not record it"));
        }
        checkStep(before, after, true);
    }

    void semscopeAcquire() {
        const qsizetype held = m_grants.size();
        acquireThrough(*m_store, m_grants, "s", QStringLiteral("semscope"));
        m_semscopeGrants += int(m_grants.size() - held);
    }

    void semscopeRefresh() {
        if (m_grants.isEmpty())
            return log(QStringLiteral("semscope refresh: holds nothing"));
        const core::Grant grant = m_grants.at(int(m_rng.bounded(int(m_grants.size()))));
        const RawState before = readRaw();
        const auto result =
            awaitCall<core::RefreshResult>([&](auto done) { m_store->refresh(grant, kLeaseMs, done); });
        const RawState after = readRaw();
        if (!result)
            return violate(QStringLiteral("refresh did not answer"));
        log(QStringLiteral("semscope refresh %1: %2 %3")
                .arg(grant.holder)
                .arg(statusName(int(result->status), {"ok", "lost", "refused:"}))
                .arg(result->error));
        if (result->status == core::RefreshResult::Status::Lost)
            m_grants.removeIf([&](const core::Grant &g) { return g.holder == grant.holder; });
        if (!before.records.contains(rawOf(grant)) && after.records.contains(rawOf(grant)))
            violate(QStringLiteral("refresh of %1 acquired it again").arg(grant.holder));
        checkOthersKept(before, after, rawOf(grant), QStringLiteral("refresh"));
        checkStep(before, after, true);
    }

    void releaseThrough(core::SemaphoreStore &store, QList<core::Grant> &grants, const QString &who) {
        if (grants.isEmpty())
            return log(who + QStringLiteral(" release: holds nothing"));
        const core::Grant grant = grants.takeAt(int(m_rng.bounded(int(grants.size()))));
        const RawState before = readRaw();
        const auto result = awaitCall<core::ReleaseResult>([&](auto done) { store.release(grant, done); });
        const RawState after = readRaw();
        if (!result)
            return violate(who + QStringLiteral(" release did not answer"));
        log(QStringLiteral("%1 release %2: %3 %4")
                .arg(who, grant.holder)
                .arg(statusName(int(result->status), {"ok", "not held", "refused:"}))
                .arg(result->error));
        // Checked as force-release's Released is: an Ok must have taken the holder's record away.
        if (result->status == core::ReleaseResult::Status::Ok && after.records.contains(rawOf(grant)))
            violate(
                QStringLiteral("%1 release of %2 reported Ok, but %2 is still there").arg(who, grant.holder));
        checkOthersKept(before, after, rawOf(grant), who + QStringLiteral(" release"));
        checkStep(before, after, true);
    }

    void semscopeRelease() { releaseThrough(*m_store, m_grants, QStringLiteral("semscope")); }

    void semscopeForceRelease() {
        const auto snap = awaitCall<core::Snapshot>([&](auto done) { m_store->snapshot(m_ref, done); });
        if (!snap)
            return violate(QStringLiteral("snapshot did not answer"));
        if (snap->holders.isEmpty())
            return log(QStringLiteral("force-release: the snapshot shows nobody"));
        const core::Holder observed = snap->holders.at(int(m_rng.bounded(int(snap->holders.size()))));
        const quint64 seen = m_serial.value(observed.rawId);
        // Sometimes the holder's owner releases and acquires again between the operator's look and
        // the force-release: then it is no longer the acquisition the operator saw.
        const bool raced = m_rng.bounded(3) == 0 && reacquire(observed);
        const RawState before = readRaw();
        const auto result = awaitCall<core::ForceReleaseResult>(
            [&](auto done) { m_store->forceRelease(m_ref, observed, snap->version, done); });
        const RawState after = readRaw();
        if (!result)
            return violate(QStringLiteral("force-release did not answer"));
        log(QStringLiteral("force-release %1 (seen as acquisition #%2%3): %4 %5")
                .arg(observed.id)
                .arg(seen)
                .arg(raced ? QStringLiteral(", since re-acquired as #%1").arg(m_serial.value(observed.rawId))
                           : QString())
                .arg(core::forceReleaseStatusName(result->status), result->message));
        checkOthersKept(before, after, observed.rawId, QStringLiteral("force-release"));
        if (result->status == core::ForceReleaseResult::Status::Released) {
            if (!before.records.contains(observed.rawId))
                violate(
                    QStringLiteral("force-release reported Released, but %1 was not there").arg(observed.id));
            else if (m_serial.value(observed.rawId) != seen)
                violate(QStringLiteral("force-release removed %1's acquisition #%2, but the operator saw #%3")
                            .arg(observed.id)
                            .arg(m_serial.value(observed.rawId))
                            .arg(seen));
            else if (after.records.contains(observed.rawId))
                violate(QStringLiteral("force-release reported Released, but %1 is still there")
                            .arg(observed.id));
            m_serial.remove(observed.rawId);
        } else if (after.records != before.records) {
            violate(QStringLiteral("force-release reported %1 but changed the holders")
                        .arg(core::forceReleaseStatusName(result->status)));
        }
        checkStep(before, after, true);
    }

    void semscopeMaintenance() {
        const int which = int(m_rng.bounded(3));
        const RawState before = readRaw();
        std::optional<core::MaintenanceResult> result;
        QString what;
        if (which == 0) {
            what = QStringLiteral("purge");
            result =
                awaitCall<core::MaintenanceResult>([&](auto done) { m_store->purgeExpired(m_ref, done); });
        } else if (which == 1) {
            what = QStringLiteral("repair");
            result = awaitCall<core::MaintenanceResult>([&](auto done) { m_store->repair(m_ref, done); });
        } else {
            what = QStringLiteral("set-limit %1").arg(m_limit); // the same limit: restores a lost one
            result = awaitCall<core::MaintenanceResult>(
                [&](auto done) { m_store->setLimit(m_ref, m_limit, done); });
        }
        const RawState after = readRaw();
        if (!result)
            return violate(what + QStringLiteral(" did not answer"));
        log(QStringLiteral("semscope %1: %2 %3")
                .arg(what, result->ok ? QStringLiteral("ok") : QStringLiteral("refused:"), result->message));
        if (which == 0) // nothing has expired: every holder's expiry is sure to be ahead
            checkOthersKept(before, after, QByteArray(), what);
        checkStep(before, after, true);
    }

    // `store`'s client releases its grant for `observed` and acquires again (a lock client under a
    // new id, as lock clients take one per acquisition). False when it holds no such grant.
    bool reacquireThrough(core::SemaphoreStore &store, QList<core::Grant> &grants,
                          const core::Holder &observed, const char *prefix) {
        const auto held = [&](const core::Grant &g) { return rawOf(g) == observed.rawId; };
        const auto it = std::find_if(grants.cbegin(), grants.cend(), held);
        if (it == grants.cend())
            return false;
        const core::Grant grant = *it;
        grants.removeIf(held);
        awaitCall<core::ReleaseResult>([&](auto done) { store.release(grant, done); });
        const QByteArray id = m_kind == Kind::Lock ? prefix + number(++m_fresh) : observed.rawId;
        const auto again = storeAcquire(store, id);
        if (again && again->status == core::AcquireResult::Status::Granted) {
            grants << again->grant;
            regranted(id, again->grant.token, observed);
        }
        log(QStringLiteral("  %1 released and acquired again as %2").arg(observed.id, QString::fromUtf8(id)));
        return true;
    }

    // The owner of `observed` releases it and acquires again, as its client does. False where the
    // layout cannot tell the two acquisitions apart, or the owner is in the middle of something.
    bool reacquire(const core::Holder &observed) {
        // A `slots` acquisition is told apart by semscope's lease record only (issue 14 item 4): the
        // seed's holders, and every holder of a semaphore semscope did not create, keep none.
        if (m_kind == Kind::Slots && !observed.expiresAtMs)
            return false;
        if (reacquireThrough(*m_store, m_grants, observed, "s"))
            return true;
        if (m_other && reacquireThrough(*m_other, m_otherGrants, observed, "o")) {
            m_foreign = idsOf(m_otherGrants);
            return true;
        }
        if (!m_foreign.contains(observed.rawId))
            return false;
        switch (m_kind) {
        case Kind::Fair: {
            if (m_book.active)
                return false;
            const quint64 seen = m_serial.value(observed.rawId);
            bookRelease(observed.rawId);
            bookAcquireWhole(observed.rawId);
            // The book's INCR on a lost counter can hand out the token seen once more (see regranted).
            if (observed.token &&
                cmd({"ZSCORE", key(":owner"), observed.rawId}).toInteger() == observed.token) {
                m_serial.insert(observed.rawId, seen);
                log(QStringLiteral("  (token %1 again: the counter was lost)").arg(*observed.token));
            }
            break;
        }
        case Kind::Zset:
            zsetSeedRelease(observed.rawId);
            zsetSeedAcquire(observed.rawId);
            break;
        case Kind::Lock:
            lockSeedRelease(observed.rawId);
            lockSeedAcquire("f" + number(++m_fresh));
            break;
        default:
            return false;
        }
        log(QStringLiteral("  %1's client released it and acquired again").arg(observed.id));
        return true;
    }

    // ---- the foreign client's own steps --------------------------------------------------------
    void foreignStep() {
        const RawState before = readRaw();
        const QString what = foreignAct();
        const RawState after = readRaw();
        log(QStringLiteral("foreign: ") + what);
        checkStep(before, after, false);
        if (!m_book.active)
            m_grantedUnderBookLock.clear();
    }

    QByteArray anyForeign() {
        return m_foreign.isEmpty() ? QByteArray() : m_foreign.at(int(m_rng.bounded(int(m_foreign.size()))));
    }

    QString foreignAct() {
        const int roll = int(m_rng.bounded(100));
        const QByteArray held = anyForeign();
        switch (m_kind) {
        case Kind::Leased:
            if (roll < 55 || m_otherGrants.isEmpty())
                acquireThrough(*m_other, m_otherGrants, "o", QStringLiteral("other semscope"));
            else
                releaseThrough(*m_other, m_otherGrants, QStringLiteral("other semscope"));
            m_foreign = idsOf(m_otherGrants);
            return QStringLiteral("(the other semscope, above)");
        case Kind::Slots: {
            if (roll < 60 || held.isEmpty()) {
                const QByteArray id = unusedId("f", m_foreign);
                if (id.isEmpty())
                    return QStringLiteral("seed acquire: every id holds");
                const qint64 slot =
                    cmd({"EVAL", m_seedAcquire, "1", kName, id, number(m_limit)}).toInteger().value_or(-99);
                if (slot > 0) {
                    m_foreign << id;
                    granted(id);
                }
                return QStringLiteral("seed acquire %1 -> %2").arg(QString::fromUtf8(id)).arg(slot);
            }
            m_foreign.removeAll(held);
            const qint64 r = cmd({"EVAL", m_seedRelease, "1", kName, held}).toInteger().value_or(-99);
            return QStringLiteral("seed release %1 -> %2").arg(QString::fromUtf8(held)).arg(r);
        }
        case Kind::Fair:
            if (m_book.active)
                return bookSecondRoundTrip();
            if (roll < 55 || held.isEmpty()) {
                const QByteArray id = unusedId("f", m_foreign);
                return id.isEmpty() ? QStringLiteral("book acquire: every id holds") : bookFirstRoundTrip(id);
            }
            if (roll < 85)
                return bookRelease(held);
            cmd({"ZADD", kName, "XX", nowSeconds(), held}); // seed 001's RefreshFairSemaphore
            return QStringLiteral("refresh %1 (ZADD XX)").arg(QString::fromUtf8(held));
        case Kind::Zset:
            if (roll < 60 || held.isEmpty()) {
                const QByteArray id = unusedId("f", m_foreign);
                return id.isEmpty() ? QStringLiteral("seed acquire: every id holds") : zsetSeedAcquire(id);
            }
            return zsetSeedRelease(held);
        case Kind::Lock:
            if (roll < 60 || held.isEmpty())
                return lockSeedAcquire("f" + number(++m_fresh));
            return lockSeedRelease(held);
        default:
            return QString();
        }
    }

    static QByteArray nowSeconds() { return number(QDateTime::currentSecsSinceEpoch()); }

    // The book's acquire_semaphore_with_lock (Redis in Action listing 6.17) with its fair semaphore
    // (6.3.2): the outer lock `lock:S` (acquire_lock_with_timeout: SETNX, EXPIRE), round trip 1
    // (purge, intersect, INCR) -- one step; round trip 2 (two ZADDs, ZRANK, ZREMs on a loss) and the
    // lock's release -- the next foreign step. semscope's steps may run in between.
    QString bookFirstRoundTrip(const QByteArray &id) {
        const QByteArray lockKey = "lock:" + kName;
        const QByteArray lockId = "book-" + id;
        if (cmd({"SETNX", lockKey, lockId}).toInteger() != 1)
            return QStringLiteral("book acquire %1: lock:%2 is taken, gives up")
                .arg(QString::fromUtf8(id), QString::fromLatin1(kName));
        cmd({"EXPIRE", lockKey, "10"});
        cmd({"ZREMRANGEBYSCORE", kName, "-inf",
             number(QDateTime::currentSecsSinceEpoch() - kLeaseMs / 1000)});
        cmd({"ZINTERSTORE", key(":owner"), "2", key(":owner"), kName, "WEIGHTS", "1", "0"});
        m_book = {true, id, cmd({"INCR", key(":counter")}).toInteger().value_or(-1)};
        return QStringLiteral("book acquire %1: holds lock:%2, INCR -> %3")
            .arg(QString::fromUtf8(id), QString::fromLatin1(kName))
            .arg(m_book.counter);
    }
    QString bookSecondRoundTrip() {
        const QByteArray id = m_book.id;
        m_book.active = false;
        cmd({"ZADD", kName, nowSeconds(), id});
        cmd({"ZADD", key(":owner"), number(m_book.counter), id});
        const qint64 rank = cmd({"ZRANK", key(":owner"), id}).toInteger().value_or(-1);
        const bool won = rank >= 0 && rank < m_limit;
        if (won) {
            m_foreign << id;
            granted(id);
        } else {
            cmd({"ZREM", kName, id});
            cmd({"ZREM", key(":owner"), id});
        }
        // release_lock: delete the lock only while it is still this client's.
        const QByteArray lockKey = "lock:" + kName;
        if (cmd({"GET", lockKey}).str == "book-" + id)
            cmd({"DEL", lockKey});
        return QStringLiteral("book acquire %1: rank %2 -> %3, lock released")
            .arg(QString::fromUtf8(id))
            .arg(rank)
            .arg(won ? QStringLiteral("holds") : QStringLiteral("lost"));
    }
    void bookAcquireWhole(const QByteArray &id) {
        bookFirstRoundTrip(id);
        if (m_book.active)
            bookSecondRoundTrip();
    }
    // release_fair_semaphore.
    QString bookRelease(const QByteArray &id) {
        m_foreign.removeAll(id);
        const qint64 removed = cmd({"ZREM", kName, id}).toInteger().value_or(-1);
        cmd({"ZREM", key(":owner"), id});
        return QStringLiteral("book release %1 -> %2").arg(QString::fromUtf8(id)).arg(removed);
    }

    // Seed 003's acquire: ZADD now+timeout, purge 0..now, ZRANK, ZREM on rank > limit-1. Its clock
    // never reads the same millisecond twice, so each acquisition has its own expiry.
    QString zsetSeedAcquire(const QByteArray &id) {
        m_seedClockMs = std::max(QDateTime::currentMSecsSinceEpoch(), m_seedClockMs + 1);
        cmd({"ZADD", kName, number(m_seedClockMs + kLeaseMs), id});
        cmd({"ZREMRANGEBYSCORE", kName, "0", number(m_seedClockMs)});
        const qint64 rank = cmd({"ZRANK", kName, id}).toInteger().value_or(-1);
        if (rank < 0 || rank > m_limit - 1) {
            cmd({"ZREM", kName, id});
            return QStringLiteral("seed acquire %1: rank %2, backs out").arg(QString::fromUtf8(id)).arg(rank);
        }
        m_foreign << id;
        granted(id);
        return QStringLiteral("seed acquire %1: rank %2, holds").arg(QString::fromUtf8(id)).arg(rank);
    }
    QString zsetSeedRelease(const QByteArray &id) {
        m_foreign.removeAll(id);
        cmd({"ZREM", kName, id});
        return QStringLiteral("seed release %1").arg(QString::fromUtf8(id));
    }

    // Seed 002: SET key id NX PX, and the compare-and-delete script.
    QString lockSeedAcquire(const QByteArray &id) {
        const bool ok = cmd({"SET", kName, id, "NX", "PX", number(kLeaseMs)}).str == "OK";
        if (ok) {
            m_foreign << id;
            granted(id);
        }
        return QStringLiteral("seed lock %1 -> %2").arg(QString::fromUtf8(id)).arg(ok);
    }
    QString lockSeedRelease(const QByteArray &id) {
        static const QByteArray script = "if redis.call('get', KEYS[1]) == ARGV[1] then return "
                                         "redis.call('del', KEYS[1]) else return 0 end";
        m_foreign.removeAll(id);
        const qint64 r = cmd({"EVAL", script, "1", kName, id}).toInteger().value_or(-99);
        return QStringLiteral("seed unlock %1 -> %2").arg(QString::fromUtf8(id)).arg(r);
    }

    // ---- damage ---------------------------------------------------------------------------------
    void damage() {
        const int which = int(m_rng.bounded(3));
        Cmd damage;
        bool counterLost = false;
        switch (m_kind) {
        case Kind::Leased: // the meta deleted or evicted, or its fence alone
            damage = which == 0 ? Cmd{"HDEL", leasedKey(":meta"), "fence"} : Cmd{"DEL", leasedKey(":meta")};
            counterLost = true;
            break;
        case Kind::Slots: // the free list lost, one free slot leaked, semscope's lease record lost
            damage = which == 0   ? Cmd{"DEL", key("|list")}
                     : which == 1 ? Cmd{"LPOP", key("|list")}
                                  : Cmd{"DEL", key("|lease")};
            break;
        case Kind::Fair: // the counter lost, or the ranks
            damage = which == 0 ? Cmd{"DEL", key(":owner")} : Cmd{"DEL", key(":counter")};
            counterLost = which != 0;
            break;
        case Kind::Zset: { // one member scored in the other unit (the same instant)
            const auto members = zsetScores(kName);
            if (members.isEmpty())
                return log(QStringLiteral("damage: nothing to rescore"));
            const QByteArray id = members.keys().at(int(m_rng.bounded(int(members.size()))));
            const double score = members.value(id).toDouble();
            const double other = score > 1e11 ? score / 1000 : score * 1000;
            damage = Cmd{"ZADD", kName, "XX", QByteArray::number(other, 'f', 3), id};
            break;
        }
        case Kind::Lock: // the TTL lost, or the lock deleted
            damage = which == 0 ? Cmd{"PERSIST", kName} : Cmd{"DEL", kName};
            break;
        default:
            return;
        }
        cmd(damage);
        log(QStringLiteral("damage: ") + QString::fromUtf8(damage.join(' ')));
        // Tokens that are no longer on record anywhere cannot be known after the counter is lost:
        // from here, new tokens must rise above those on record and above each other.
        if (counterLost)
            m_tokenFloor = 0;
    }

    static QByteArray readFile(const QString &name) {
        QFile f(QFINDTESTDATA(name));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    struct BookInFlight {
        bool active = false;
        QByteArray id;
        qint64 counter = 0;
    };

    test::RedisServer &m_server;
    Kind m_kind;
    qint64 m_limit;
    QRandomGenerator m_rng;
    core::SemaphoreRef m_ref;
    std::unique_ptr<core::SemaphoreStore> m_store;       // semscope's (broken on purpose, in one test)
    std::unique_ptr<redis::RedisSemaphoreStore> m_other; // `leased`: the other client
    int m_semscopeGrants = 0;
    QByteArray m_seedAcquire;
    QByteArray m_seedRelease;
    QList<core::Grant> m_grants;         // what semscope holds
    QList<core::Grant> m_otherGrants;    // `leased`: what the other semscope holds
    QList<QByteArray> m_foreign;         // ids the foreign client holds
    QHash<QByteArray, quint64> m_serial; // holder -> its latest acquisition (numbered across the row)
    quint64 m_serials = 0;
    qint64 m_fresh = 0;
    qint64 m_tokenFloor = 0;
    qint64 m_seedClockMs = 0;
    BookInFlight m_book;
    QList<QByteArray> m_grantedUnderBookLock; // semscope's grants while the book was in flight
    QStringList m_log;
    QString m_violation;
};

} // namespace

class TestSemaphoreProperties : public QObject {
    Q_OBJECT

private:
    test::RedisServer m_server;

    // For the focused tests of what the property run found in `fair` (limit 2, the book's layout).
    static core::SemaphoreRef fairRef() {
        core::SemaphoreRef r;
        r.kind = Kind::Fair;
        r.name = QString::fromLatin1(kName);
        r.profile.limit = 2;
        r.profile.timeoutMs = kLeaseMs;
        return r;
    }
    static core::AcquireResult acquire(core::SemaphoreStore &store, const QString &holder) {
        core::AcquireRequest request;
        request.holder = holder;
        request.ttlMs = kLeaseMs;
        return awaitCall<core::AcquireResult>(
                   [&](auto done) { store.acquire(fairRef(), request, core::Cancellation(), done); })
            .value_or(core::AcquireResult{});
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_server.start(), qPrintable(m_server.errorString())); }
    void init() { m_server.command({"FLUSHALL"}); }
    void cleanupTestCase() { m_server.stop(); }

    // Found by the property run: `fair` with its counter deleted (or evicted) restarted the tokens
    // at 1, below the holders' own, and ranked the newcomer ahead of them.
    void fairCounterLostGoesOnAboveTheHolders() {
        redis::RedisSemaphoreStore store(m_server.settings());
        QCOMPARE(acquire(store, QStringLiteral("a")).grant.token, std::optional<qint64>(1));
        QCOMPARE(acquire(store, QStringLiteral("b")).grant.token, std::optional<qint64>(2));
        m_server.command({"ZREM", kName, "a"});
        m_server.command({"ZREM", kName + ":owner", "a"});
        m_server.command({"DEL", kName + ":counter"});
        const core::AcquireResult c = acquire(store, QStringLiteral("c"));
        QCOMPARE(c.status, core::AcquireResult::Status::Granted);
        QVERIFY2(c.grant.token > std::optional<qint64>(2),
                 qPrintable(QString::number(c.grant.token.value_or(-1))));
        QCOMPARE(c.grant.rank, std::optional<qint64>(1)); // behind b, as its token says
    }

    // Found by the property run: with `S:owner` deleted, the holders in S had no rank left and
    // semscope's acquire ranked first and was granted on a full semaphore.
    void fairEntriesWithoutRankCountAgainstTheLimit() {
        redis::RedisSemaphoreStore store(m_server.settings());
        QCOMPARE(acquire(store, QStringLiteral("a")).status, core::AcquireResult::Status::Granted);
        QCOMPARE(acquire(store, QStringLiteral("b")).status, core::AcquireResult::Status::Granted);
        m_server.command({"DEL", kName + ":owner"});
        QCOMPARE(acquire(store, QStringLiteral("c")).status, core::AcquireResult::Status::Busy);
        QCOMPARE(m_server.command({"ZCARD", kName}).toInteger(), std::optional<qint64>(2));
        m_server.command({"ZREM", kName, "b"}); // b leaves: room for one
        QCOMPARE(acquire(store, QStringLiteral("c")).status, core::AcquireResult::Status::Granted);
    }

    // Found by the property run: a holder shown without a counter (its `:owner` entry lost) was
    // force-released whatever it had become since, a new acquisition included.
    void fairForceReleaseWithoutCounterComparesTheAcquisition() {
        redis::RedisSemaphoreStore store(m_server.settings());
        const core::AcquireResult first = acquire(store, QStringLiteral("a"));
        QCOMPARE(first.status, core::AcquireResult::Status::Granted);
        m_server.command({"DEL", kName + ":owner"});
        const auto snap = awaitCall<core::Snapshot>([&](auto done) { store.snapshot(fairRef(), done); });
        QVERIFY(snap && snap->holders.size() == 1);
        const core::Holder observed = snap->holders.at(0);
        QVERIFY(!observed.token);
        // a releases and acquires again before the operator acts.
        QVERIFY(awaitCall<core::ReleaseResult>([&](auto done) { store.release(first.grant, done); }));
        QCOMPARE(acquire(store, QStringLiteral("a")).status, core::AcquireResult::Status::Granted);
        const auto stale = awaitCall<core::ForceReleaseResult>(
            [&](auto done) { store.forceRelease(fairRef(), observed, snap->version, done); });
        QCOMPARE(stale->status, core::ForceReleaseResult::Status::Changed);
        QVERIFY(!m_server.command({"ZSCORE", kName, "a"}).isNil());
        // Seen again without a counter and unchanged since: released.
        m_server.command({"DEL", kName + ":owner"});
        const auto now = awaitCall<core::Snapshot>([&](auto done) { store.snapshot(fairRef(), done); });
        const auto released = awaitCall<core::ForceReleaseResult>(
            [&](auto done) { store.forceRelease(fairRef(), now->holders.at(0), now->version, done); });
        QCOMPARE(released->status, core::ForceReleaseResult::Status::Released);
        QVERIFY(m_server.command({"ZSCORE", kName, "a"}).isNil());
    }

    void invariantsHoldUnderInterleaving_data() {
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<quint32>("seed");
        const struct {
            const char *name;
            Kind kind;
            qint64 limit;
        } kinds[] = {{"leased", Kind::Leased, 3},
                     {"slots", Kind::Slots, 3},
                     {"fair", Kind::Fair, 2},
                     {"zset", Kind::Zset, 3},
                     {"lock", Kind::Lock, 1}};
        for (const auto &k : kinds) {
            for (const quint32 seed : {14001u, 14002u})
                QTest::addRow("%s seed %u", k.name, seed) << k.kind << k.limit << seed;
        }
    }
    void invariantsHoldUnderInterleaving() {
        QFETCH(Kind, kind);
        QFETCH(qint64, limit);
        QFETCH(quint32, seed);
        const QString violation = runRow(kind, limit, seed, Breakage::None);
        QVERIFY2(violation.isEmpty(), qPrintable(violation));
    }

    // The checks above can fail: against a store that refuses everything (nothing violated, but
    // nothing tested either) and one whose release says Ok and does nothing.
    void checksCatchABrokenStore_data() {
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<int>("breakage");
        QTest::addColumn<QString>("caught");
        const struct {
            const char *name;
            Kind kind;
            qint64 limit;
        } kinds[] = {{"leased", Kind::Leased, 3},
                     {"slots", Kind::Slots, 3},
                     {"fair", Kind::Fair, 2},
                     {"zset", Kind::Zset, 3},
                     {"lock", Kind::Lock, 1}};
        for (const auto &k : kinds) {
            QTest::addRow("%s, refuses everything", k.name)
                << k.kind << k.limit << int(Breakage::RefusesEverything)
                << QStringLiteral("semscope was granted 0 times");
            QTest::addRow("%s, release does nothing", k.name)
                << k.kind << k.limit << int(Breakage::ReleaseDoesNothing)
                << QStringLiteral("reported Ok, but");
        }
    }
    void checksCatchABrokenStore() {
        QFETCH(Kind, kind);
        QFETCH(qint64, limit);
        QFETCH(int, breakage);
        QFETCH(QString, caught);
        const QString violation = runRow(kind, limit, 14001u, Breakage(breakage));
        QVERIFY2(violation.contains(caught), qPrintable(QStringLiteral("not caught: ") + violation));
    }

private:
    // Runs one row; its first violation, with the seed and the steps that led there, or "".
    QString runRow(Kind kind, qint64 limit, quint32 seed, Breakage breakage) {
        PropertyRun run(m_server, kind, limit, seed, breakage);
        if (!run.ready())
            return QStringLiteral("the seed's scripts (tests/redis/seeds) were not found");
        const int steps = std::max(20, int(kSteps * testScale()));
        for (int i = 1; i <= steps; ++i) {
            const QString violation = run.step();
            if (!violation.isEmpty())
                return QStringLiteral("seed %1, step %2 of %3: %4\nlast steps:\n%5")
                    .arg(seed)
                    .arg(i)
                    .arg(steps)
                    .arg(violation, run.recentSteps());
        }
        qInfo("%s: %d grants to semscope in %d steps", QTest::currentDataTag(), run.semscopeGrants(), steps);
        const QString tooFew = run.finish(steps);
        return tooFew.isEmpty() ? QString() : QStringLiteral("seed %1: %2").arg(seed).arg(tooFew);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestSemaphoreProperties)
#include "tst_semaphoreproperties.moc"
