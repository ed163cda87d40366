#include "RawKvReader.h"

#include "core/PrintableText.h"

#include <QJsonDocument>

namespace semscope::consul {

core::RawKey RawKvReader::toRawKey(const KvEntry &e) {
    core::RawKey k;
    k.name = core::printableServerText(e.key, core::kRawMaxCellChars);
    k.type = QStringLiteral("kv");
    k.length = e.hasValue ? e.value.size() : 0;
    if (!e.hasValue) {
        k.value = QStringLiteral("(no value)");
    } else {
        // `.lock` is JSON: shown indented so its holders can be read; anything else as it is.
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(e.value, &error);
        const bool json = error.error == QJsonParseError::NoError && (doc.isObject() || doc.isArray());
        k.value = core::printableMultiline(json ? doc.toJson(QJsonDocument::Indented).trimmed() : e.value,
                                           core::kRawMaxValueChars);
    }
    k.meta = {{QStringLiteral("Flags"), QString::number(e.flags)},
              {QStringLiteral("Session"),
               e.session.isEmpty() ? QStringLiteral("—") : core::printableServerText(e.session, 80)},
              {QStringLiteral("CreateIndex"), QString::number(e.createIndex)},
              {QStringLiteral("ModifyIndex"), QString::number(e.modifyIndex)},
              {QStringLiteral("LockIndex"), QString::number(e.lockIndex)}};
    return k;
}

void RawKvReader::read(ConsulClient &client, const QString &prefix, std::function<void(core::RawKeys)> done) {
    ConsulClient::KvGetOptions get;
    get.recurse = true;
    // Trailing '/': `?recurse` treats the key as a plain string prefix
    // (developer.hashicorp.com/consul/api-docs/kv, "recurse"), and `semaphore/foo` must not list
    // `semaphore/foo2/...`.
    client.kvGet(prefix + QLatin1Char('/'), get, [done](ConsulClient::KvResult r) {
        core::RawKeys out;
        if (!r.http.ok()) {
            out.error = QStringLiteral("reading the KV entries failed: %1").arg(r.http.error);
            return done(out);
        }
        out.ok = true;
        const qsizetype shown = std::min<qsizetype>(r.entries.size(), core::kRawMaxKeys);
        if (shown < r.entries.size())
            out.error = QStringLiteral("first %1 of %2 entries shown").arg(shown).arg(r.entries.size());
        for (qsizetype i = 0; i < shown; ++i)
            out.keys.append(toRawKey(r.entries[i]));
        done(out);
    });
}

} // namespace semscope::consul
