#pragma once

#include "CliCommand.h"
#include "CliContext.h"
#include "core/SemaphoreStore.h"

#include <QCommandLineOption>
#include <memory>

namespace semscope::cli {

// Options several semaphore commands share (one definition each, so the shared parser sees one).
QCommandLineOption kindOption();
QCommandLineOption limitOption();
QCommandLineOption timeoutOption();
QCommandLineOption ttlOption();
QCommandLineOption lockKeyOption();
QCommandLineOption replicasOption();
QCommandLineOption replicaTimeoutOption();
QCommandLineOption holderOption();
QCommandLineOption waitOption();

// Base of the commands that work on one semaphore (`show NAME`, `acquire NAME`, ...): checks the
// positional arguments, opens the store, waits until it is reachable, works out the semaphore's kind
// (--kind, or recognised from its keys) and profile (stored profile, overridden by --limit and
// --timeout), then calls run().
class SemaphoreCommand : public CliCommand {
public:
    void start(CliContext &ctx) final;
    // Its own options, and what finding the semaphore reads for every command (--kind, --limit,
    // --timeout, --lock-key: the profile of a layout that stores no limit or timeout).
    QStringList optionNames() const override;

protected:
    // Positional arguments after the command name, NAME included.
    virtual int argumentCount() const { return 1; }
    // Whether `count` positional arguments are what the command takes (`run` takes a command line).
    virtual bool takesArguments(qsizetype count) const { return count == argumentCount(); }
    // Checks the command's own options before anything is opened; false after ctx.fail().
    virtual bool validate(CliContext &ctx) { return true; }
    virtual void run(CliContext &ctx, core::SemaphoreStore &store, const core::SemaphoreRef &ref) = 0;

    // Finds `holderId` (printable or hex raw id) among the holders of `snapshot`.
    static const core::Holder *findHolder(const core::Snapshot &snapshot, const QString &holderId);
    // "HOLDER does not hold NAME", and, when HOLDER is the session name of a Consul holder (what
    // `acquire --holder` names there), which session id to give instead.
    static QString notHeldText(const core::Snapshot &snapshot, const QString &holderId);
    // The grant a holder seen in a snapshot stands for, so refresh/release compare its token/slot.
    static core::Grant grantFor(const core::Snapshot &snapshot, const core::Holder &holder);

    std::unique_ptr<core::SemaphoreStore> m_store;

private:
    void resolve(CliContext &ctx, const QString &name);
    void runWith(CliContext &ctx, core::SemaphoreRef ref);
};

// Parses a duration option; on a bad value fails the command with a usage error and returns nullopt.
std::optional<qint64> durationOption(CliContext &ctx, const QString &option, qint64 fallback);

// --replicas N and --replica-timeout DUR (Redis only; N from 0 to 100, the timeout up to 5 s); on a
// bad value fails the command with a usage error and returns false.
bool replicaOptions(CliContext &ctx, int *replicas, qint64 *timeoutMs);

} // namespace semscope::cli
