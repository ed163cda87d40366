#include "SemaphoreCommand.h"

#include "StoreFromOptions.h"
#include "WholeNumber.h"
#include "core/Duration.h"
#include "core/GlobPattern.h"
#include "core/ProfileStore.h"

#include <QRegularExpression>

namespace semscope::cli {

QCommandLineOption kindOption() {
    return {QStringLiteral("kind"),
            QStringLiteral("Semaphore layout: %1. Default: recognised from the keys.")
                .arg(core::allKindNames().join(QStringLiteral(", "))),
            QStringLiteral("K")};
}

QCommandLineOption limitOption() {
    return {QStringLiteral("limit"),
            QStringLiteral("Limit for layouts that do not store one (and the limit a new leased semaphore "
                           "is created with)."),
            QStringLiteral("N")};
}

QCommandLineOption timeoutOption() {
    return {QStringLiteral("timeout"),
            QStringLiteral("Holder timeout for layouts that do not store one (fair)."),
            QStringLiteral("DUR")};
}

QCommandLineOption ttlOption() {
    return {
        QStringLiteral("ttl"),
        QStringLiteral("Lease to take or extend, e.g. 30s (default 30s). An acquire given one never holds "
                       "the slot longer: a layout without leases, or with a longer shared timeout, "
                       "refuses it."),
        QStringLiteral("DUR")};
}

QCommandLineOption lockKeyOption() {
    return {QStringLiteral("lock-key"),
            QStringLiteral("fair: key of the outer lock the semaphore's clients take around an acquire "
                           "(default: both lock:NAME and NAMElock)."),
            QStringLiteral("KEY")};
}

QCommandLineOption replicasOption() {
    return {QStringLiteral("replicas"),
            QStringLiteral("Redis: a grant (and each refresh) counts only once N replicas acknowledged it "
                           "(WAIT); otherwise it is released and reported. Default 0."),
            QStringLiteral("N")};
}

QCommandLineOption replicaTimeoutOption() {
    return {QStringLiteral("replica-timeout"),
            QStringLiteral("With --replicas: how long to wait for the acknowledgements (default 1s, at most "
                           "5s)."),
            QStringLiteral("DUR")};
}

QCommandLineOption holderOption() {
    return {QStringLiteral("holder"), QStringLiteral("Holder id (token for lock). Default: host:pid:random."),
            QStringLiteral("ID")};
}

QCommandLineOption waitOption() {
    return {QStringLiteral("wait"), QStringLiteral("Wait up to this long for a slot (default: try once)."),
            QStringLiteral("DUR")};
}

bool replicaOptions(CliContext &ctx, int *replicas, qint64 *timeoutMs) {
    const std::optional<qint64> n = wholeNumberOption(ctx, QStringLiteral("replicas"), 0, 0, 100);
    if (!n)
        return false;
    *replicas = int(*n);
    const std::optional<qint64> timeout = durationOption(ctx, QStringLiteral("replica-timeout"), 1000);
    if (!timeout)
        return false;
    if (*timeout < 1 || *timeout > 5000) {
        ctx.fail(ExitUsage, {}, QStringLiteral("--replica-timeout must be from 1ms to 5s"));
        return false;
    }
    if (ctx.isSet(QStringLiteral("replica-timeout")) && *replicas == 0) {
        ctx.fail(ExitUsage, {}, QStringLiteral("--replica-timeout goes with --replicas N"));
        return false;
    }
    *timeoutMs = *timeout;
    return true;
}

std::optional<qint64> durationOption(CliContext &ctx, const QString &option, qint64 fallback) {
    if (!ctx.isSet(option))
        return fallback;
    const std::optional<qint64> ms = core::parseDurationMs(ctx.value(option));
    // A number with its unit that still does not parse is past what a duration can hold.
    static const QRegularExpression wellFormed(QStringLiteral("^\\s*\\d+(\\.\\d+)?\\s*(ms|s|m|h)\\s*$"));
    if (!ms && wellFormed.match(ctx.value(option)).hasMatch()) {
        ctx.fail(ExitUsage, {},
                 QStringLiteral("--%1: '%2' is too long to be a duration").arg(option, ctx.value(option)));
        return std::nullopt;
    }
    if (!ms || *ms < 0) {
        ctx.fail(ExitUsage, {},
                 QStringLiteral(
                     "--%1: '%2' is not a duration: give a number with its unit, e.g. 250ms, 10s, 2m, 1h")
                     .arg(option, ctx.value(option)));
        return std::nullopt;
    }
    return ms;
}

QStringList SemaphoreCommand::optionNames() const {
    QStringList names = CliCommand::optionNames();
    for (const QCommandLineOption &o : {kindOption(), limitOption(), timeoutOption(), lockKeyOption()})
        names << o.names();
    return names;
}

void SemaphoreCommand::start(CliContext &ctx) {
    if (!takesArguments(ctx.args().size())) {
        ctx.fail(ExitUsage, {}, QStringLiteral("usage: semscope-cli %1 %2").arg(name(), usage()));
        return;
    }
    if (ctx.isSet(QStringLiteral("kind")) && !core::kindFromName(ctx.value(QStringLiteral("kind")))) {
        ctx.fail(
            ExitUsage, {},
            QStringLiteral("--kind: unknown kind '%1'; known: %2")
                .arg(ctx.value(QStringLiteral("kind")), core::allKindNames().join(QStringLiteral(", "))));
        return;
    }
    if (!wholeNumberOption(ctx, QStringLiteral("limit"), 1, 1))
        return;
    if (!durationOption(ctx, QStringLiteral("timeout"), 0) || !validate(ctx))
        return;
    QString error;
    m_store = openStore(ctx, &error);
    if (!m_store) {
        ctx.fail(ExitUsage, {}, error);
        return;
    }
    const QString name = ctx.args().constFirst();
    whenReachable(ctx, *m_store, [this, &ctx, name] { resolve(ctx, name); });
}

void SemaphoreCommand::resolve(CliContext &ctx, const QString &name) {
    if (ctx.isSet(QStringLiteral("kind"))) {
        core::SemaphoreRef ref;
        ref.kind = *core::kindFromName(ctx.value(QStringLiteral("kind")));
        ref.name = name;
        runWith(ctx, ref);
        return;
    }
    // Recognise the kind from the keys around NAME (a SCAN with MATCH, never KEYS).
    core::DiscoverRequest request;
    request.match = core::GlobPattern::containing(core::GlobPattern::escape(name));
    request.known = core::ProfileStore().named(m_store->endpoint()); // idle Redisson semaphores
    m_store->discover(
        request, core::Cancellation(), {}, [this, &ctx, name](const core::DiscoverResult &result) {
            if (!result.ok) {
                // The lookup reads every master: one that is down stops it, even for a name served
                // by another. --kind skips the lookup.
                ctx.failOperation(
                    m_store->endpoint(),
                    QStringLiteral("looking for %1: %2 (--kind K reads %1 without looking it up)")
                        .arg(name, result.error));
                return;
            }
            QList<core::DiscoveredSemaphore> matches;
            for (const core::DiscoveredSemaphore &d : result.semaphores) {
                if (d.ref.name == name && core::backendOf(d.ref.kind) == m_store->backend())
                    matches << d;
            }
            if (matches.isEmpty()) {
                ctx.fail(ExitFailed, m_store->endpoint(),
                         QStringLiteral("no semaphore called %1 was found; pass --kind to name its layout")
                             .arg(name));
                return;
            }
            if (matches.size() > 1) {
                QStringList kinds;
                for (const auto &m : matches)
                    kinds << core::kindName(m.ref.kind);
                ctx.fail(ExitUsage, m_store->endpoint(),
                         QStringLiteral("%1 matches several layouts (%2); pass --kind")
                             .arg(name, kinds.join(QStringLiteral(", "))));
                return;
            }
            runWith(ctx, matches.constFirst().ref);
        });
}

void SemaphoreCommand::runWith(CliContext &ctx, core::SemaphoreRef ref) {
    // Stored profile first (recognition may have inferred values), then what the command line says.
    core::ProfileStore profiles;
    ref.profile = profiles.resolve(m_store->endpoint(), ref);
    if (ctx.isSet(QStringLiteral("limit"))) {
        const qint64 limit = ctx.value(QStringLiteral("limit")).toLongLong();
        // A mutex's limit is not a setting: taking --limit 3 quietly would let an operator believe
        // three holders may share what admits one.
        if (core::limitStorage(ref.kind) == core::LimitStorage::Fixed && limit != 1) {
            ctx.fail(ExitUsage, {},
                     QStringLiteral("--limit %1: %2 is a %3, which admits one holder; its limit is always 1")
                         .arg(limit)
                         .arg(ref.name, core::kindName(ref.kind)));
            return;
        }
        ref.profile.limit = limit;
        ref.profile.inferred = false;
    }
    if (ctx.isSet(QStringLiteral("lock-key")))
        ref.profile.outerLockKey = ctx.value(QStringLiteral("lock-key"));
    if (ctx.isSet(QStringLiteral("timeout"))) {
        ref.profile.timeoutMs = core::parseDurationMs(ctx.value(QStringLiteral("timeout")));
        ref.profile.timeoutInferred = false;
    }
    run(ctx, *m_store, ref);
}

const core::Holder *SemaphoreCommand::findHolder(const core::Snapshot &snapshot, const QString &holderId) {
    for (const core::Holder &h : snapshot.holders) {
        if (h.state == core::HolderState::Waiting)
            continue;
        if (h.id == holderId || h.rawId == holderId.toUtf8() ||
            (holderId.startsWith(QLatin1String("0x")) &&
             h.rawId.toHex() == holderId.mid(2).toLatin1().toLower()))
            return &h;
    }
    return nullptr;
}

QString SemaphoreCommand::notHeldText(const core::Snapshot &snapshot, const QString &holderId) {
    QString text = QStringLiteral("%1 does not hold %2").arg(holderId, snapshot.ref.name);
    QStringList sessions;
    for (const core::Holder &h : snapshot.holders) {
        if (h.state != core::HolderState::Waiting &&
            h.details.value(QStringLiteral("sessionName")).toString() == holderId)
            sessions << h.id;
    }
    if (!sessions.isEmpty())
        text += QStringLiteral(" (a Consul holder is its session id; %1 names the session %2: give that)")
                    .arg(holderId, sessions.join(QStringLiteral(", ")));
    return text;
}

core::Grant SemaphoreCommand::grantFor(const core::Snapshot &snapshot, const core::Holder &holder) {
    core::Grant g;
    g.ref = snapshot.ref;
    g.holder = holder.id;
    g.rawHolder = holder.rawId;
    g.slot = holder.slot;
    g.rank = holder.rank;
    g.token = holder.token;
    g.expiresAtMs = holder.expiresAtMs;
    g.details = holder.details;
    return g;
}

} // namespace semscope::cli
