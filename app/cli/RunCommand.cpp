#include "BusyReport.h"
#include "ChildProcess.h"
#include "SemaphoreCommand.h"
#include "TerminationSignals.h"
#include "core/Duration.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTimer>
#include <algorithm>
#include <limits>
#include <memory>

namespace semscope::cli {

namespace {

QCommandLineOption graceOption() {
    return {QStringLiteral("grace"),
            QStringLiteral("run: how long COMMAND has between SIGTERM and SIGKILL when it must stop (default "
                           "5s, at most a third of the lease)."),
            QStringLiteral("DUR")};
}

// COMMAND as a shell would take it back: words with anything but plain characters in single quotes.
QString shellWords(const QStringList &words) {
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:=@%+,-]+$"));
    QStringList out;
    for (const QString &w : words)
        out << (plain.match(w).hasMatch()
                    ? w
                    : QLatin1Char('\'') + QString(w).replace(QLatin1Char('\''), QStringLiteral("'\\''")) +
                          QLatin1Char('\''));
    return out.join(QLatin1Char(' '));
}

int timerMs(qint64 ms) {
    return int(std::clamp<qint64>(ms, 0, std::numeric_limits<int>::max()));
}

// `run NAME -- COMMAND [ARGS...]`: `consul lock` for every layout. Takes a slot, runs COMMAND while it
// holds it (its holder id, fencing token and slot in the environment), keeps the lease alive, and
// releases the slot when COMMAND exits, with COMMAND's exit code. The slot is never outlived:
// - the slot was lost (force-released, expired): COMMAND is stopped at once;
// - the lease cannot be renewed (the server is unreachable): COMMAND gets SIGTERM early enough that
//   the SIGKILL after the grace period lands before the last confirmed lease runs out, counted from
//   when that refresh was sent, which is no later than the server started it.
class RunCommand : public SemaphoreCommand {
public:
    RunCommand()
        : m_child([this](int code) { onChildFinished(code); },
                  [this](const QString &why) { onChildFailedToStart(why); }) {}

    QString name() const override { return QStringLiteral("run"); }
    QString summary() const override {
        return QStringLiteral("Run COMMAND holding a slot: the lease is renewed while it runs, COMMAND is "
                              "stopped if the slot is lost, the slot released when it exits.");
    }
    QString usage() const override {
        return QStringLiteral(
            "NAME [--kind K] [--limit N] [--holder ID] [--ttl DUR] [--wait DUR] [--grace DUR] "
            "[--replicas N [--replica-timeout DUR]] -- COMMAND [ARGS...]");
    }
    QList<QCommandLineOption> options() const override {
        return {kindOption(), limitOption(), timeoutOption(), lockKeyOption(),  holderOption(),
                waitOption(), ttlOption(),   graceOption(),   replicasOption(), replicaTimeoutOption()};
    }

protected:
    bool takesArguments(qsizetype count) const override { return count >= 2; }

    bool validate(CliContext &ctx) override {
        if (ctx.json()) {
            ctx.fail(ExitUsage, {},
                     QStringLiteral("run hands stdout to COMMAND, so it has no --json document; "
                                    "COMMAND's exit code is run's"));
            return false;
        }
        const std::optional<qint64> ttl = durationOption(ctx, QStringLiteral("ttl"), 30000);
        const std::optional<qint64> wait =
            ttl ? durationOption(ctx, QStringLiteral("wait"), 0) : std::nullopt;
        const std::optional<qint64> grace =
            wait ? durationOption(ctx, QStringLiteral("grace"), 5000) : std::nullopt;
        // --replicas: the grant and every renewal count only once N replicas acknowledged them (the
        // store keeps the count in the grant, so its refreshes wait for them too).
        if (!grace || !replicaOptions(ctx, &m_request.replicas, &m_request.replicaTimeoutMs))
            return false;
        if (*ttl < 3) {
            ctx.fail(ExitUsage, {}, QStringLiteral("--ttl must be at least 3ms (it is renewed every third)"));
            return false;
        }
        m_request.ttlMs = *ttl;
        m_request.ttlGiven = ctx.isSet(QStringLiteral("ttl"));
        m_request.waitMs = *wait;
        m_request.holder = ctx.value(QStringLiteral("holder"));
        m_graceMs = std::min(*grace, *ttl / 3);
        m_command = ctx.args().mid(1);
        m_ctx = &ctx;
        return true;
    }

    void run(CliContext &ctx, core::SemaphoreStore &store, const core::SemaphoreRef &ref) override {
        m_store = &store;
        m_ref = ref;
        // Ctrl-C or SIGTERM: a wait leaves the queue; a running COMMAND is stopped and the slot released.
        m_signals = std::make_unique<TerminationSignals>([this](int signal) { onSignal(signal); });
        m_clock.start();
        const qint64 sentAt = m_clock.elapsed();
        store.acquire(
            ref, m_request, m_cancel, [this, &ctx, &store, ref, sentAt](const core::AcquireResult &r) {
                switch (r.status) {
                case core::AcquireResult::Status::Granted:
                    m_grant = r.grant;
                    ctx.warn(r.grant.warnings());
                    // A grant that waited began when a release handed it over, later than sentAt
                    // and unknown here: its lease is read back like one that came out different.
                    leaseConfirmed(sentAt, r.grant.expiresAtMs,
                                   !r.grant.warnings().isEmpty() || m_request.waitMs > 0,
                                   [this] { startChild(); });
                    return;
                case core::AcquireResult::Status::Error:
                    if (m_signal != 0)
                        return ctx.fail(
                            128 + m_signal, store.endpoint(),
                            QStringLiteral("interrupted by %1 while waiting; left the queue of %2; "
                                           "COMMAND did not run")
                                .arg(QLatin1String(TerminationSignals::name(m_signal)), ref.name));
                    ctx.failOperation(store.endpoint(), r.error + QStringLiteral("; COMMAND did not run"));
                    return;
                case core::AcquireResult::Status::Busy:
                    store.snapshot(ref, [&ctx, &store, r](const core::Snapshot &snap) {
                        reportBusy(ctx, store, r, snap);
                    });
                    return;
                }
            });
    }

private:
    // The lease the store confirmed, asked for at `sentAt` (m_clock): the slot is ours until sentAt plus
    // the lease at the latest. Exactly the --ttl asked for, unless `mayDiffer` (the store said it
    // came out different, or the grant waited in line); then the holder's expiry is read against
    // the server's clock. `then` runs once the deadline is known.
    void leaseConfirmed(qint64 sentAt, std::optional<qint64> expiresAtMs, bool mayDiffer,
                        std::function<void()> then) {
        if (!expiresAtMs) {
            // No lease (a `slots` holder without one): nobody else gets the slot until it is released.
            m_leaseMs.reset();
            then();
            return;
        }
        if (!mayDiffer) {
            setDeadline(sentAt, m_request.ttlMs);
            then();
            return;
        }
        // What is left of it as of the read, counted from when the read was sent (the server's clock
        // is read later than that).
        const qint64 readAt = m_clock.elapsed();
        m_store->snapshot(m_ref, [this, readAt, then](const core::Snapshot &snap) {
            const core::Holder *h = findHolder(snap, m_grant.holder);
            if (!h || !h->expiresAtMs || snap.serverNowMs <= 0) {
                // Unreadable: the lease the caller asked for is no promise, so only what is left of the
                // last confirmed one counts (none at the start: COMMAND is not started).
                if (!m_leaseMs)
                    return giveUp(
                        QStringLiteral("could not read the lease %1 was given").arg(m_grant.holder));
                then();
                return;
            }
            setDeadline(readAt, std::max<qint64>(0, *h->expiresAtMs - snap.serverNowMs));
            then();
        });
    }

    void setDeadline(qint64 sentAt, qint64 leaseMs) {
        m_leaseMs = leaseMs;
        m_leaseEndsAt = sentAt + leaseMs;
        // SIGTERM early enough that the SIGKILL after the grace period lands before the lease ends.
        m_deadline.setSingleShot(true);
        m_deadline.start(timerMs(m_leaseEndsAt - m_graceMs - m_clock.elapsed()));
    }

    void startChild() {
        if (m_ctx->finished())
            return;
        if (m_signal != 0) // a signal while the grant was on its way: COMMAND never starts
            return releaseThenFail(128 + m_signal,
                                   QStringLiteral("interrupted by %1 before COMMAND started")
                                       .arg(QLatin1String(TerminationSignals::name(m_signal))));
        QObject::connect(&m_deadline, &QTimer::timeout, &m_deadline, [this] { onDeadline(); });
        m_refreshTimer.setSingleShot(true);
        QObject::connect(&m_refreshTimer, &QTimer::timeout, &m_refreshTimer, [this] { refresh(); });
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SEMSCOPE_SEMAPHORE"), m_ref.name);
        env.insert(QStringLiteral("SEMSCOPE_KIND"), core::kindName(m_ref.kind));
        env.insert(QStringLiteral("SEMSCOPE_HOLDER"), m_grant.holder);
        if (m_grant.token)
            env.insert(QStringLiteral("SEMSCOPE_TOKEN"), QString::number(*m_grant.token));
        if (m_grant.slot)
            env.insert(QStringLiteral("SEMSCOPE_SLOT"), QString::number(*m_grant.slot));
        QString line = QStringLiteral("semscope-cli: %1 holds %2").arg(m_grant.holder, m_ref.name);
        if (m_grant.token)
            line += QStringLiteral(" (token %1)").arg(*m_grant.token);
        line += m_leaseMs
                    ? QStringLiteral("; lease %1, renewed every %2")
                          .arg(core::formatDurationMs(*m_leaseMs), core::formatDurationMs(refreshEveryMs()))
                    : QStringLiteral("; no lease: held until released");
        m_ctx->err() << line << QStringLiteral("; running %1\n").arg(shellWords(m_command));
        m_ctx->err().flush();
        m_running = true;
        m_child.start(m_command, env);
        if (m_running && m_leaseMs)
            m_refreshTimer.start(timerMs(refreshEveryMs()));
    }

    qint64 refreshEveryMs() const { return std::max<qint64>(1, m_leaseMs.value_or(m_request.ttlMs) / 3); }

    void refresh() {
        if (!m_running || m_child.stopping())
            return;
        const qint64 sentAt = m_clock.elapsed();
        m_store->refresh(m_grant, m_request.ttlMs, [this, sentAt](const core::RefreshResult &r) {
            if (!m_running || m_child.stopping())
                return;
            switch (r.status) {
            case core::RefreshResult::Status::Ok:
                m_lastRefreshError.clear();
                m_ctx->warn(r.warnings);
                leaseConfirmed(sentAt, r.expiresAtMs, !r.warnings.isEmpty(),
                               [this] { m_refreshTimer.start(timerMs(refreshEveryMs())); });
                return;
            case core::RefreshResult::Status::Lost:
                m_outcome = Outcome::Lost;
                m_reason = QStringLiteral("%1 lost its slot of %2 while COMMAND ran: %3")
                               .arg(m_grant.holder, m_ref.name, r.error);
                stopChild();
                return;
            case core::RefreshResult::Status::Error:
                // Tried again soon: the deadline, not one failure, decides when COMMAND must stop.
                m_lastRefreshError = r.error;
                m_refreshTimer.start(timerMs(std::min<qint64>(1000, refreshEveryMs())));
                return;
            }
        });
    }

    void onDeadline() {
        if (!m_running || m_child.stopping())
            return;
        m_outcome = Outcome::Unconfirmed;
        m_reason =
            QStringLiteral("the lease of %1 on %2 could not be renewed%3; COMMAND was stopped before it "
                           "ran out")
                .arg(m_grant.holder, m_ref.name,
                     m_lastRefreshError.isEmpty() ? QString()
                                                  : QStringLiteral(" (") + m_lastRefreshError + ')');
        stopChild();
    }

    void stopChild() {
        m_ctx->err() << QStringLiteral("semscope-cli: stopping %1 (SIGTERM, SIGKILL after %2)\n")
                            .arg(m_command.constFirst(), core::formatDurationMs(m_graceMs));
        m_ctx->err().flush();
        m_child.stop(m_graceMs);
    }

    void onSignal(int signal) {
        m_signal = signal;
        if (m_running)
            m_child.stop(m_graceMs);
        else
            m_cancel.cancel(); // a waiting acquire leaves the queue, then answers
    }

    void onChildFinished(int code) {
        m_running = false;
        m_refreshTimer.stop();
        m_deadline.stop();
        switch (m_outcome) {
        case Outcome::Lost:
            // Nothing to release: the slot is somebody else's now.
            m_ctx->fail(ExitFailed, m_store->endpoint(),
                        m_reason + QStringLiteral(" (it ended with %1)").arg(code));
            return;
        case Outcome::Unconfirmed:
            releaseThenFail(ExitUsage, m_reason + QStringLiteral(" (it ended with %1)").arg(code));
            return;
        case Outcome::Running:
            break;
        }
        if (m_signal != 0)
            return releaseThenFail(128 + m_signal,
                                   QStringLiteral("interrupted by %1: COMMAND stopped (it ended with %2)")
                                       .arg(QLatin1String(TerminationSignals::name(m_signal)))
                                       .arg(code));
        m_store->release(m_grant, [this, code](const core::ReleaseResult &r) {
            switch (r.status) {
            case core::ReleaseResult::Status::Ok:
                m_ctx->finish(code);
                return;
            case core::ReleaseResult::Status::NotHeld:
                // The lease ran out or the holder was force-released after the last renewal: COMMAND may
                // have run beside another holder for that while, and the caller must hear it.
                m_ctx->fail(ExitFailed, m_store->endpoint(),
                            QStringLiteral("COMMAND ended with %1, but %2 no longer held %3 when it was "
                                           "released: another holder may have run beside it at the end")
                                .arg(code)
                                .arg(m_grant.holder, m_ref.name));
                return;
            case core::ReleaseResult::Status::Error:
                m_ctx->failOperation(m_store->endpoint(),
                                     QStringLiteral("COMMAND ended with %1, but releasing %2 failed: %3")
                                             .arg(code)
                                             .arg(m_ref.name, r.error) +
                                         leaseEndText());
                return;
            }
        });
    }

    void onChildFailedToStart(const QString &why) {
        m_running = false;
        m_refreshTimer.stop();
        m_deadline.stop();
        // The shells' code for a command that could not be run.
        releaseThenFail(127, QStringLiteral("cannot run %1: %2; %3 was released")
                                 .arg(m_command.constFirst(), why, m_ref.name));
    }

    // Gives the slot back (whatever that says), then fails with `code` and `message`.
    void releaseThenFail(int code, const QString &message) {
        m_store->release(m_grant, [this, code, message](const core::ReleaseResult &r) {
            QString text = message;
            if (r.status == core::ReleaseResult::Status::Error)
                text +=
                    QStringLiteral("; releasing %1 failed too: %2").arg(m_ref.name, r.error) + leaseEndText();
            m_ctx->fail(code, m_store->endpoint(), text);
        });
    }

    void giveUp(const QString &why) {
        releaseThenFail(ExitUsage, why + QStringLiteral("; COMMAND did not run"));
    }

    QString leaseEndText() const {
        if (!m_leaseMs)
            return QStringLiteral(" (it has no lease: release it with semscope-cli release)");
        return QStringLiteral(" (its lease ends by itself within %1)")
            .arg(core::formatDurationMs(std::max<qint64>(0, m_leaseEndsAt - m_clock.elapsed())));
    }

    enum class Outcome {
        Running,     // COMMAND runs (or ran) holding the slot
        Lost,        // a renewal found the slot gone
        Unconfirmed, // no renewal got through before the lease would end
    };

    CliContext *m_ctx = nullptr;
    core::SemaphoreStore *m_store = nullptr;
    core::SemaphoreRef m_ref;
    core::AcquireRequest m_request;
    core::Grant m_grant;
    core::Cancellation m_cancel;
    QStringList m_command;
    qint64 m_graceMs = 5000;
    std::unique_ptr<TerminationSignals> m_signals;
    int m_signal = 0;
    QElapsedTimer m_clock;
    std::optional<qint64> m_leaseMs; // the lease confirmed last; none: held until released
    qint64 m_leaseEndsAt = 0;        // m_clock ms
    QTimer m_refreshTimer;
    QTimer m_deadline;
    QString m_lastRefreshError;
    Outcome m_outcome = Outcome::Running;
    QString m_reason;
    bool m_running = false;
    ChildProcess m_child;
};

} // namespace

std::unique_ptr<CliCommand> makeRunCommand() {
    return std::make_unique<RunCommand>();
}

} // namespace semscope::cli
