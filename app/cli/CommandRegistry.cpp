#include "CliCommand.h"

// Each command's factory, defined in its own file.
namespace semscope::cli {
// (registry: declarations)
std::unique_ptr<CliCommand> makePingCommand();
std::unique_ptr<CliCommand> makeInfoCommand();
std::unique_ptr<CliCommand> makeSessionsCommand();
std::unique_ptr<CliCommand> makeInvalidateCommand();
std::unique_ptr<CliCommand> makeSandboxCommand();

std::vector<std::unique_ptr<CliCommand>> allCommands()
{
    std::vector<std::unique_ptr<CliCommand>> commands;
    // (registry: commands)
    commands.push_back(makePingCommand());
    commands.push_back(makeInfoCommand());
    commands.push_back(makeSessionsCommand());
    commands.push_back(makeInvalidateCommand());
    commands.push_back(makeSandboxCommand());
    return commands;
}

} // namespace semscope::cli
