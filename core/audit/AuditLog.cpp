#include "AuditLog.h"

#include "core/PrintableText.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QSysInfo>
#include <pwd.h>
#include <unistd.h>

namespace semscope::core {

QJsonObject AuditEntry::toJson() const {
    QJsonObject o;
    o.insert(QStringLiteral("time"), time.toUTC().toString(Qt::ISODateWithMs));
    o.insert(QStringLiteral("user"), user);
    o.insert(QStringLiteral("host"), host);
    o.insert(QStringLiteral("connection"), connection);
    o.insert(QStringLiteral("environment"), environment);
    o.insert(QStringLiteral("semaphore"), semaphore);
    o.insert(QStringLiteral("action"), action);
    o.insert(QStringLiteral("holder"), holder);
    o.insert(QStringLiteral("observed"), observed);
    o.insert(QStringLiteral("result"), result);
    if (!message.isEmpty())
        o.insert(QStringLiteral("message"), message);
    return o;
}

AuditEntry AuditEntry::fromJson(const QJsonObject &o) {
    AuditEntry e;
    e.time = QDateTime::fromString(o.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
    e.user = o.value(QStringLiteral("user")).toString();
    e.host = o.value(QStringLiteral("host")).toString();
    e.connection = o.value(QStringLiteral("connection")).toString();
    e.environment = o.value(QStringLiteral("environment")).toString();
    e.semaphore = o.value(QStringLiteral("semaphore")).toString();
    e.action = o.value(QStringLiteral("action")).toString();
    e.holder = o.value(QStringLiteral("holder")).toString();
    e.observed = o.value(QStringLiteral("observed")).toObject();
    e.result = o.value(QStringLiteral("result")).toString();
    e.message = o.value(QStringLiteral("message")).toString();
    return e;
}

AuditLog::AuditLog(QString filePath, QObject *parent)
    : QObject(parent)
    , m_filePath(filePath.isEmpty() ? defaultFilePath() : std::move(filePath)) {
    qRegisterMetaType<AuditEntry>();
}

QString AuditLog::defaultFilePath() {
    // Not AppDataLocation: that folder is named after the running program, and the CLI must write
    // where the app reads.
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/semscope/semscope/audit.jsonl");
}

QString AuditLog::currentUser() {
    QString user = qEnvironmentVariable("USER");
    if (user.isEmpty())
        user = qEnvironmentVariable("LOGNAME");
    if (user.isEmpty())
        user = qEnvironmentVariable("USERNAME");
    if (user.isEmpty()) {
        // Services and test runners often have no USER in their environment.
        if (const passwd *pw = ::getpwuid(::getuid()); pw && pw->pw_name)
            user = QString::fromLocal8Bit(pw->pw_name);
    }
    return user.isEmpty() ? QStringLiteral("uid %1").arg(::getuid()) : user;
}

QString AuditLog::currentHost() {
    return QSysInfo::machineHostName();
}

bool AuditLog::append(AuditEntry entry) {
    if (!entry.time.isValid())
        entry.time = QDateTime::currentDateTimeUtc();
    if (entry.user.isEmpty())
        entry.user = currentUser();
    if (entry.host.isEmpty())
        entry.host = currentHost();
    // Messages and ids may quote a server: escaped and cut, so the log cannot be flooded by one
    // 8 MB error reply nor replay terminal escapes to whoever reads it with `tail`.
    entry.message = printableServerText(entry.message, 2000);
    entry.holder = printableServerText(entry.holder);

    bool ok = false;
    QDir().mkpath(QFileInfo(m_filePath).absolutePath());
    QFile file(m_filePath);
    // Unbuffered: the line goes out in one write() at the end of the file (O_APPEND), so lines from
    // several processes never interleave.
    if (file.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Unbuffered)) {
        const QByteArray line = QJsonDocument(entry.toJson()).toJson(QJsonDocument::Compact) + '\n';
        ok = file.write(line) == line.size();
    }
    m_lastError = ok ? QString() : QStringLiteral("%1: %2").arg(m_filePath, file.errorString());
    Q_EMIT appended(entry);
    return ok;
}

QList<AuditEntry> AuditLog::readRecent(int maxEntries) const {
    QList<AuditEntry> out;
    QFile file(m_filePath);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return out;
    // Read at most the last 4 MB: enough for many thousand entries, bounded for a huge log.
    constexpr qint64 kTail = 4 * 1024 * 1024;
    if (file.size() > kTail) {
        file.seek(file.size() - kTail);
        file.readLine(); // skip the partial line
    }
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        if (line.isEmpty())
            continue;
        QJsonParseError err{};
        const QJsonDocument doc = QJsonDocument::fromJson(line, &err);
        if (err.error != QJsonParseError::NoError || !doc.isObject())
            continue;
        out.append(AuditEntry::fromJson(doc.object()));
        if (out.size() > maxEntries)
            out.removeFirst();
    }
    return out;
}

} // namespace semscope::core
