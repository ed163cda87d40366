#include "ConsulDouble.h"

#include "consul/RawJson.h"

#include <QRandomGenerator>
#if QT_CONFIG(ssl)
#include <QSslServer>
#endif
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <algorithm>

namespace semscope::consul {

namespace {

constexpr qint64 kDefaultWaitMs = 5 * 60 * 1000;
constexpr qint64 kMaxWaitMs = 10 * 60 * 1000;
constexpr qsizetype kMaxKvValueBytes = 512 * 1024;
constexpr int kMaxTxnOps = 64;
constexpr int kLogLimit = 10000;

QByteArray num(quint64 v) {
    return QByteArray::number(v);
}

// Go's url.Values.Encode(): keys sorted, "k=v" joined by '&'.
QByteArray goEncodeQuery(const QUrlQuery &q) {
    auto items = q.queryItems(QUrl::FullyDecoded);
    std::stable_sort(items.begin(), items.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    QByteArray out;
    for (const auto &it : items) {
        if (!out.isEmpty())
            out += '&';
        out += QUrl::toPercentEncoding(it.first) + '=' + QUrl::toPercentEncoding(it.second);
    }
    return out;
}

QStringList allowedMethods(const QString &path) {
    if (path.startsWith(QLatin1String("/v1/kv/")))
        return {QStringLiteral("GET"), QStringLiteral("PUT"), QStringLiteral("DELETE")};
    if (path.startsWith(QLatin1String("/v1/session/create")) ||
        path.startsWith(QLatin1String("/v1/session/destroy/")) ||
        path.startsWith(QLatin1String("/v1/session/renew/")) || path == QLatin1String("/v1/txn"))
        return {QStringLiteral("PUT")};
    if (path.startsWith(QLatin1String("/v1/session/info/")) || path == QLatin1String("/v1/session/list") ||
        path.startsWith(QLatin1String("/v1/session/node/")) || path == QLatin1String("/v1/status/leader") ||
        path == QLatin1String("/v1/status/peers") || path == QLatin1String("/v1/agent/self") ||
        path == QLatin1String("/v1/catalog/nodes") || path.startsWith(QLatin1String("/v1/health/node/")))
        return {QStringLiteral("GET")};
    return {};
}

} // namespace

QByteArray kvEntryJson(const DoubleState::KvEntry &e) {
    QByteArray out = "{\"LockIndex\":" + num(e.lockIndex) + ",\"Key\":" + jsonQuote(e.key) +
                     ",\"Flags\":" + num(e.flags) + ",\"Value\":";
    out += e.hasValue ? '"' + e.value.toBase64() + '"' : QByteArray("null");
    if (!e.session.isEmpty())
        out += ",\"Session\":" + jsonQuote(e.session);
    out += ",\"CreateIndex\":" + num(e.createIndex) + ",\"ModifyIndex\":" + num(e.modifyIndex) + '}';
    return out;
}

struct ConsulDouble::Connection {
    HttpRequestReader reader;
    bool busy = false;
};

struct ConsulDouble::Parked {
    QPointer<QTcpSocket> socket;
    HttpRequest request;
    BlockSpec spec;
    QTimer timer;
};

ConsulDouble::ConsulDouble(QObject *parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
    , m_sessionTimer(new QTimer(this)) {
    m_sessionTimer->setSingleShot(true);
    connect(m_sessionTimer, &QTimer::timeout, this, &ConsulDouble::checkSessionTimers);
    connect(m_server, &QTcpServer::newConnection, this, &ConsulDouble::onNewConnection);
}

ConsulDouble::~ConsulDouble() {
    close();
}

bool ConsulDouble::listen(const QHostAddress &address, quint16 port) {
    return m_server->listen(address, port);
}

bool ConsulDouble::listenTls(const QSslConfiguration &tls, const QHostAddress &address, quint16 port) {
#if QT_CONFIG(ssl)
    auto *server = new QSslServer(this);
    server->setSslConfiguration(tls);
    delete m_server;
    m_server = server;
    m_tls = true;
    connect(m_server, &QTcpServer::pendingConnectionAvailable, this, &ConsulDouble::onNewConnection);
    return m_server->listen(address, port);
#else
    Q_UNUSED(tls);
    Q_UNUSED(address);
    Q_UNUSED(port);
    return false;
#endif
}

void ConsulDouble::close() {
    m_server->close();
    for (const auto &p : std::as_const(m_parked))
        p->timer.stop();
    m_parked.clear();
    const auto sockets = m_connections.keys();
    m_connections.clear();
    for (QTcpSocket *s : sockets) {
        s->disconnect(this);
        s->abort();
        s->deleteLater();
    }
}

QUrl ConsulDouble::url() const {
    QUrl u;
    u.setScheme(m_tls ? QStringLiteral("https") : QStringLiteral("http"));
    QHostAddress a = m_server->serverAddress();
    if (a == QHostAddress::Any || a == QHostAddress::AnyIPv4)
        a = QHostAddress::LocalHost;
    else if (a == QHostAddress::AnyIPv6)
        a = QHostAddress::LocalHostIPv6;
    u.setHost(a.toString());
    u.setPort(m_server->serverPort());
    return u;
}

quint16 ConsulDouble::port() const {
    return m_server->serverPort();
}
QString ConsulDouble::errorString() const {
    return m_server->errorString();
}

void ConsulDouble::setClock(std::function<qint64()> clock) {
    m_state.setClock(std::move(clock));
    scheduleSessionTimer();
}

void ConsulDouble::checkSessionTimers() {
    if (m_state.expireDueSessions() > 0)
        wakeParked();
    scheduleSessionTimer();
}

void ConsulDouble::scheduleSessionTimer() {
    const qint64 next = m_state.nextDeadlineMs();
    if (next < 0) {
        m_sessionTimer->stop();
        return;
    }
    m_sessionTimer->start(int(std::clamp<qint64>(next - m_state.now(), 0, 24LL * 3600 * 1000)));
}

void ConsulDouble::setSerfHealthCritical(bool critical) {
    m_state.setSerfHealthCritical(critical);
    wakeParked();
    scheduleSessionTimer();
}

void ConsulDouble::invalidateSession(const QString &id) {
    m_state.destroySession(id);
    wakeParked();
    scheduleSessionTimer();
}

void ConsulDouble::failRequests(int count, int status, const QByteArray &body, const QString &match) {
    m_faults.append(FaultRule{count, status, body, match});
}

int ConsulDouble::dropBlockingQueries() {
    const auto parked = m_parked;
    m_parked.clear();
    for (const auto &p : parked) {
        p->timer.stop();
        if (p->socket)
            p->socket->abort();
    }
    return int(parked.size());
}

int ConsulDouble::openBlockingQueries() const {
    return int(m_parked.size());
}

void ConsulDouble::onNewConnection() {
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1); // no Nagle stalls on small replies
        m_connections.insert(socket, std::make_shared<Connection>());
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            m_connections.remove(socket);
            m_parked.removeIf([socket](const std::shared_ptr<Parked> &p) { return p->socket == socket; });
            socket->deleteLater();
        });
    }
}

void ConsulDouble::onReadyRead(QTcpSocket *socket) {
    const auto conn = m_connections.value(socket);
    if (!conn)
        return;
    conn->reader.feed(socket->readAll());
    if (!conn->busy)
        processNext(socket);
}

void ConsulDouble::processNext(QTcpSocket *socket) {
    const auto conn = m_connections.value(socket);
    if (!conn || conn->busy)
        return;
    QString error;
    std::optional<HttpRequest> req = conn->reader.next(&error);
    if (!req) {
        if (!error.isEmpty()) {
            HttpResponse r;
            r.status = 400;
            r.body = error.toUtf8();
            socket->write(r.serialize(false));
            socket->disconnectFromHost();
        }
        return;
    }
    conn->busy = true;
    ++m_requestCount;
    const QString target = req->method + QLatin1Char(' ') + QString::fromUtf8(req->target);
    if (m_log.size() >= kLogLimit)
        m_log.removeFirst();
    m_log.append(target);

    for (qsizetype i = 0; i < m_faults.size(); ++i) {
        FaultRule &f = m_faults[i];
        if (f.remaining > 0 && (f.match.isEmpty() || target.contains(f.match))) {
            const Reply fault = text(f.status, f.body);
            if (--f.remaining <= 0)
                m_faults.removeAt(i);
            send(socket, *req, fault.response);
            return;
        }
    }

    const quint64 before = m_state.index();
    Reply reply = route(*req, true);
    if (m_state.index() != before) {
        wakeParked();
        scheduleSessionTimer();
    }
    if (!reply.block) {
        send(socket, *req, reply.response);
        return;
    }
    Q_EMIT blockingQueryParked(target);
    if (m_dropBlocking) {
        socket->abort();
        return;
    }
    auto p = std::make_shared<Parked>();
    p->socket = socket;
    p->request = *req;
    p->spec = *reply.block;
    qint64 wait = p->spec.waitMs;
    if (m_jitter && wait >= 16)
        wait += QRandomGenerator::global()->bounded(wait / 16);
    p->timer.setSingleShot(true);
    std::weak_ptr<Parked> weak = p;
    connect(&p->timer, &QTimer::timeout, this, [this, weak] {
        if (auto parked = weak.lock())
            finishParked(parked, true);
    });
    p->timer.start(int(wait));
    m_parked.append(p);
}

void ConsulDouble::wakeParked() {
    const auto parked = m_parked;
    for (const auto &p : parked) {
        if (p->spec.watch() > p->spec.minIndex)
            finishParked(p, false);
    }
}

void ConsulDouble::finishParked(const std::shared_ptr<Parked> &p, bool timedOut) {
    if (!m_parked.removeOne(p))
        return;
    p->timer.stop();
    if (timedOut)
        ++m_blockingTimeouts;
    if (!p->socket)
        return;
    const Reply reply = route(p->request, false);
    send(p->socket, p->request, reply.response);
}

void ConsulDouble::send(QTcpSocket *socket, const HttpRequest &req, const HttpResponse &response) {
    Q_EMIT requestHandled(req.method, QString::fromUtf8(req.target), response.status);
    const QByteArray bytes = response.serialize(req.keepAlive);
    const bool keepAlive = req.keepAlive;
    auto deliver = [this, socket = QPointer<QTcpSocket>(socket), bytes, keepAlive] {
        if (!socket)
            return;
        socket->write(bytes);
        if (!keepAlive) {
            socket->disconnectFromHost();
            return;
        }
        afterSend(socket);
    };
    if (m_latencyMs > 0)
        QTimer::singleShot(m_latencyMs, this, deliver);
    else
        deliver();
}

void ConsulDouble::afterSend(QTcpSocket *socket) {
    const auto conn = m_connections.value(socket);
    if (!conn)
        return;
    conn->busy = false;
    // A pipelined next request is handled from the event loop, not recursively.
    QMetaObject::invokeMethod(
        this,
        [this, s = QPointer<QTcpSocket>(socket)] {
            if (s)
                processNext(s);
        },
        Qt::QueuedConnection);
}

// ---------------------------------------------------------------------------------------------------------
// Responses

ConsulDouble::Reply ConsulDouble::text(int status, const QByteArray &body) const {
    Reply r;
    r.response.status = status;
    r.response.body = body;
    r.response.setHeader("X-Consul-Default-Acl-Policy", m_aclToken.isEmpty() ? "allow" : "deny");
    if (!body.isEmpty())
        r.response.setHeader("Content-Type", "text/plain; charset=utf-8");
    return r;
}

ConsulDouble::Reply ConsulDouble::json(const HttpRequest &req, const QByteArray &compact, int status) const {
    Reply r;
    r.response.status = status;
    r.response.body = req.has(QStringLiteral("pretty")) ? jsonIndent(compact) : compact;
    r.response.setHeader("X-Consul-Default-Acl-Policy", m_aclToken.isEmpty() ? "allow" : "deny");
    r.response.setHeader("Content-Type", "application/json");
    return r;
}

void ConsulDouble::addQueryMeta(const HttpRequest &req, HttpResponse &r, quint64 index) const {
    QByteArray consistency = "leader";
    if (req.has(QStringLiteral("stale")))
        consistency = "stale";
    else if (req.has(QStringLiteral("consistent")))
        consistency = "consistent";
    r.setHeader("X-Consul-Effective-Consistency", consistency);
    r.setHeader("X-Consul-Index", num(std::max<quint64>(index, 1)));
    r.setHeader("X-Consul-Knownleader", m_knownLeader ? "true" : "false");
    r.setHeader("X-Consul-Lastcontact", "0");
}

std::optional<ConsulDouble::Reply> ConsulDouble::blockingParams(const HttpRequest &req, quint64 *index,
                                                                qint64 *waitMs) const {
    *index = 0;
    *waitMs = kDefaultWaitMs;
    if (req.has(QStringLiteral("wait"))) {
        const auto ns = parseGoDurationNs(req.param(QStringLiteral("wait")));
        if (!ns)
            return text(400, "Invalid wait time");
        *waitMs = std::min<qint64>(*ns / 1'000'000, kMaxWaitMs);
    }
    if (req.has(QStringLiteral("index"))) {
        bool ok = false;
        *index = req.param(QStringLiteral("index")).toULongLong(&ok);
        if (!ok)
            return text(400, "Invalid index");
    }
    return std::nullopt;
}

std::optional<ConsulDouble::Reply> ConsulDouble::maybeBlock(const HttpRequest &req, bool mayBlock,
                                                            quint64 reported, std::function<quint64()> watch,
                                                            Reply &&reply) const {
    quint64 index = 0;
    qint64 waitMs = 0;
    if (auto bad = blockingParams(req, &index, &waitMs))
        return bad;
    if (mayBlock && index > 0 && std::max<quint64>(reported, 1) <= index) {
        reply.block = BlockSpec{index, waitMs, std::move(watch)};
        return std::move(reply);
    }
    return std::nullopt;
}

QByteArray ConsulDouble::sessionJson(const DoubleState::Session &s) const {
    QByteArray checks = "[";
    for (int i = 0; i < s.nodeChecks.size(); ++i)
        checks += (i ? "," : "") + jsonQuote(s.nodeChecks[i]);
    checks += ']';
    return "{\"ID\":" + jsonQuote(s.id) + ",\"Name\":" + jsonQuote(s.name) +
           ",\"Node\":" + jsonQuote(s.node) + ",\"LockDelay\":" + QByteArray::number(s.lockDelayNs) +
           ",\"Behavior\":" + jsonQuote(s.behavior) + ",\"TTL\":" + jsonQuote(s.ttl) +
           ",\"NodeChecks\":" + checks + ",\"ServiceChecks\":null,\"CreateIndex\":" + num(s.createIndex) +
           ",\"ModifyIndex\":" + num(s.modifyIndex) + '}';
}

QByteArray ConsulDouble::sessionListJson(const QList<DoubleState::Session> &list) const {
    QByteArray out = "[";
    for (int i = 0; i < list.size(); ++i)
        out += (i ? "," : "") + sessionJson(list[i]);
    return out + ']';
}

// ---------------------------------------------------------------------------------------------------------
// Routing

ConsulDouble::Reply ConsulDouble::route(const HttpRequest &req, bool mayBlock) {
    const QString &path = req.path;
    if (!path.startsWith(QLatin1String("/v1/")))
        return text(404, "Invalid URL path: not a recognized HTTP API endpoint");
    const QStringList methods = allowedMethods(path);
    if (methods.isEmpty())
        return text(404, "Invalid URL path: not a recognized HTTP API endpoint");
    if (req.method == QLatin1String("OPTIONS")) {
        Reply r = text(200, {});
        r.response.setHeader(
            "Allow", (methods + QStringList{QStringLiteral("OPTIONS")}).join(QLatin1Char(',')).toLatin1());
        return r;
    }
    if (!methods.contains(req.method)) {
        Reply r = text(405, "method " + req.method.toLatin1() + " not allowed");
        r.response.setHeader("Allow", methods.join(QLatin1Char(',')).toLatin1());
        return r;
    }

    // ACL token: ?token= wins over X-Consul-Token, then "Authorization: Bearer <t>".
    QString token = req.param(QStringLiteral("token"));
    if (token.isEmpty())
        token = QString::fromUtf8(req.header("x-consul-token"));
    if (token.isEmpty()) {
        const QByteArray auth = req.header("authorization");
        if (auth.startsWith("Bearer "))
            token = QString::fromUtf8(auth.mid(7).trimmed().split(' ').value(0));
    }
    if (!m_aclToken.isEmpty() && path != QLatin1String("/v1/status/leader")) {
        if (token.isEmpty())
            return text(403, "Permission denied");
        if (token != m_aclToken)
            return text(403, "ACL not found");
    }
    if (req.has(QStringLiteral("dc")) && !req.param(QStringLiteral("dc")).isEmpty() &&
        req.param(QStringLiteral("dc")) != m_datacenter)
        return text(500, "No path to datacenter");
    if (req.has(QStringLiteral("stale")) && req.has(QStringLiteral("consistent")))
        return text(400, "Cannot specify ?stale with ?consistent, conflicting semantics.");

    if (path.startsWith(QLatin1String("/v1/kv/")))
        return handleKv(req, path.mid(7), mayBlock);
    if (path.startsWith(QLatin1String("/v1/session/")))
        return handleSession(req, path.mid(12), mayBlock);
    if (path == QLatin1String("/v1/txn"))
        return handleTxn(req);
    bool handled = false;
    Reply r = handleOther(req, &handled);
    if (handled)
        return r;
    return text(404, "Invalid URL path: not a recognized HTTP API endpoint");
}

ConsulDouble::Reply ConsulDouble::handleKv(const HttpRequest &req, const QString &key, bool mayBlock) {
    if (req.method == QLatin1String("GET"))
        return handleKvGet(req, key, mayBlock);
    if (req.method == QLatin1String("PUT"))
        return handleKvPut(req, key);
    return handleKvDelete(req, key);
}

ConsulDouble::Reply ConsulDouble::handleKvGet(const HttpRequest &req, const QString &key, bool mayBlock) {
    const bool recurse = req.has(QStringLiteral("recurse"));
    const bool keysOnly = req.has(QStringLiteral("keys"));
    if (key.isEmpty() && !recurse && !keysOnly)
        return text(400, "Missing key name");

    if (recurse || keysOnly) {
        const quint64 prefixIdx = m_state.prefixIndex(key);
        const quint64 reported = prefixIdx ? prefixIdx : m_state.kvTableIndex();
        Reply reply;
        const QList<DoubleState::KvEntry> entries = m_state.list(key);
        if (keysOnly) {
            QString sep = req.param(QStringLiteral("separator"));
            if (sep.isEmpty())
                sep = req.param(QStringLiteral("seperator"));
            QStringList keys;
            for (const auto &e : entries) {
                QString k = e.key;
                if (!sep.isEmpty()) {
                    const qsizetype at = k.indexOf(sep, key.size());
                    if (at >= 0)
                        k = k.left(at + sep.size());
                }
                if (keys.isEmpty() || keys.last() != k)
                    keys.append(k);
            }
            if (keys.isEmpty() && !key.isEmpty()) {
                reply = text(404, {});
            } else {
                QByteArray body = "[";
                for (int i = 0; i < keys.size(); ++i)
                    body += (i ? "," : "") + jsonQuote(keys[i]);
                reply = json(req, body + ']');
            }
        } else if (entries.isEmpty()) {
            reply = text(404, {});
        } else {
            QByteArray body = "[";
            for (int i = 0; i < entries.size(); ++i)
                body += (i ? "," : "") + kvEntryJson(entries[i]);
            reply = json(req, body + ']');
        }
        addQueryMeta(req, reply.response, reported);
        Reply copy = reply;
        if (auto r = maybeBlock(
                req, mayBlock, reported, [this, key] { return m_state.prefixIndex(key); }, std::move(copy)))
            return *r;
        return reply;
    }

    const quint64 reported = m_state.kvTableIndex();
    Reply reply;
    const DoubleState::KvEntry *e = m_state.get(key);
    if (!e) {
        reply = text(404, {});
    } else if (req.has(QStringLiteral("raw"))) {
        reply = text(200, e->value);
        reply.response.setHeader("Content-Type", "text/plain");
        reply.response.setHeader("X-Content-Type-Options", "nosniff");
        reply.response.setHeader("Content-Security-Policy", "sandbox");
    } else {
        reply = json(req, '[' + kvEntryJson(*e) + ']');
    }
    addQueryMeta(req, reply.response, reported);
    Reply copy = reply;
    if (auto r = maybeBlock(
            req, mayBlock, reported, [this, key] { return m_state.keyIndex(key); }, std::move(copy)))
        return *r;
    return reply;
}

ConsulDouble::Reply ConsulDouble::handleKvPut(const HttpRequest &req, const QString &key) {
    if (key.isEmpty())
        return text(400, "Missing key name");
    const int modes = int(req.has(QStringLiteral("cas"))) + int(req.has(QStringLiteral("acquire"))) +
                      int(req.has(QStringLiteral("release")));
    if (modes > 1)
        return text(400, "Conflicting flags: " + goEncodeQuery(req.query) + '\n');
    if (req.body.size() > kMaxKvValueBytes)
        return text(413, "Request body(" + QByteArray::number(req.body.size()) +
                             " bytes) too large, max size: " + QByteArray::number(kMaxKvValueBytes) +
                             " bytes. See https://developer.hashicorp.com/docs/agent/config/"
                             "config-files#kv_max_value_size.");
    DoubleState::PutOptions opts;
    if (req.has(QStringLiteral("flags"))) {
        bool ok = false;
        opts.flags = req.param(QStringLiteral("flags")).toULongLong(&ok);
        if (!ok)
            return text(400, "Invalid flags: " + req.param(QStringLiteral("flags")).toUtf8());
    }
    if (req.has(QStringLiteral("cas"))) {
        bool ok = false;
        opts.cas = req.param(QStringLiteral("cas")).toULongLong(&ok);
        if (!ok)
            return text(400, "Invalid cas index: " + req.param(QStringLiteral("cas")).toUtf8());
    }
    if (req.has(QStringLiteral("acquire")))
        opts.acquire = req.param(QStringLiteral("acquire"));
    if (req.has(QStringLiteral("release")))
        opts.release = req.param(QStringLiteral("release"));
    QString error;
    const bool ok = m_state.put(key, req.body, opts, &error);
    if (!error.isEmpty())
        return text(500, error.toUtf8());
    return json(req, ok ? "true" : "false");
}

ConsulDouble::Reply ConsulDouble::handleKvDelete(const HttpRequest &req, const QString &key) {
    const bool recurse = req.has(QStringLiteral("recurse"));
    if (recurse && req.has(QStringLiteral("cas")))
        return text(400, "Conflicting flags: " + goEncodeQuery(req.query) + '\n');
    if (key.isEmpty() && !recurse)
        return text(400, "Missing key name");
    std::optional<quint64> cas;
    if (req.has(QStringLiteral("cas"))) {
        bool ok = false;
        cas = req.param(QStringLiteral("cas")).toULongLong(&ok);
        if (!ok)
            return text(400, "Invalid cas index: " + req.param(QStringLiteral("cas")).toUtf8());
    }
    return json(req, m_state.remove(key, recurse, cas) ? "true" : "false");
}

ConsulDouble::Reply ConsulDouble::handleSession(const HttpRequest &req, const QString &rest, bool mayBlock) {
    auto idAfter = [&rest](const QString &prefix) { return rest.mid(prefix.size()); };
    if (rest == QLatin1String("create"))
        return handleSessionCreate(req);
    if (rest.startsWith(QLatin1String("destroy/"))) {
        const QString id = idAfter(QStringLiteral("destroy/"));
        if (id.isEmpty())
            return text(400, "Missing session");
        m_state.destroySession(id);
        return json(req, "true");
    }
    if (rest.startsWith(QLatin1String("renew/"))) {
        const QString id = idAfter(QStringLiteral("renew/"));
        if (id.isEmpty())
            return text(400, "Missing session");
        const DoubleState::Session *s = m_state.renewSession(id);
        scheduleSessionTimer();
        if (!s)
            return text(404, "Session id '" + id.toUtf8() + "' not found");
        return json(req, '[' + sessionJson(*s) + ']');
    }
    QList<DoubleState::Session> list;
    if (rest.startsWith(QLatin1String("info/"))) {
        const QString id = idAfter(QStringLiteral("info/"));
        if (id.isEmpty())
            return text(400, "Missing session");
        if (const auto *s = m_state.session(id))
            list.append(*s);
    } else if (rest == QLatin1String("list")) {
        list = m_state.sessions();
    } else if (rest.startsWith(QLatin1String("node/"))) {
        const QString node = idAfter(QStringLiteral("node/"));
        if (node.isEmpty())
            return text(400, "Missing node name");
        list = m_state.sessionsOnNode(node);
    } else {
        return text(404, "Invalid URL path: not a recognized HTTP API endpoint");
    }
    Reply reply = json(req, sessionListJson(list));
    const quint64 reported = m_state.sessionsIndex();
    addQueryMeta(req, reply.response, reported);
    Reply copy = reply;
    if (auto r = maybeBlock(
            req, mayBlock, reported, [this] { return m_state.sessionsIndex(); }, std::move(copy)))
        return *r;
    return reply;
}

ConsulDouble::Reply ConsulDouble::handleSessionCreate(const HttpRequest &req) {
    DoubleState::SessionSpec spec;
    if (!req.body.trimmed().isEmpty()) {
        const auto parsed = RawJson::parse(req.body);
        if (!parsed.ok())
            return text(400, "Request decode failed: " + parsed.error.toUtf8());
        const RawJson &o = *parsed.value;
        if (!o.isObject())
            return text(400, "Request decode failed: json: cannot unmarshal " + o.typeName().toUtf8() +
                                 " into Go value of type structs.Session");
        auto str = [&o](const char *name, QString *out) -> bool {
            const RawJson *v = o.find(QString::fromLatin1(name));
            if (!v || v->isNull())
                return true;
            if (!v->isString())
                return false;
            *out = v->toString();
            return true;
        };
        QString node;
        bool hasNode = o.find(QStringLiteral("Node")) != nullptr;
        if (!str("Name", &spec.name) || !str("Behavior", &spec.behavior) || !str("TTL", &spec.ttl) ||
            !str("Node", &node))
            return text(400, "Request decode failed: a string field has the wrong type");
        if (hasNode && !node.isEmpty())
            spec.node = node;
        if (const RawJson *ld = o.find(QStringLiteral("LockDelay")); ld && !ld->isNull()) {
            if (ld->isString()) {
                const auto ns = parseGoDurationNs(ld->toString());
                if (!ns)
                    return text(400, "Request decode failed: time: invalid duration \"" +
                                         ld->toString().toUtf8() + '"');
                spec.lockDelayNs = *ns;
            } else if (const auto n = ld->toInt64()) {
                spec.lockDelayNs = *n < 1000 ? *n * 1'000'000'000 : *n;
            } else {
                return text(400, "Request decode failed: invalid LockDelay");
            }
        }
        for (const char *name : {"Checks", "NodeChecks"}) {
            const RawJson *c = o.find(QString::fromLatin1(name));
            if (!c || c->isNull())
                continue;
            if (!c->isArray())
                return text(400, "Request decode failed: " + QByteArray(name) + " must be a list");
            QStringList list;
            for (const auto &item : c->items()) {
                if (!item.isString())
                    return text(400,
                                "Request decode failed: " + QByteArray(name) + " must be a list of strings");
                list.append(item.toString());
            }
            spec.nodeChecks = list;
        }
        if (const RawJson *sc = o.find(QStringLiteral("ServiceChecks")); sc && sc->isArray()) {
            for (const auto &item : sc->items()) {
                DoubleState::ServiceCheck check;
                if (const RawJson *id = item.find(QStringLiteral("ID")); id && id->isString())
                    check.id = id->toString();
                spec.serviceChecks.append(check);
            }
        }
    }
    QString error;
    const QString id = m_state.createSession(spec, &error);
    if (id.isEmpty())
        return text(500, error.toUtf8());
    return json(req, "{\"ID\":" + jsonQuote(id) + '}');
}

ConsulDouble::Reply ConsulDouble::handleTxn(const HttpRequest &req) {
    const auto parsed = RawJson::parse(req.body);
    if (!parsed.ok())
        return text(400, "Failed to parse body: " + parsed.error.toUtf8());
    if (!parsed.value->isArray())
        return text(400, "Failed to parse body: json: cannot unmarshal " + parsed.value->typeName().toUtf8() +
                             " into Go value of type api.TxnOps");
    const auto &items = parsed.value->items();
    if (items.size() > kMaxTxnOps)
        return text(413, "Transaction contains too many operations (" + QByteArray::number(items.size()) +
                             " > " + QByteArray::number(kMaxTxnOps) + ")");
    QList<DoubleState::TxnOp> ops;
    bool readOnly = true;
    for (const auto &item : items) {
        const RawJson *kv = item.find(QStringLiteral("KV"));
        if (!kv || !kv->isObject())
            return text(400, "Failed to parse body: only KV operations are supported by this agent");
        DoubleState::TxnOp op;
        const RawJson *verb = kv->find(QStringLiteral("Verb"));
        const RawJson *key = kv->find(QStringLiteral("Key"));
        if (!verb || !verb->isString())
            return text(400, "Failed to parse body: missing Verb");
        op.verb = verb->toString();
        if (key && key->isString())
            op.key = key->toString();
        if (const RawJson *v = kv->find(QStringLiteral("Value")); v && v->isString()) {
            const auto decoded = QByteArray::fromBase64Encoding(v->toString().toLatin1(),
                                                                QByteArray::AbortOnBase64DecodingErrors);
            if (!decoded)
                return text(400, "Failed to parse body: illegal base64 data in Value");
            op.value = *decoded;
            op.hasValue = !op.value.isEmpty();
        }
        for (const auto &[name, target] :
             {std::pair<const char *, quint64 *>{"Flags", &op.flags}, {"Index", &op.index}}) {
            const RawJson *n = kv->find(QString::fromLatin1(name));
            if (!n || n->isNull())
                continue;
            const auto v = n->toUInt64();
            if (!v)
                return text(400,
                            "Failed to parse body: " + QByteArray(name) + " must be an unsigned integer");
            *target = *v;
        }
        if (const RawJson *s = kv->find(QStringLiteral("Session")); s && s->isString())
            op.session = s->toString();
        if (!op.verb.startsWith(QLatin1String("get")) && !op.verb.startsWith(QLatin1String("check")))
            readOnly = false;
        ops.append(op);
    }
    const DoubleState::TxnResult result = m_state.applyTxn(ops);
    if (!result.ok) {
        return json(req,
                    "{\"Results\":null,\"Errors\":[{\"OpIndex\":" + QByteArray::number(result.errorOp) +
                        ",\"What\":" + jsonQuote(result.what) + "}]}",
                    409);
    }
    QByteArray results = "null";
    if (!result.results.isEmpty()) {
        results = "[";
        for (int i = 0; i < result.results.size(); ++i)
            results += (i ? "," : "") + QByteArray("{\"KV\":") + kvEntryJson(result.results[i]) + '}';
        results += ']';
    }
    Reply r = json(req, "{\"Results\":" + results + ",\"Errors\":null}");
    if (readOnly) {
        r.response.setHeader("X-Consul-Knownleader", m_knownLeader ? "true" : "false");
        r.response.setHeader("X-Consul-Lastcontact", "0");
    }
    return r;
}

ConsulDouble::Reply ConsulDouble::handleOther(const HttpRequest &req, bool *handled) {
    *handled = true;
    const QString &path = req.path;
    const QByteArray node = jsonQuote(m_state.nodeName());
    if (path == QLatin1String("/v1/status/leader"))
        return json(req, "\"127.0.0.1:8300\"");
    if (path == QLatin1String("/v1/status/peers"))
        return json(req, "[\"127.0.0.1:8300\"]");
    if (path == QLatin1String("/v1/agent/self"))
        return json(req, "{\"Config\":{\"Datacenter\":" + jsonQuote(m_datacenter) + ",\"NodeName\":" + node +
                             ",\"Server\":true,\"Version\":\"1.16.0\"},\"Member\":{\"Name\":" + node +
                             ",\"Addr\":\"127.0.0.1\",\"Status\":1}}");
    if (path == QLatin1String("/v1/catalog/nodes")) {
        Reply r = json(req, "[{\"Node\":" + node + ",\"Address\":\"127.0.0.1\",\"Datacenter\":" +
                                jsonQuote(m_datacenter) + ",\"CreateIndex\":5,\"ModifyIndex\":5}]");
        addQueryMeta(req, r.response, 5);
        return r;
    }
    if (path.startsWith(QLatin1String("/v1/health/node/"))) {
        QByteArray body = "[]";
        if (path.mid(16) == m_state.nodeName()) {
            const bool critical = m_state.serfHealthCritical();
            body = "[{\"Node\":" + node +
                   ",\"CheckID\":\"serfHealth\",\"Name\":\"Serf Health Status\",\"Status\":\"" +
                   (critical ? "critical" : "passing") + "\",\"Notes\":\"\",\"Output\":\"" +
                   (critical ? "Agent not live or unreachable" : "Agent alive and reachable") +
                   "\",\"ServiceID\":\"\",\"ServiceName\":\"\"}]";
        }
        Reply r = json(req, body);
        addQueryMeta(req, r.response, m_state.index());
        return r;
    }
    *handled = false;
    return {};
}

} // namespace semscope::consul
