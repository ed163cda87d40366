#include "KindReplies.h"

#include <QCoreApplication>
#include <QRandomGenerator>
#include <QSysInfo>

namespace semscope::redis::kinds {

QString failureText(const QString &operation, const RedisReply &reply) {
    QString what;
    if (reply.isTransportError())
        what = QStringLiteral("no reply: ") + reply.errorMessage();
    else if (reply.isServerError())
        what = reply.errorMessage();
    else
        what = QStringLiteral("unexpected reply ") + reply.describe();
    return operation + QStringLiteral(" failed: ") + what;
}

QString printableId(const QByteArray &raw) {
    const QString text = QString::fromUtf8(raw);
    bool printable = text.toUtf8() == raw; // round trip fails on invalid UTF-8
    for (const QChar c : text) {
        if (!printable)
            break;
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_NotAssigned)
            printable = false;
    }
    if (printable)
        return text;
    return QStringLiteral("0x") + QString::fromLatin1(raw.toHex());
}

const RedisReply &elementAt(const RedisReply &reply, int i) {
    static const RedisReply nil;
    if (!reply.isArray() || i < 0 || i >= reply.elements.size())
        return nil;
    return reply.elements.at(i);
}

std::optional<qint64> integerAt(const RedisReply &reply, int i) {
    return elementAt(reply, i).toInteger();
}

QString makeHolderId() {
    return QStringLiteral("%1:%2:%3")
        .arg(QSysInfo::machineHostName())
        .arg(QCoreApplication::applicationPid())
        .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
}

QString clientInfo() {
    const QString app = QCoreApplication::applicationName().isEmpty() ? QStringLiteral("semscope")
                                                                      : QCoreApplication::applicationName();
    return QStringLiteral("%1 pid %2 on %3")
        .arg(app)
        .arg(QCoreApplication::applicationPid())
        .arg(QSysInfo::machineHostName());
}

} // namespace semscope::redis::kinds
