#include "SemaphoreCommand.h"
#include "SnapshotJson.h"
#include "WholeNumber.h"
#include "core/ProfileStore.h"

namespace semscope::cli {

namespace {

// `set-limit NAME N`: changes a semaphore's limit where it lives.
// - Layouts that store it (slots, leased, consul): one atomic write in the server (the store's
//   setLimit); a stored profile limit for the same semaphore is brought along, so show/list agree.
// - Layouts that do not (fair, zset, node-semaphore, Redisson RSemaphore's capacity): the limit is a
//   semscope profile value, so it is saved in the profile and nothing is written to the server. The
//   output says so. A profile also makes an idle Redisson RSemaphore visible to `list`.
// - Mutexes (lock, consul-mutex, redisson-lock, node-mutex): the limit is 1; exit 1, nothing written.
class SetLimitCommand : public SemaphoreCommand {
public:
    QString name() const override { return QStringLiteral("set-limit"); }
    QString summary() const override {
        return QStringLiteral("Change a semaphore's limit: in the server where the layout stores it, "
                              "else in semscope's profile.");
    }
    QString usage() const override { return QStringLiteral("NAME N [--kind K]"); }
    QList<QCommandLineOption> options() const override { return {kindOption()}; }

protected:
    int argumentCount() const override { return 2; }

    bool validate(CliContext &ctx) override {
        const std::optional<qint64> limit =
            wholeNumberArgument(ctx, QStringLiteral("set-limit: the limit"), ctx.args().at(1), 1);
        m_limit = limit.value_or(0);
        return limit.has_value();
    }

    void run(CliContext &ctx, core::SemaphoreStore &store, const core::SemaphoreRef &ref) override {
        if (core::limitStorage(ref.kind) == core::LimitStorage::Profile) {
            saveProfile(ctx, store, ref);
            return;
        }
        if (core::limitStorage(ref.kind) == core::LimitStorage::Fixed) {
            // Refused here for every backend: writing a limit into a mutex's record (a `consul lock
            // -n 1` .lock, say) would only make its clients report a conflict.
            core::MaintenanceResult r;
            r.message = QStringLiteral("%1 is a mutex: its limit is always 1").arg(core::kindName(ref.kind));
            if (ctx.json())
                ctx.printJson(resultJson(ref, r, m_limit, {}));
            ctx.failOperation(store.endpoint(), r.message);
            return;
        }
        const qint64 limit = m_limit;
        store.setLimit(ref, limit, [&ctx, &store, ref, limit](const core::MaintenanceResult &r) {
            if (r.ok)
                bringProfileAlong(store.endpoint(), ref, limit);
            if (ctx.json())
                ctx.printJson(resultJson(ref, r, limit, QStringLiteral("stored")));
            if (!r.ok) {
                ctx.failOperation(store.endpoint(), r.message);
                return;
            }
            if (!ctx.json())
                ctx.out() << (r.message.isEmpty()
                                  ? QStringLiteral("limit of %1 is now %2").arg(ref.name).arg(limit)
                                  : r.message)
                          << '\n';
            ctx.finish(ExitOk);
        });
    }

private:
    static QJsonObject resultJson(const core::SemaphoreRef &ref, const core::MaintenanceResult &r,
                                  qint64 limit, const QString &source) {
        QJsonObject o = maintenanceToJson(r);
        o.insert(QStringLiteral("kind"), core::kindName(ref.kind));
        o.insert(QStringLiteral("name"), ref.name);
        if (r.ok) {
            o.insert(QStringLiteral("limit"), static_cast<double>(limit));
            o.insert(QStringLiteral("limit_source"), source);
        }
        return o;
    }

    // A stored limit just changed: a profile limit that still says the old value would make every
    // later read show the stale one (profiles override what a layout implies for `slots`).
    static void bringProfileAlong(const QString &endpoint, const core::SemaphoreRef &ref, qint64 limit) {
        core::ProfileStore profiles;
        std::optional<core::SemaphoreProfile> stored = profiles.load(endpoint, ref.kind, ref.name);
        if (!stored || !stored->limit || *stored->limit == limit)
            return;
        stored->limit = limit;
        profiles.save(endpoint, ref.kind, ref.name, *stored);
    }

    void saveProfile(CliContext &ctx, core::SemaphoreStore &store, const core::SemaphoreRef &ref) {
        core::ProfileStore profiles;
        core::SemaphoreProfile profile =
            profiles.load(store.endpoint(), ref.kind, ref.name).value_or(core::SemaphoreProfile{});
        profile.limit = m_limit;
        profile.inferred = false; // the operator said so
        profiles.save(store.endpoint(), ref.kind, ref.name, profile);
        core::MaintenanceResult r;
        r.ok = true;
        r.message =
            QStringLiteral("%1 does not store its limit in Redis: saved %2 as the profile limit of %3 "
                           "for %4 (semscope's profile; nothing was written to the server, and "
                           "the semaphore's own clients keep passing their own limit)")
                .arg(core::kindName(ref.kind))
                .arg(m_limit)
                .arg(ref.name, store.endpoint());
        if (ctx.json())
            ctx.printJson(resultJson(ref, r, m_limit, QStringLiteral("profile")));
        else
            ctx.out() << r.message << '\n';
        ctx.finish(ExitOk);
    }

    qint64 m_limit = 0;
};

} // namespace

std::unique_ptr<CliCommand> makeSetLimitCommand() {
    return std::make_unique<SetLimitCommand>();
}

} // namespace semscope::cli
