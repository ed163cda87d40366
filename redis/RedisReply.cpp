#include "RedisReply.h"

#include "core/PrintableText.h"

#include <cmath>
#include <limits>

namespace semscope::redis {

RedisReply RedisReply::transportError(const QString &message) {
    RedisReply r;
    r.type = Type::TransportError;
    r.str = message.toUtf8();
    return r;
}

RedisReply RedisReply::error(const QByteArray &message) {
    RedisReply r;
    r.type = Type::Error;
    r.str = message;
    return r;
}

RedisReply RedisReply::integerReply(qint64 v) {
    RedisReply r;
    r.type = Type::Integer;
    r.integer = v;
    return r;
}

RedisReply RedisReply::string(const QByteArray &s) {
    RedisReply r;
    r.type = Type::String;
    r.str = s;
    return r;
}

std::optional<qint64> RedisReply::toInteger() const {
    if (type == Type::Integer)
        return integer;
    if (!isString() || str.isEmpty())
        return std::nullopt;
    bool ok = false;
    const qint64 v = str.toLongLong(&ok);
    if (!ok)
        return std::nullopt;
    return v;
}

std::optional<double> RedisReply::toDouble() const {
    if (type == Type::Integer)
        return double(integer);
    if (!isString() || str.isEmpty())
        return std::nullopt;
    // Redis spells infinities "inf"/"-inf" (ZSET scores); spell them out rather than rely on the
    // number parser accepting them.
    const QByteArray lower = str.toLower();
    if (lower == "inf" || lower == "+inf")
        return std::numeric_limits<double>::infinity();
    if (lower == "-inf")
        return -std::numeric_limits<double>::infinity();
    bool ok = false;
    const double v = str.toDouble(&ok);
    if (!ok || std::isnan(v))
        return std::nullopt;
    return v;
}

QString RedisReply::errorMessage() const {
    return core::printableServerText(str, 1000);
}

QString RedisReply::describe() const {
    switch (type) {
    case Type::Nil:
        return QStringLiteral("(nil)");
    case Type::Status:
        return QString::fromUtf8(str);
    case Type::Error:
        return QStringLiteral("(error) ") + QString::fromUtf8(str);
    case Type::TransportError:
        return QStringLiteral("(transport error) ") + QString::fromUtf8(str);
    case Type::Integer:
        return QStringLiteral("(integer) ") + QString::number(integer);
    case Type::String: {
        constexpr qsizetype kShown = 60;
        QString shown = QString::fromUtf8(str.left(kShown));
        if (str.size() > kShown)
            shown += QStringLiteral("...(%1 bytes)").arg(str.size());
        return QLatin1Char('"') + shown + QLatin1Char('"');
    }
    case Type::Array:
        return QStringLiteral("[%1 elements]").arg(elements.size());
    }
    return {};
}

} // namespace semscope::redis
