#include "ConsulClient.h"

#include "BoundedReply.h"
#include "GoDuration.h"
#include "RawJson.h"

#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QSet>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QUrlQuery>

Q_LOGGING_CATEGORY(lcConsulHttp, "semscope.consul.http", QtInfoMsg)

namespace semscope::consul {

namespace {

constexpr int kIdleBlockingManagers = 16;
// Same-origin redirects only (the token goes nowhere else), and not in circles.
constexpr int kMaxRedirects = 3;

// "https://host:8501" of a redirect target: enough to say where it pointed, without its path,
// query or user info.
QString originOf(const QUrl &url) {
    return url.toString(QUrl::RemoveUserInfo | QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment);
}

QString redirectError(QNetworkReply *reply, const QString &endpoint) {
    // Qt leaves RedirectionTargetAttribute unset for a redirect it refused; Location says it.
    const QUrl target = reply->url().resolved(QUrl::fromEncoded(reply->rawHeader("Location")));
    if (reply->error() == QNetworkReply::TooManyRedirectsError)
        return QStringLiteral("more than %1 redirects").arg(kMaxRedirects);
    return QStringLiteral(
               "refused a redirect to another origin (%1): requests and the ACL token go only to %2")
        .arg(originOf(target), endpoint);
}

// A `?keys` listing: JSON strings only (anything else in it is an error, not skipped).
QStringList parseKeyListing(const QByteArray &body, QString *error) {
    const auto parsed = RawJson::parse(body);
    if (!parsed.ok() || !parsed.value->isArray()) {
        *error = QStringLiteral("key listing is not a JSON list");
        return {};
    }
    QStringList keys;
    for (const auto &k : parsed.value->items()) {
        if (!k.isString()) {
            *error = QStringLiteral("key listing holds a %1, not a key name").arg(k.typeName());
            return {};
        }
        keys.append(k.toString());
    }
    return keys;
}

QString bodySnippet(const QByteArray &body) {
    QString s = QString::fromUtf8(body.left(300)).trimmed();
    s.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return s;
}

} // namespace

QString encodeKeyPath(const QString &key) {
    return QString::fromLatin1(QUrl::toPercentEncoding(key, "/"));
}

ConsulClient::ConsulClient(ConsulConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_nam(new QNetworkAccessManager(this)) {}

ConsulClient::~ConsulClient() {
    // Callbacks must not run into a half-destroyed owner: detach every reply first.
    const auto replies = m_pending.values();
    m_pending.clear();
    for (QNetworkReply *r : replies) {
        r->disconnect(this);
        r->abort();
        r->deleteLater();
    }
}

QString ConsulClient::endpoint() const {
    QUrl u = m_config.address;
    u.setUserInfo({});
    return u.toString(QUrl::RemoveUserInfo | QUrl::StripTrailingSlash);
}

quint64 ConsulClient::nextWaitIndex(quint64 previous, quint64 returned) {
    if (returned < previous)
        return 0;
    return returned;
}

QNetworkAccessManager *ConsulClient::takeManager(bool blocking) {
    if (!blocking)
        return m_nam;
    if (!m_idleBlocking.isEmpty())
        return m_idleBlocking.takeLast();
    return new QNetworkAccessManager(this);
}

void ConsulClient::releaseManager(QNetworkAccessManager *nam, bool blocking) {
    if (!blocking || nam == m_nam)
        return;
    if (m_idleBlocking.size() < kIdleBlockingManagers)
        m_idleBlocking.append(nam);
    else
        nam->deleteLater();
}

QString ConsulClient::readQuery(const ReadOptions &opts, QString query) const {
    auto add = [&query](const QString &item) {
        if (!query.isEmpty())
            query += QLatin1Char('&');
        query += item;
    };
    const Consistency c = opts.consistency.value_or(m_config.consistency);
    if (c == Consistency::Stale)
        add(QStringLiteral("stale"));
    else if (c == Consistency::Consistent)
        add(QStringLiteral("consistent"));
    if (opts.index > 0) {
        add(QStringLiteral("index=%1").arg(opts.index));
        if (opts.waitMs > 0)
            add(QStringLiteral("wait=%1ms").arg(opts.waitMs));
    }
    return query;
}

ConsulClient::RequestId ConsulClient::request(const QByteArray &method, const QString &path,
                                              const QString &query, const QByteArray &body,
                                              core::Callback<HttpResult> done, qint64 timeoutMs) {
    return send(
        method, path, query, body,
        [this, done = std::move(done)](HttpResult r) {
            noteHeard(r);
            done(std::move(r));
        },
        timeoutMs);
}

void ConsulClient::noteHeard(const HttpResult &r) {
    if (r.aborted || m_reachable == r.heard)
        return;
    m_reachable = r.heard;
    Q_EMIT reachabilityChanged(r.heard, r.error);
}

void ConsulClient::malformed(HttpResult &http, const QString &why) {
    http.error = why;
    http.heard = false;
}

ConsulClient::RequestId ConsulClient::send(const QByteArray &method, const QString &path,
                                           const QString &query, const QByteArray &body,
                                           core::Callback<HttpResult> done, qint64 timeoutMs) {
    QString q = query;
    if (!m_config.datacenter.isEmpty())
        q += (q.isEmpty() ? QString() : QStringLiteral("&")) + QStringLiteral("dc=") +
             QString::fromLatin1(QUrl::toPercentEncoding(m_config.datacenter));
    const QUrlQuery parsedQuery(q);
    const bool blocking = parsedQuery.queryItemValue(QStringLiteral("index")).toULongLong() > 0;
    QUrl url = m_config.address;
    url.setPath(path, QUrl::DecodedMode);
    if (!q.isEmpty())
        url.setQuery(q);

    QNetworkRequest req(url);
    req.setRawHeader("User-Agent", "semscope/" SEMSCOPE_VERSION);
    if (!m_config.token.isEmpty())
        req.setRawHeader("X-Consul-Token", m_config.token.toUtf8());
    if (!body.isNull())
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/octet-stream"));
    // The body limit counts what arrives; a compressed answer would be inflated past it unseen.
    req.setRawHeader("Accept-Encoding", "identity");
    // Qt follows redirects to any host by default, with the X-Consul-Token header.
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::SameOriginRedirectPolicy);
    req.setMaximumRedirectsAllowed(kMaxRedirects);
    qint64 timeout = timeoutMs >= 0 ? timeoutMs : m_config.requestTimeoutMs;
    if (blocking && timeoutMs < 0) {
        // The server may hold a blocking query for `wait` plus up to wait/16 of jitter.
        qint64 wait = 5 * 60 * 1000;
        if (parsedQuery.hasQueryItem(QStringLiteral("wait")))
            wait = parseGoDurationNs(parsedQuery.queryItemValue(QStringLiteral("wait")))
                       .value_or(wait * 1'000'000) /
                   1'000'000;
        timeout = wait + wait / 16 + 15000;
    }
#if QT_CONFIG(ssl)
    if (url.scheme() == QLatin1String("https")) {
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        if (!m_config.caFile.isEmpty())
            ssl.setCaCertificates(QSslCertificate::fromPath(m_config.caFile, QSsl::Pem));
        if (m_config.insecure)
            ssl.setPeerVerifyMode(QSslSocket::VerifyNone);
        req.setSslConfiguration(ssl);
    }
#endif

    QNetworkAccessManager *nam = takeManager(blocking);
    QNetworkReply *reply = nullptr;
    if (method == "GET")
        reply = nam->get(req);
    else if (method == "DELETE" && body.isEmpty())
        reply = nam->deleteResource(req);
    else
        reply = nam->sendCustomRequest(req, method, body);

    const RequestId id = m_nextId++;
    m_pending.insert(id, reply);
    qCDebug(lcConsulHttp) << method << url.toString(QUrl::RemoveUserInfo);
    auto *bounds = new BoundedReply(reply, QString::fromLatin1(method) + QLatin1Char(' ') + path,
                                    m_config.maxBodyBytes, timeout);
    connect(reply, &QNetworkReply::finished, this, [this, bounds, id, nam, blocking, done = std::move(done)] {
        QNetworkReply *reply = bounds->reply();
        m_pending.remove(id);
        releaseManager(nam, blocking);
        reply->deleteLater();
        HttpResult r;
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.body = bounds->takeBody();
        r.headers = reply->rawHeaderPairs();
        r.aborted = reply->property("semscope_aborted").toBool();
        bool ok = false;
        const quint64 idx = r.header("X-Consul-Index").toULongLong(&ok);
        if (ok)
            r.meta.index = idx;
        r.meta.knownLeader = r.header("X-Consul-KnownLeader") != "false";
        r.meta.lastContactMs = r.header("X-Consul-LastContact").toLongLong();
        if (r.aborted) {
            r.error = QStringLiteral("request cancelled");
        } else if (!bounds->stopReason().isEmpty()) {
            r.error = bounds->stopReason(); // past the deadline or the size limit: not heard
        } else if (reply->error() == QNetworkReply::InsecureRedirectError ||
                   reply->error() == QNetworkReply::TooManyRedirectsError) {
            r.error = redirectError(reply, endpoint()); // the agent pointed away from itself: not asked
        } else if (r.status == 0) {
            const QString why = reply->errorString();
            r.error = why.isEmpty() ? QStringLiteral("no HTTP response") : why;
        } else if (r.status >= 200 && r.status < 300 && reply->error() != QNetworkReply::NoError) {
            // A 200 whose body was cut short is no answer (Qt keeps the status it had read).
            r.error = QStringLiteral("the answer was cut off: ") + reply->errorString();
        } else if (r.status < 200 || r.status >= 300) {
            r.heard = true; // a complete answer that says no
            r.error = QStringLiteral("Unexpected response code: %1").arg(r.status);
            const QString snippet = bodySnippet(r.body);
            if (!snippet.isEmpty())
                r.error += QStringLiteral(" (%1)").arg(snippet);
        } else {
            r.heard = true;
        }
        done(std::move(r));
    });
    return id;
}

void ConsulClient::noteUnanswered(const QString &why) {
    HttpResult r;
    r.error = why;
    noteHeard(r);
}

void ConsulClient::abort(RequestId id) {
    QNetworkReply *reply = m_pending.value(id);
    if (!reply)
        return;
    reply->setProperty("semscope_aborted", true);
    reply->abort();
}

ConsulClient::RequestId ConsulClient::kvGet(const QString &key, const KvGetOptions &opts,
                                            core::Callback<KvResult> done) {
    const QString q = readQuery(opts, opts.recurse ? QStringLiteral("recurse") : QString());
    return send("GET", QStringLiteral("/v1/kv/") + key, q, QByteArray(), [this, done](HttpResult http) {
        KvResult r;
        if (http.status == 404 && http.heard) {
            http.error.clear(); // a missing key is an answer, not a failure
        } else if (http.ok()) {
            QString error;
            if (auto entries = parseKvEntries(http.body, &error)) {
                r.found = true;
                r.entries = std::move(*entries);
            } else {
                malformed(http, error);
            }
        }
        noteHeard(http);
        r.http = std::move(http);
        done(std::move(r));
    });
}

ConsulClient::RequestId ConsulClient::kvKeys(const QString &prefix, const QString &separator,
                                             const ReadOptions &opts, core::Callback<KeysResult> done) {
    QString q = QStringLiteral("keys");
    if (!separator.isEmpty())
        q += QStringLiteral("&separator=") + QString::fromLatin1(QUrl::toPercentEncoding(separator));
    return send("GET", QStringLiteral("/v1/kv/") + prefix, readQuery(opts, q), QByteArray(),
                [this, done](HttpResult http) {
                    KeysResult r;
                    if (http.status == 404 && http.heard) {
                        http.error.clear();
                    } else if (http.ok()) {
                        QString error;
                        r.keys = parseKeyListing(http.body, &error);
                        if (!error.isEmpty())
                            malformed(http, error);
                    }
                    noteHeard(http);
                    r.http = std::move(http);
                    done(std::move(r));
                });
}

ConsulClient::RequestId ConsulClient::kvGetRaw(const QString &key, core::Callback<HttpResult> done) {
    return request("GET", QStringLiteral("/v1/kv/") + key, readQuery({}, QStringLiteral("raw")), QByteArray(),
                   std::move(done));
}

core::Callback<HttpResult> ConsulClient::boolReply(core::Callback<BoolResult> done) {
    return [this, done](HttpResult http) {
        BoolResult r;
        if (http.ok()) {
            const QByteArray b = http.body.trimmed();
            if (b == "true")
                r.value = true;
            else if (b != "false")
                malformed(http,
                          QStringLiteral("expected true or false, got: %1").arg(bodySnippet(http.body)));
        }
        noteHeard(http);
        r.http = std::move(http);
        done(std::move(r));
    };
}

core::Callback<HttpResult> ConsulClient::sessionsReply(core::Callback<SessionsResult> done) {
    return [this, done](HttpResult http) {
        SessionsResult r;
        if (http.status == 404 && http.heard) {
            r.found = false;
        } else if (http.ok()) {
            QString error;
            if (auto list = parseSessions(http.body, &error))
                r.sessions = std::move(*list);
            else
                malformed(http, error);
        }
        noteHeard(http);
        r.http = std::move(http);
        done(std::move(r));
    };
}

ConsulClient::RequestId ConsulClient::kvPut(const QString &key, const QByteArray &value,
                                            const KvPutOptions &opts, core::Callback<BoolResult> done) {
    QStringList q;
    if (opts.flags)
        q << QStringLiteral("flags=%1").arg(*opts.flags);
    if (opts.cas)
        q << QStringLiteral("cas=%1").arg(*opts.cas);
    if (!opts.acquire.isEmpty())
        q << QStringLiteral("acquire=") + opts.acquire;
    if (!opts.release.isEmpty())
        q << QStringLiteral("release=") + opts.release;
    return send("PUT", QStringLiteral("/v1/kv/") + key, q.join(QLatin1Char('&')),
                value.isNull() ? QByteArray("") : value, boolReply(std::move(done)));
}

ConsulClient::RequestId ConsulClient::kvDelete(const QString &key, const KvDeleteOptions &opts,
                                               core::Callback<BoolResult> done) {
    QStringList q;
    if (opts.cas)
        q << QStringLiteral("cas=%1").arg(*opts.cas);
    if (opts.recurse)
        q << QStringLiteral("recurse");
    return send("DELETE", QStringLiteral("/v1/kv/") + key, q.join(QLatin1Char('&')), QByteArray(),
                boolReply(std::move(done)));
}

ConsulClient::RequestId ConsulClient::sessionCreate(const SessionRequest &s,
                                                    core::Callback<CreateSessionResult> done) {
    QList<QPair<QString, RawJson>> members;
    if (!s.name.isEmpty())
        members.append({QStringLiteral("Name"), RawJson::string(s.name)});
    if (s.node)
        members.append({QStringLiteral("Node"), RawJson::string(*s.node)});
    if (s.lockDelay)
        members.append({QStringLiteral("LockDelay"), RawJson::string(*s.lockDelay)});
    if (!s.behavior.isEmpty())
        members.append({QStringLiteral("Behavior"), RawJson::string(s.behavior)});
    if (!s.ttl.isEmpty())
        members.append({QStringLiteral("TTL"), RawJson::string(s.ttl)});
    if (s.nodeChecks) {
        QList<RawJson> checks;
        for (const auto &c : *s.nodeChecks)
            checks.append(RawJson::string(c));
        members.append({QStringLiteral("NodeChecks"), RawJson::array(checks)});
    }
    return send("PUT", QStringLiteral("/v1/session/create"), QString(), RawJson::object(members).toCompact(),
                [this, done](HttpResult http) {
                    CreateSessionResult r;
                    if (http.ok()) {
                        const auto parsed = RawJson::parse(http.body);
                        const RawJson *id = parsed.ok() ? parsed.value->find(QStringLiteral("ID")) : nullptr;
                        if (id && id->isString())
                            r.id = id->toString();
                        else
                            malformed(http, QStringLiteral("session create reply has no ID"));
                    }
                    noteHeard(http);
                    r.http = std::move(http);
                    done(std::move(r));
                });
}

ConsulClient::RequestId ConsulClient::sessionDestroy(const QString &id, core::Callback<BoolResult> done) {
    return send("PUT", QStringLiteral("/v1/session/destroy/") + id, QString(), QByteArray(""),
                boolReply(std::move(done)));
}

ConsulClient::RequestId ConsulClient::sessionRenew(const QString &id, core::Callback<SessionsResult> done) {
    return send("PUT", QStringLiteral("/v1/session/renew/") + id, QString(), QByteArray(""),
                sessionsReply(std::move(done)));
}

ConsulClient::RequestId ConsulClient::sessionInfo(const QString &id, const ReadOptions &opts,
                                                  core::Callback<SessionsResult> done) {
    return send("GET", QStringLiteral("/v1/session/info/") + id, readQuery(opts, {}), QByteArray(),
                sessionsReply(std::move(done)));
}

ConsulClient::RequestId ConsulClient::sessionList(const ReadOptions &opts,
                                                  core::Callback<SessionsResult> done) {
    return send("GET", QStringLiteral("/v1/session/list"), readQuery(opts, {}), QByteArray(),
                sessionsReply(std::move(done)));
}

ConsulClient::RequestId ConsulClient::sessionNode(const QString &node, const ReadOptions &opts,
                                                  core::Callback<SessionsResult> done) {
    return send("GET", QStringLiteral("/v1/session/node/") + node, readQuery(opts, {}), QByteArray(),
                sessionsReply(std::move(done)));
}

ConsulClient::RequestId ConsulClient::txn(const QList<TxnOp> &ops, core::Callback<TxnResult> done) {
    QList<RawJson> items;
    for (const auto &op : ops) {
        QList<QPair<QString, RawJson>> kv;
        kv.append({QStringLiteral("Verb"), RawJson::string(op.verb)});
        kv.append({QStringLiteral("Key"), RawJson::string(op.key)});
        if (op.value)
            kv.append({QStringLiteral("Value"), RawJson::string(QString::fromLatin1(op.value->toBase64()))});
        if (op.flags)
            kv.append({QStringLiteral("Flags"), RawJson::number(QByteArray::number(*op.flags))});
        if (op.index)
            kv.append({QStringLiteral("Index"), RawJson::number(QByteArray::number(*op.index))});
        if (!op.session.isEmpty())
            kv.append({QStringLiteral("Session"), RawJson::string(op.session)});
        items.append(RawJson::object({{QStringLiteral("KV"), RawJson::object(kv)}}));
    }
    return send("PUT", QStringLiteral("/v1/txn"), QString(), RawJson::array(items).toCompact(),
                [this, done](HttpResult http) {
                    TxnResult r;
                    if (http.heard && (http.status == 200 || http.status == 409)) {
                        const auto parsed = RawJson::parse(http.body);
                        if (!parsed.ok() || !parsed.value->isObject()) {
                            malformed(http, QStringLiteral("transaction reply is not a JSON object"));
                        } else {
                            QString error;
                            if (const RawJson *res = parsed.value->find(QStringLiteral("Results"));
                                res && res->isArray()) {
                                for (const auto &item : res->items()) {
                                    if (const RawJson *kv = item.find(QStringLiteral("KV"))) {
                                        if (auto e = kvEntryFromJson(*kv, &error))
                                            r.results.append(*e);
                                    }
                                }
                            }
                            if (const RawJson *errs = parsed.value->find(QStringLiteral("Errors"));
                                errs && errs->isArray()) {
                                for (const auto &item : errs->items()) {
                                    const RawJson *op = item.find(QStringLiteral("OpIndex"));
                                    const RawJson *what = item.find(QStringLiteral("What"));
                                    r.errors.append(
                                        {op ? int(op->toInt64().value_or(-1)) : -1,
                                         what && what->isString() ? what->toString() : QString()});
                                }
                            }
                            r.committed = http.status == 200;
                            r.rolledBack = http.status == 409;
                            if (r.rolledBack)
                                http.error.clear(); // a rollback is an answer; `errors` says why
                        }
                    }
                    noteHeard(http);
                    r.http = std::move(http);
                    done(std::move(r));
                });
}

} // namespace semscope::consul
