#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>
#include <QStringList>
#include <memory>

namespace semscope::cli {

class CliContext;

// One `semscope-cli <command>`. Each command lives in its own file and registers itself in
// CommandRegistry.cpp. Options of all commands share one QCommandLineParser, so two commands that
// both take `--kind` declare the same option with the same meaning.
class CliCommand {
public:
    virtual ~CliCommand() = default;
    virtual QString name() const = 0;
    virtual QString summary() const = 0;         // one line for `--help`
    virtual QString usage() const { return {}; } // e.g. "NAME [--kind K]"
    virtual QList<QCommandLineOption> options() const { return {}; }
    // Every option name the command reads: its options(), and those a base class reads for it. Any
    // other option on its command line is refused: all commands share one parser, so an option of
    // another command would otherwise be taken and ignored.
    virtual QStringList optionNames() const {
        QStringList names;
        for (const QCommandLineOption &o : options())
            names << o.names();
        return names;
    }
    // Starts the command. It must end with exactly one ctx.finish(exitCode), now or later from the
    // event loop.
    virtual void start(CliContext &ctx) = 0;
};

// All commands, in `--help` order.
std::vector<std::unique_ptr<CliCommand>> allCommands();

} // namespace semscope::cli
