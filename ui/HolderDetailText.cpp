#include "HolderDetailText.h"

#include "core/Duration.h"

#include <QHash>
#include <QJsonDocument>
#include <QObject>

namespace semscope::ui {

namespace {
QString plain(const QVariant &v) {
    if (v.typeId() == QMetaType::QVariantMap || v.typeId() == QMetaType::QVariantList)
        return QString::fromUtf8(QJsonDocument::fromVariant(v).toJson(QJsonDocument::Compact));
    if (v.typeId() == QMetaType::QStringList)
        return v.toStringList().join(QStringLiteral(", "));
    if (v.typeId() == QMetaType::Bool)
        return v.toBool() ? QObject::tr("yes") : QObject::tr("no");
    return v.toString();
}

struct Known {
    const char *label;
    const char *toolTip;
};
} // namespace

QString humanizeDetailKey(const QString &key) {
    QString out;
    for (int i = 0; i < key.size(); ++i) {
        const QChar c = key.at(i);
        if (c == QLatin1Char('_') || c == QLatin1Char('-')) {
            out += QLatin1Char(' ');
        } else if (c.isUpper() && i > 0 && key.at(i - 1).isLower()) {
            out += QLatin1Char(' ');
            out += c.toLower();
        } else {
            out += c;
        }
    }
    if (!out.isEmpty())
        out[0] = out.at(0).toUpper();
    return out;
}

std::optional<HolderDetailText> describeHolderDetail(const QString &key, const QVariant &value) {
    // Told elsewhere on the card: the reason is part of the state line, and the TTL row already
    // says when a holder has no lease.
    if (key == QLatin1String("why") || key == QLatin1String("no_ttl"))
        return std::nullopt;
    static const QHash<QString, Known> known{
        {QStringLiteral("sessionName"), {"Session name", "The name its owner gave the Consul session."}},
        {QStringLiteral("session"), {"Session ID", "The Consul session that holds the slot."}},
        {QStringLiteral("node"), {"Node", "The Consul node the session is registered on."}},
        {QStringLiteral("behavior"),
         {"On invalidation",
          "What Consul does with the session's keys when the session ends: release them or delete them."}},
        {QStringLiteral("checks"),
         {"Health checks", "The session ends as soon as one of these checks turns critical."}},
        {QStringLiteral("ttl"),
         {"Session TTL", "The owner must renew the session within this time; Consul may take up to twice "
                         "as long to end a session that is not renewed."}},
        {QStringLiteral("lockDelayMs"),
         {"Lock delay", "After the session ends, Consul refuses to hand its locks to anyone else for this "
                        "long."}},
        {QStringLiteral("contenderKey"), {"Contender key", "The KV key this session created to take part."}},
        {QStringLiteral("contenderModifyIndex"),
         {"Contender version", "ModifyIndex of the contender key, as last read."}},
        {QStringLiteral("client"), {"Client", "What the holder recorded about itself when it acquired."}},
        {QStringLiteral("thread"), {"Thread", "Redisson: the thread id part of the lock owner."}},
        {QStringLiteral("hold_count"),
         {"Re-entrant holds", "Redisson: how many times the owner took this lock without releasing it."}},
        {QStringLiteral("score"), {"Raw score", "The ZSET score exactly as stored."}},
        {QStringLiteral("ticket"),
         {"Queue ticket", "Names this wait: a release that hands the waiter a slot quotes it, so only this "
                          "acquisition can take that slot."}},
        {QStringLiteral("requested_ttl_ms"),
         {"Requested lease", "The lease this waiter asked for; it starts when a release hands it a slot."}},
        {QStringLiteral("hand_off"),
         {"From the queue",
          "A release handed this slot straight to the waiter at the head of the queue. The waiter's queue "
          "record stays until the slot is released, so a waiter whose message was lost can still claim it."}},
        {QStringLiteral("truncated"),
         {"Value shortened", "The stored value is longer than what is shown here."}},
        {QStringLiteral("no_lease"),
         {"Lease", "This permit has no expiry: it stays until released, even if its owner crashed."}},
        {QStringLiteral("unusual_id"),
         {"Unusual id", "The permit id is not in the format Redisson writes: another program made it."}},
        {QStringLiteral("error"), {"Error", "What went wrong reading this holder."}},
    };
    HolderDetailText t;
    t.value = plain(value);
    const auto it = known.constFind(key);
    if (it == known.cend()) {
        t.label = humanizeDetailKey(key);
        return t;
    }
    t.label = QObject::tr(it->label);
    t.toolTip = QObject::tr(it->toolTip);
    if (key == QLatin1String("ttl") && (t.value.isEmpty() || t.value == QLatin1String("-")))
        t.value = QObject::tr("none (ends on release or a failed health check)");
    else if (key == QLatin1String("lockDelayMs") || key == QLatin1String("requested_ttl_ms"))
        t.value = core::formatDurationMs(value.toLongLong());
    else if (key == QLatin1String("no_lease"))
        t.value = QObject::tr("none: never expires");
    else if (key == QLatin1String("truncated"))
        t.value = QObject::tr("yes: longer than shown");
    else if (key == QLatin1String("behavior") && !t.value.isEmpty())
        t.value = t.value == QLatin1String("delete") ? QObject::tr("delete its keys")
                                                     : QObject::tr("release its keys");
    return t;
}

} // namespace semscope::ui
