#pragma once

#include <QCommandLineParser>
#include <QJsonValue>
#include <QStringList>
#include <QTextStream>
#include <optional>

namespace semscope::cli {

// Exit codes shared by every command.
enum ExitCode { ExitOk = 0, ExitFailed = 1, ExitUsage = 2 };

// What a running command gets: the parsed command line, its positional arguments (after the
// command name), output streams and a way to finish.
class CliContext {
public:
    explicit CliContext(QCommandLineParser &parser);

    QCommandLineParser &parser() { return m_parser; }
    const QStringList &args() const { return m_args; }
    bool json() const { return m_parser.isSet(QStringLiteral("json")); }
    QString value(const QString &option) const { return m_parser.value(option); }
    bool isSet(const QString &option) const { return m_parser.isSet(option); }

    QTextStream &out() { return m_out; }
    QTextStream &err() { return m_err; }

    // Prints a JSON document on stdout (compact when not a terminal, indented otherwise).
    void printJson(const QJsonValue &value);
    // One line on stderr, "semscope-cli: <endpoint>: <what failed>", then finish(code).
    void fail(int code, const QString &endpoint, const QString &message);
    // Ends the command: flushes the streams and quits the event loop with `code`.
    void finish(int code);
    bool finished() const { return m_exitCode.has_value(); }
    int exitCode() const { return m_exitCode.value_or(ExitOk); }

    // Whether stderr is a terminal (for live progress lines).
    bool stderrIsTerminal() const;

private:
    QCommandLineParser &m_parser;
    QStringList m_args;
    QTextStream m_out;
    QTextStream m_err;
    std::optional<int> m_exitCode;
};

} // namespace semscope::cli
