#include "CliCommand.h"

// Each command's factory, defined in its own file.
namespace semscope::cli {
// (registry: declarations)
std::unique_ptr<CliCommand> makePingCommand();
std::unique_ptr<CliCommand> makeInfoCommand();
std::unique_ptr<CliCommand> makeSessionsCommand();
std::unique_ptr<CliCommand> makeInvalidateCommand();
std::unique_ptr<CliCommand> makeSandboxCommand();
std::unique_ptr<CliCommand> makeLoadtestCommand();
std::unique_ptr<CliCommand> makeListCommand();
std::unique_ptr<CliCommand> makeShowCommand();
std::unique_ptr<CliCommand> makeAcquireCommand();
std::unique_ptr<CliCommand> makeRunCommand();
std::unique_ptr<CliCommand> makeRefreshCommand();
std::unique_ptr<CliCommand> makeReleaseCommand();
std::unique_ptr<CliCommand> makeForceReleaseCommand();
std::unique_ptr<CliCommand> makePurgeCommand();
std::unique_ptr<CliCommand> makeRepairCommand();
std::unique_ptr<CliCommand> makeSetLimitCommand();
std::unique_ptr<CliCommand> makeWatchCommand();
std::unique_ptr<CliCommand> makeServeCommand();
std::unique_ptr<CliCommand> makeTopologyCommand();

std::vector<std::unique_ptr<CliCommand>> allCommands() {
    std::vector<std::unique_ptr<CliCommand>> commands;
    // (registry: commands)
    commands.push_back(makePingCommand());
    commands.push_back(makeInfoCommand());
    commands.push_back(makeSessionsCommand());
    commands.push_back(makeInvalidateCommand());
    commands.push_back(makeSandboxCommand());
    commands.push_back(makeLoadtestCommand());
    commands.push_back(makeListCommand());
    commands.push_back(makeShowCommand());
    commands.push_back(makeAcquireCommand());
    commands.push_back(makeRunCommand());
    commands.push_back(makeRefreshCommand());
    commands.push_back(makeReleaseCommand());
    commands.push_back(makeForceReleaseCommand());
    commands.push_back(makePurgeCommand());
    commands.push_back(makeRepairCommand());
    commands.push_back(makeSetLimitCommand());
    commands.push_back(makeWatchCommand());
    commands.push_back(makeServeCommand());
    commands.push_back(makeTopologyCommand());
    return commands;
}

} // namespace semscope::cli
