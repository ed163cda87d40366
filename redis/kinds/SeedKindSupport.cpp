#include "SeedKindSupport.h"

#include "KindReplies.h"

#include <algorithm>

namespace semscope::redis::kinds {

QByteArray bytesAt(const RedisReply &reply, int i) {
    const RedisReply &e = elementAt(reply, i);
    if (e.isInteger())
        return QByteArray::number(e.integer);
    return e.isString() ? e.str : QByteArray();
}

QList<QPair<QByteArray, QByteArray>> pairsAt(const RedisReply &reply, int i) {
    QList<QPair<QByteArray, QByteArray>> out;
    const RedisReply &arr = elementAt(reply, i);
    if (!arr.isArray())
        return out;
    for (qsizetype k = 0; k + 1 < arr.elements.size(); k += 2)
        out.append({arr.elements.at(k).str, arr.elements.at(k + 1).str});
    return out;
}

core::Snapshot failedSnapshot(const core::SemaphoreRef &ref, const QStringList &keys, const QString &what,
                              const RedisReply &reply) {
    core::Snapshot snap;
    snap.ref = ref;
    snap.keys = keys;
    snap.warnings << failureText(what, reply);
    return snap;
}

bool checkType(const QByteArray &key, const QByteArray &type, const QByteArray &want, core::Snapshot &snap) {
    if (type == want || type == "none")
        return true;
    const QString k = QString::fromUtf8(key);
    const QString is = QString::fromUtf8(type);
    const QString wanted = QString::fromLatin1(want);
    snap.warnings << QStringLiteral("%1 is a %2, expected a %3; it was not read").arg(k, is, wanted);
    if (snap.writeRefusal.isEmpty()) {
        snap.writeRefusal =
            QStringLiteral("refused: %1 is a %2, not the %3 this layout keeps; semscope writes nothing to a "
                           "key of another type")
                .arg(k, is, wanted);
        snap.writeRefusalAdvice = QObject::tr("What you can do: find the program that writes %1 (a %2 under "
                                              "this name belongs to another design, "
                                              "or an older one) and work with its own client. If nothing "
                                              "uses the key any more, remove it with "
                                              "redis-cli after checking.")
                                      .arg(k, is);
    }
    return false;
}

QString byteSize(qint64 bytes) {
    if (bytes >= 1024 * 1024)
        return QStringLiteral("%1 MB").arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 1);
    if (bytes >= 1024)
        return QStringLiteral("%1 kB").arg(double(bytes) / 1024.0, 0, 'f', 1);
    return QStringLiteral("%1 bytes").arg(bytes);
}

std::optional<qint64> strictInteger(const QByteArray &text) {
    bool ok = false;
    const qint64 v = text.toLongLong(&ok);
    if (!ok)
        return std::nullopt;
    return v;
}

core::ForceReleaseResult forceReleaseFromReply(const RedisReply &reply, const QString &holder,
                                               const QString &changedWhat) {
    core::ForceReleaseResult result;
    const auto code = integerAt(reply, 0);
    if (reply.isError() || !code) {
        result.status = core::ForceReleaseResult::Status::Error;
        result.message = failureText(QStringLiteral("force-release of %1").arg(holder), reply);
        return result;
    }
    switch (*code) {
    case 1:
        result.status = core::ForceReleaseResult::Status::Released;
        result.message = QStringLiteral("released %1").arg(holder);
        break;
    case 2:
        result.status = core::ForceReleaseResult::Status::Gone;
        result.message = QStringLiteral("%1 no longer holds a slot; nothing was done").arg(holder);
        break;
    case 3: {
        result.status = core::ForceReleaseResult::Status::Changed;
        const QByteArray now = bytesAt(reply, 1);
        result.message =
            QStringLiteral("%1 changed since it was shown (%2%3); nothing was done")
                .arg(holder, changedWhat,
                     now.isEmpty() ? QString() : QStringLiteral(" now ") + QString::fromUtf8(now.left(64)));
        break;
    }
    default:
        result.status = core::ForceReleaseResult::Status::Error;
        result.message = QStringLiteral("force-release of %1 refused: %2")
                             .arg(holder, QString::fromUtf8(bytesAt(reply, 1).left(200)));
        break;
    }
    return result;
}

void inferLimitFromHolders(core::Snapshot &snap, qint64 permitsHeld) {
    if (permitsHeld <= 0) {
        snap.notes << QStringLiteral(
            "the limit is not stored in Redis and nothing is held: set it in the profile (or --limit)");
        return;
    }
    snap.limit = permitsHeld;
    snap.limitSource = core::LimitSource::Inferred;
    snap.notes << QStringLiteral("the limit is not stored in Redis: inferred as %1 from the permits held "
                                 "now (it is at least that); set it in the profile (or --limit)")
                      .arg(permitsHeld);
}

QString numberRanges(QList<qint64> numbers, int maxParts) {
    std::sort(numbers.begin(), numbers.end());
    numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
    QStringList parts;
    qsizetype i = 0;
    while (i < numbers.size()) {
        qsizetype j = i;
        while (j + 1 < numbers.size() && numbers.at(j + 1) == numbers.at(j) + 1)
            ++j;
        if (parts.size() == maxParts) {
            parts << QStringLiteral("…");
            break;
        }
        parts << (i == j ? QString::number(numbers.at(i))
                         : QStringLiteral("%1-%2").arg(numbers.at(i)).arg(numbers.at(j)));
        i = j + 1;
    }
    return parts.join(QStringLiteral(", "));
}

RedisReply arrayReply(const QList<RedisReply> &elements) {
    RedisReply r;
    r.type = RedisReply::Type::Array;
    r.elements = elements;
    return r;
}

qint64 timeReplyMs(const RedisReply &time) {
    const qint64 seconds = bytesAt(time, 0).toLongLong();
    const qint64 micros = bytesAt(time, 1).toLongLong();
    return seconds * 1000 + micros / 1000;
}

RedisReply typeReply(const RedisReply &type) {
    return RedisReply::string(type.isString() ? type.str : QByteArray("none"));
}

RedisReply arrayOrEmpty(const RedisReply &reply) {
    return reply.isArray() ? reply : arrayReply({});
}

std::optional<RedisReply> firstFailure(const QList<RedisReply> &replies) {
    for (const RedisReply &r : replies) {
        if (r.isTransportError() || (r.isServerError() && !r.str.startsWith("WRONGTYPE")))
            return r;
    }
    return std::nullopt;
}

} // namespace semscope::redis::kinds
