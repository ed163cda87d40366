#include "LockDocument.h"

#include <algorithm>

namespace semscope::consul {

std::optional<LockDocument> LockDocument::parse(const QByteArray &value, QString *error) {
    if (value.trimmed().isEmpty()) {
        *error = QStringLiteral(".lock is empty (expected JSON with a limit and holders)");
        return std::nullopt;
    }
    const auto parsed = RawJson::parse(value);
    if (!parsed.ok()) {
        *error = QStringLiteral(".lock is not JSON (%1)").arg(parsed.error);
        return std::nullopt;
    }
    if (!parsed.value->isObject()) {
        *error = QStringLiteral(".lock is a JSON %1, not an object with a limit and holders")
                     .arg(parsed.value->typeName());
        return std::nullopt;
    }
    LockDocument doc;
    doc.m_object = *parsed.value;

    const RawJson *limit = doc.m_object.find(QStringLiteral("Limit"));
    if (!limit) {
        *error = QStringLiteral(".lock has no limit");
        return std::nullopt;
    }
    doc.m_limitName = doc.m_object.spelling(QStringLiteral("Limit"));
    const auto n = limit->toInt64();
    if (!n) {
        *error = limit->isNumber()
                     ? QStringLiteral(".lock limit %1 is not a whole number")
                           .arg(QString::fromUtf8(limit->numberText()))
                     : QStringLiteral(".lock limit is a %1, not a number").arg(limit->typeName());
        return std::nullopt;
    }
    if (*n <= 0) {
        *error = QStringLiteral(".lock limit must be positive, found %1").arg(*n);
        return std::nullopt;
    }
    doc.m_limit = *n;

    const RawJson *holders = doc.m_object.find(QStringLiteral("Holders"));
    const bool pascal = doc.m_limitName.at(0).isUpper();
    doc.m_holdersName = holders ? doc.m_object.spelling(QStringLiteral("Holders"))
                                : (pascal ? QStringLiteral("Holders") : QStringLiteral("holders"));
    if (!holders || holders->isNull()) {
        // Go writes a nil map as null; an absent list reads as empty. Keep what the writer would use.
        doc.m_container = pascal ? Container::Object : Container::Array;
    } else if (holders->isObject()) {
        doc.m_container = Container::Object;
        for (const auto &m : holders->members())
            doc.m_holders.append(m.first); // membership is key presence; the value is never read
    } else if (holders->isArray()) {
        doc.m_container = Container::Array;
        const auto &items = holders->items();
        for (qsizetype i = 0; i < items.size(); ++i) {
            if (!items[i].isString()) {
                *error = QStringLiteral(".lock holders[%1] is a %2, not a session id")
                             .arg(i)
                             .arg(items[i].typeName());
                return std::nullopt;
            }
            doc.m_holders.append(items[i].toString());
        }
    } else {
        *error = QStringLiteral(".lock holders is a %1, not a list or a map of session ids")
                     .arg(holders->typeName());
        return std::nullopt;
    }
    return doc;
}

LockDocument LockDocument::create(qint64 limit, Dialect dialect) {
    LockDocument doc;
    doc.m_limit = limit;
    if (dialect == Dialect::SeedArray) {
        doc.m_limitName = QStringLiteral("limit");
        doc.m_holdersName = QStringLiteral("holders");
    }
    doc.m_container = dialect == Dialect::GoMap ? Container::Object : Container::Array;
    return doc;
}

void LockDocument::addHolder(const QString &sid) {
    if (!m_holders.contains(sid))
        m_holders.append(sid);
}

bool LockDocument::removeHolder(const QString &sid) {
    return m_holders.removeAll(sid) > 0;
}

LockDocument::Dialect LockDocument::dialect() const {
    if (m_container == Container::Object)
        return Dialect::GoMap;
    return m_holdersName == QLatin1String("Holders") ? Dialect::GuideArray : Dialect::SeedArray;
}

QString LockDocument::dialectName(Dialect d) {
    switch (d) {
    case Dialect::GoMap:
        return QStringLiteral("go-map");
    case Dialect::GuideArray:
        return QStringLiteral("guide-array");
    case Dialect::SeedArray:
        return QStringLiteral("seed-array");
    }
    return {};
}

QString LockDocument::dialectName() const {
    return dialectName(dialect());
}

QByteArray LockDocument::serialize() const {
    RawJson holders;
    if (m_container == Container::Object) {
        // Go marshals map keys sorted; the boolean is what api.Semaphore writes.
        QStringList sorted = m_holders;
        std::sort(sorted.begin(), sorted.end());
        QList<QPair<QString, RawJson>> members;
        for (const auto &h : sorted)
            members.append({h, RawJson::boolean(true)});
        holders = RawJson::object(members);
    } else {
        QList<RawJson> items;
        for (const auto &h : m_holders)
            items.append(RawJson::string(h));
        holders = RawJson::array(items);
    }
    RawJson out = m_object;
    bool haveLimit = false;
    bool haveHolders = false;
    for (auto &m : out.members()) {
        if (m.first == m_limitName) {
            m.second = RawJson::number(QByteArray::number(m_limit));
            haveLimit = true;
        } else if (m.first == m_holdersName) {
            m.second = holders;
            haveHolders = true;
        }
    }
    if (!haveLimit)
        out.members().append({m_limitName, RawJson::number(QByteArray::number(m_limit))});
    if (!haveHolders)
        out.members().append({m_holdersName, holders});
    return out.toCompact();
}

} // namespace semscope::consul
