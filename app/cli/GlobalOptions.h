#pragma once

#include <QCommandLineOption>
#include <QList>

namespace semscope::cli {

// Options every command understands: where to connect and how to print.
QList<QCommandLineOption> globalOptions();

} // namespace semscope::cli
