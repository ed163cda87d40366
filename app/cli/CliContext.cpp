#include "CliContext.h"

#include "core/PrintableText.h"
#include "core/SemaphoreStore.h"
#include "core/audit/AuditLog.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdio>
#include <unistd.h>

namespace semscope::cli {

CliContext::CliContext(QCommandLineParser &parser)
    : m_parser(parser)
    , m_args(parser.positionalArguments().mid(1))
    , m_out(stdout)
    , m_err(stderr) {}

void CliContext::printJson(const QJsonValue &value) {
    const auto format = isatty(STDOUT_FILENO) ? QJsonDocument::Indented : QJsonDocument::Compact;
    QJsonDocument doc;
    if (value.isArray())
        doc = QJsonDocument(value.toArray());
    else
        doc = QJsonDocument(value.toObject());
    m_out << doc.toJson(format);
    if (format == QJsonDocument::Compact)
        m_out << '\n';
    m_out.flush();
    m_jsonPrinted = true;
}

QJsonObject jsonError(int code, const QString &endpoint, const QString &message) {
    QJsonObject o{{QStringLiteral("status"), QStringLiteral("error")},
                  {QStringLiteral("error"), message},
                  {QStringLiteral("exit_code"), code}};
    if (!endpoint.isEmpty())
        o.insert(QStringLiteral("endpoint"), endpoint);
    return o;
}

void CliContext::fail(int code, const QString &endpoint, const QString &message) {
    QString line = QStringLiteral("semscope-cli: ");
    QString text = message;
    if (!endpoint.isEmpty()) {
        line += endpoint + QStringLiteral(": ");
        text.remove(endpoint + QStringLiteral(": "));
    }
    // The last gate before the terminal: a message may quote what a server said.
    const QString said = core::printableServerText(text, 2000);
    line += said;
    m_err << line << '\n';
    if (json() && !m_jsonPrinted)
        printJson(jsonError(code, endpoint, said));
    finish(code);
}

void CliContext::failOperation(const QString &endpoint, const QString &message) {
    // "no reply: ..." is how a Redis store says a command never got an answer (kinds::failureText):
    // on a Cluster that is another master than the one the connection state follows.
    const bool notHeard = m_connectionLost || message.contains(QLatin1String("no reply: "));
    fail(notHeard ? ExitUsage : ExitFailed, endpoint, message);
}

void CliContext::watchConnection(core::SemaphoreStore &store) {
    // Stores report a lost connection before they fail the calls that were waiting on it.
    QObject::connect(
        &store, &core::SemaphoreStore::connectionStateChanged, &store,
        [this](const QString &state) { m_connectionLost = !state.startsWith(QLatin1String("connected")); });
}

CliContext::~CliContext() = default;

core::AuditLog &CliContext::auditLog() {
    if (!m_auditLog)
        m_auditLog = std::make_unique<core::AuditLog>();
    return *m_auditLog;
}

void CliContext::audit(const core::AuditEntry &entry) {
    if (!auditLog().append(entry))
        warnAuditNotWritten(auditLog().lastError());
}

void CliContext::warnAuditNotWritten(const QString &why) {
    if (m_auditWarned)
        return;
    m_auditWarned = true;
    m_err << "semscope-cli: warning: audit log not written: " << core::printableServerText(why) << '\n';
    m_err.flush();
}

void CliContext::warn(const QStringList &warnings) {
    for (const QString &w : warnings)
        m_err << "semscope-cli: warning: " << core::printableServerText(w) << '\n';
    m_err.flush();
}

void CliContext::finish(int code) {
    if (m_exitCode)
        return;
    m_exitCode = code;
    m_out.flush();
    m_err.flush();
    QCoreApplication::exit(code);
}

bool CliContext::stderrIsTerminal() const {
    return isatty(STDERR_FILENO);
}

} // namespace semscope::cli
