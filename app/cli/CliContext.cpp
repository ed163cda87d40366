#include "CliContext.h"

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
}

void CliContext::fail(int code, const QString &endpoint, const QString &message) {
    QString line = QStringLiteral("semscope-cli: ");
    if (!endpoint.isEmpty())
        line += endpoint + QStringLiteral(": ");
    line += message;
    line.replace(QLatin1Char('\n'), QLatin1Char(' '));
    m_err << line << '\n';
    finish(code);
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
