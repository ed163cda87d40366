#include "CliCommand.h"

// Each command's factory, defined in its own file.
namespace semscope::cli {
// (registry: declarations)

std::vector<std::unique_ptr<CliCommand>> allCommands()
{
    std::vector<std::unique_ptr<CliCommand>> commands;
    // (registry: commands)
    return commands;
}

} // namespace semscope::cli
