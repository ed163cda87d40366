#pragma once

#include <QCommandLineParser>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>
#include <QTextStream>
#include <memory>
#include <optional>

namespace semscope::core {
class AuditLog;
struct AuditEntry;
class SemaphoreStore;
} // namespace semscope::core

namespace semscope::cli {

// Exit codes shared by every command: 1 when the server refused the operation (busy, not held,
// changed, wrong type...), 2 for usage errors and whenever the server could not be asked at all
// (connection, timeout, protocol).
enum ExitCode { ExitOk = 0, ExitFailed = 1, ExitUsage = 2 };

// What a running command gets: the parsed command line, its positional arguments (after the
// command name), output streams and a way to finish.
class CliContext {
public:
    explicit CliContext(QCommandLineParser &parser);
    ~CliContext();

    QCommandLineParser &parser() { return m_parser; }
    const QStringList &args() const { return m_args; }
    bool json() const { return m_parser.isSet(QStringLiteral("json")); }
    QString value(const QString &option) const { return m_parser.value(option); }
    bool isSet(const QString &option) const { return m_parser.isSet(option); }

    QTextStream &out() { return m_out; }
    QTextStream &err() { return m_err; }

    // Prints a JSON document on stdout (compact when not a terminal, indented otherwise).
    void printJson(const QJsonValue &value);
    // One line on stderr, "semscope-cli: <endpoint>: <what failed>", then finish(code). The endpoint
    // is said once: copies of it inside `message` (transport errors name it too) are left out.
    // With --json, stdout gets {"status":"error","error","endpoint","exit_code"} too unless the
    // command already printed its own answer (busy, lost, changed...): a script reading stdout always
    // gets one JSON document, never nothing.
    void fail(int code, const QString &endpoint, const QString &message);
    // For an operation that ended in an error result: exit 2 when the store lost its connection
    // while it ran or a command got no reply (a Cluster master that is down), exit 1 when the server
    // answered with a refusal.
    void failOperation(const QString &endpoint, const QString &message);
    // Follows `store`'s connection state for failOperation().
    void watchConnection(core::SemaphoreStore &store);
    // Ends the command: flushes the streams and quits the event loop with `code`.
    void finish(int code);
    bool finished() const { return m_exitCode.has_value(); }
    int exitCode() const { return m_exitCode.value_or(ExitOk); }

    // Whether stderr is a terminal (for live progress lines).
    bool stderrIsTerminal() const;

    // The audit log every write of this run goes to (the app's, see core::AuditLog), made on first use.
    core::AuditLog &auditLog();
    // Writes `entry` to the audit log; a log that cannot be written is said once on stderr (the
    // write itself already happened, so the command's outcome stands).
    void audit(const core::AuditEntry &entry);
    void warnAuditNotWritten(const QString &why);
    // "semscope-cli: warning: <w>" on stderr for each of what a store could not do as asked.
    void warn(const QStringList &warnings);

private:
    QCommandLineParser &m_parser;
    QStringList m_args;
    QTextStream m_out;
    QTextStream m_err;
    std::optional<int> m_exitCode;
    bool m_jsonPrinted = false;
    bool m_connectionLost = false;
    std::unique_ptr<core::AuditLog> m_auditLog;
    bool m_auditWarned = false;
};

// The --json document of a failure: {"status":"error","error":message,"exit_code":code} and
// "endpoint" when there is one.
QJsonObject jsonError(int code, const QString &endpoint, const QString &message);

} // namespace semscope::cli
