#include "ConsulTypes.h"

#include "GoDuration.h"
#include "RawJson.h"
#include "core/Duration.h"
#include "core/Redaction.h"

#include <QLoggingCategory>
#include <QProcessEnvironment>

namespace semscope::consul {

QByteArray HttpResult::header(const QByteArray &name) const {
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

std::optional<QUrl> ConsulConfig::parseAddress(const QString &text, bool https, QString *error) {
    QString t = text.trimmed();
    if (t.isEmpty()) {
        *error = QStringLiteral("empty Consul address");
        return std::nullopt;
    }
    if (!t.contains(QLatin1String("://")))
        t = (https ? QStringLiteral("https://") : QStringLiteral("http://")) + t;
    QUrl url(t, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty() ||
        (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
        *error =
            QStringLiteral("not a Consul HTTP address: %1 (expected http://host:port or https://host:port)")
                .arg(core::redactedUrl(text.trimmed()));
        return std::nullopt;
    }
    if (url.port() < 0)
        url.setPort(url.scheme() == QLatin1String("https") ? 8501 : 8500);
    url.setPath({});
    return url;
}

ConsulConfig ConsulConfig::fromEnvironment(QString *addressError) {
    const auto env = QProcessEnvironment::systemEnvironment();
    ConsulConfig c;
    const bool https = env.value(QStringLiteral("CONSUL_HTTP_SSL")).toLower() == QLatin1String("true") ||
                       env.value(QStringLiteral("CONSUL_HTTP_SSL")) == QLatin1String("1");
    if (env.contains(QStringLiteral("CONSUL_HTTP_ADDR"))) {
        QString error;
        if (auto url = parseAddress(env.value(QStringLiteral("CONSUL_HTTP_ADDR")), https, &error)) {
            c.address = *url;
        } else {
            c.address = QUrl();
            if (addressError)
                *addressError = QStringLiteral("CONSUL_HTTP_ADDR: ") + error;
        }
    } else if (https) {
        c.address = QUrl(QStringLiteral("https://127.0.0.1:8501"));
    }
    c.token = env.value(QStringLiteral("CONSUL_HTTP_TOKEN"));
    c.caFile = env.value(QStringLiteral("CONSUL_CACERT"));
    const QString verify = env.value(QStringLiteral("CONSUL_HTTP_SSL_VERIFY")).toLower();
    c.insecure = verify == QLatin1String("false") || verify == QLatin1String("0");
    return c;
}

int ConsulConfig::defaultRequestTimeoutMs() {
    static const int ms = [] {
        constexpr int kDefaultMs = 30000;
        const QString text = qEnvironmentVariable("SEMSCOPE_CONSUL_TIMEOUT");
        if (text.isEmpty())
            return kDefaultMs;
        const std::optional<qint64> parsed = core::parseDurationMs(text);
        if (!parsed || *parsed < 100 || *parsed > 3600 * 1000) {
            qWarning().noquote() << QStringLiteral(
                "SEMSCOPE_CONSUL_TIMEOUT must be a duration from 100ms to 1h, e.g. 5s; using 30 s");
            return kDefaultMs;
        }
        return int(*parsed);
    }();
    return ms;
}

std::optional<qint64> SessionInfo::ttlMs() const {
    if (ttl.isEmpty())
        return std::nullopt;
    const auto ns = parseGoDurationNs(ttl);
    if (!ns || *ns == 0)
        return std::nullopt;
    return *ns / 1'000'000;
}

std::optional<KvEntry> kvEntryFromJson(const RawJson &v, QString *error) {
    if (!v.isObject()) {
        *error = QStringLiteral("KV entry is a %1, not an object").arg(v.typeName());
        return std::nullopt;
    }
    KvEntry e;
    const RawJson *key = v.find(QStringLiteral("Key"));
    if (!key || !key->isString()) {
        *error = QStringLiteral("KV entry without a Key");
        return std::nullopt;
    }
    e.key = key->toString();
    if (const RawJson *val = v.find(QStringLiteral("Value")); val && val->isString()) {
        const auto decoded = QByteArray::fromBase64Encoding(val->toString().toLatin1(),
                                                            QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded) {
            *error = QStringLiteral("KV entry %1 has a Value that is not base64").arg(e.key);
            return std::nullopt;
        }
        e.value = *decoded;
        e.hasValue = true;
    }
    if (const RawJson *s = v.find(QStringLiteral("Session")); s && s->isString())
        e.session = s->toString();
    const std::pair<const char *, quint64 *> numbers[] = {{"Flags", &e.flags},
                                                          {"LockIndex", &e.lockIndex},
                                                          {"CreateIndex", &e.createIndex},
                                                          {"ModifyIndex", &e.modifyIndex}};
    for (const auto &[name, target] : numbers) {
        const RawJson *n = v.find(QString::fromLatin1(name));
        if (!n || n->isNull())
            continue;
        const auto u = n->toUInt64();
        if (!u) {
            *error =
                QStringLiteral("KV entry %1: %2 is not an unsigned integer").arg(e.key, QLatin1String(name));
            return std::nullopt;
        }
        *target = *u;
    }
    return e;
}

std::optional<QList<KvEntry>> parseKvEntries(const QByteArray &body, QString *error) {
    const auto parsed = RawJson::parse(body);
    if (!parsed.ok()) {
        *error = QStringLiteral("KV reply is not JSON (%1)").arg(parsed.error);
        return std::nullopt;
    }
    if (!parsed.value->isArray()) {
        *error = QStringLiteral("KV reply is a %1, not a list").arg(parsed.value->typeName());
        return std::nullopt;
    }
    QList<KvEntry> out;
    out.reserve(parsed.value->items().size());
    for (const auto &item : parsed.value->items()) {
        auto e = kvEntryFromJson(item, error);
        if (!e)
            return std::nullopt;
        out.append(std::move(*e));
    }
    return out;
}

std::optional<QList<SessionInfo>> parseSessions(const QByteArray &body, QString *error) {
    const auto parsed = RawJson::parse(body);
    if (!parsed.ok()) {
        *error = QStringLiteral("session reply is not JSON (%1)").arg(parsed.error);
        return std::nullopt;
    }
    if (!parsed.value->isArray()) {
        *error = QStringLiteral("session reply is a %1, not a list").arg(parsed.value->typeName());
        return std::nullopt;
    }
    QList<SessionInfo> out;
    for (const auto &item : parsed.value->items()) {
        if (!item.isObject()) {
            *error = QStringLiteral("session entry is a %1, not an object").arg(item.typeName());
            return std::nullopt;
        }
        SessionInfo s;
        auto str = [&item](const char *name) {
            const RawJson *v = item.find(QString::fromLatin1(name));
            return v && v->isString() ? v->toString() : QString();
        };
        s.id = str("ID");
        s.name = str("Name");
        s.node = str("Node");
        s.behavior = str("Behavior");
        s.ttl = str("TTL");
        if (const RawJson *ld = item.find(QStringLiteral("LockDelay")); ld && ld->isNumber())
            s.lockDelayNs = ld->toInt64().value_or(0);
        for (const char *name : {"NodeChecks", "Checks"}) {
            const RawJson *c = item.find(QString::fromLatin1(name));
            if (!c || !c->isArray())
                continue;
            for (const auto &check : c->items()) {
                if (check.isString() && !s.nodeChecks.contains(check.toString()))
                    s.nodeChecks.append(check.toString());
            }
        }
        if (const RawJson *c = item.find(QStringLiteral("ServiceChecks")); c && c->isArray()) {
            for (const auto &check : c->items()) {
                if (const RawJson *id = check.find(QStringLiteral("ID")); id && id->isString())
                    s.serviceChecks.append(id->toString());
            }
        }
        if (const RawJson *n = item.find(QStringLiteral("CreateIndex")))
            s.createIndex = n->toUInt64().value_or(0);
        if (const RawJson *n = item.find(QStringLiteral("ModifyIndex")))
            s.modifyIndex = n->toUInt64().value_or(0);
        if (s.id.isEmpty()) {
            *error = QStringLiteral("session entry without an ID");
            return std::nullopt;
        }
        out.append(s);
    }
    return out;
}

} // namespace semscope::consul
