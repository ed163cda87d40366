#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QStringList>

namespace semscope::cli {

// QCommandLineParser reads every argument that starts with '-' as an option, so `set-limit jobs -1`
// ended in "Unknown option '1'." before the command could say what is wrong with the number. An
// argument made of '-' and a digit names no option (no option of semscope-cli starts with a digit):
// unless it is the value of the option before it (`--limit -3`, which the parser takes as that
// value anyway), it is a positional argument. Returns `arguments` (program name first) with the
// positional ones moved after a "--", in their order, when there is such a number among them, so that
// the parser hands it to the command; otherwise `arguments` unchanged. `options`: every option the
// parser knows, to tell which ones take the next argument as their value.
QStringList negativeNumbersAsPositional(const QStringList &arguments,
                                        const QList<QCommandLineOption> &options);

} // namespace semscope::cli
