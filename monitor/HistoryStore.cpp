#include "HistoryStore.h"

#include "core/CountText.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSettings>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QSysInfo>
#include <QThread>
#include <QUuid>
#include <QVariant>

Q_LOGGING_CATEGORY(lcHistory, "semscope.history")

namespace semscope::monitor {

namespace {

// SQLite result codes (QSqlError::nativeErrorCode) that mean the file itself is unusable.
bool isDamage(const QSqlError &error) {
    const QString code = error.nativeErrorCode();
    return code == QLatin1String("11") || code == QLatin1String("26"); // SQLITE_CORRUPT, SQLITE_NOTADB
}

// SQLITE_BUSY and its extended codes (recovery, snapshot, timeout) share the low byte 5.
bool isBusy(const QSqlError &error) {
    bool ok = false;
    const int code = error.nativeErrorCode().toInt(&ok);
    return ok && (code & 0xff) == 5;
}

// Binds `values` to the prepared `q`, in the order of its placeholders, and runs it.
bool execWith(QSqlQuery &q, const QVariantList &values) {
    for (const QVariant &v : values)
        q.addBindValue(v);
    return q.exec();
}

bool execWith(QSqlQuery &q, const QString &sql, const QVariantList &values) {
    return q.prepare(sql) && execWith(q, values);
}

// The columns every table keys a semaphore by: endpoint, kind, name.
QVariantList semaphoreColumns(const QString &endpoint, const core::SemaphoreRef &ref) {
    return {endpoint, core::kindName(ref.kind), ref.name};
}

QVariant optionalValue(const std::optional<qint64> &v) {
    return v ? QVariant(*v) : QVariant(QMetaType::fromType<qint64>());
}

std::optional<qint64> optionalFrom(const QVariant &v) {
    if (v.isNull())
        return std::nullopt;
    return v.toLongLong();
}

const char *const kSchema[] = {
    // One row per hold: a holder seen on a semaphore from first_seen until it was seen gone (ended).
    "CREATE TABLE IF NOT EXISTS holds(id INTEGER PRIMARY KEY, endpoint TEXT NOT NULL, kind TEXT NOT NULL,"
    " name TEXT NOT NULL, holder TEXT NOT NULL, first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL,"
    " ended INTEGER)",
    "CREATE UNIQUE INDEX IF NOT EXISTS holds_open ON holds(endpoint, kind, name, holder) WHERE ended IS NULL",
    "CREATE INDEX IF NOT EXISTS holds_by_time ON holds(endpoint, kind, name, last_seen)",
    "CREATE TABLE IF NOT EXISTS events(id INTEGER PRIMARY KEY, endpoint TEXT NOT NULL, kind TEXT NOT NULL,"
    " name TEXT NOT NULL, at_ms INTEGER NOT NULL, event TEXT NOT NULL, holder TEXT, token INTEGER,"
    " slot INTEGER, ttl_ms INTEGER, details TEXT)",
    "CREATE INDEX IF NOT EXISTS events_by_time ON events(endpoint, kind, name, at_ms)",
    // Retention deletes by age: these keep it from reading whole tables on every start.
    "CREATE INDEX IF NOT EXISTS events_by_age ON events(at_ms)",
    "CREATE INDEX IF NOT EXISTS holds_by_age ON holds(last_seen)",
    "CREATE TABLE IF NOT EXISTS force_releases(id INTEGER PRIMARY KEY, endpoint TEXT NOT NULL,"
    " kind TEXT NOT NULL, name TEXT NOT NULL, holder TEXT NOT NULL, origin TEXT, at_ms INTEGER NOT NULL)",
    "CREATE INDEX IF NOT EXISTS force_releases_by_time ON force_releases(endpoint, kind, name, at_ms)",
    "CREATE TABLE IF NOT EXISTS seen_semaphores(endpoint TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT "
    "NULL,"
    " first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, PRIMARY KEY(endpoint, kind, name))",
};

} // namespace

HistoryStore::HistoryStore(QString path, int busyTimeoutMs)
    : m_path(path.isEmpty() ? defaultPath() : std::move(path))
    , m_busyTimeoutMs(busyTimeoutMs)
    , m_connectionName(QStringLiteral("semscope-history-") +
                       QUuid::createUuid().toString(QUuid::WithoutBraces)) {
    const auto [age, bytes] = retentionFromSettings();
    m_maxAgeMs = age;
    m_maxBytes = bytes;
    m_available = open();
    if (m_available)
        prune(QDateTime::currentMSecsSinceEpoch());
}

HistoryStore::~HistoryStore() {
    if (QSqlDatabase::contains(m_connectionName)) {
        QSqlDatabase::database(m_connectionName, false).close();
        QSqlDatabase::removeDatabase(m_connectionName);
    }
}

QString HistoryStore::defaultPath() {
    const QString env = qEnvironmentVariable("SEMSCOPE_HISTORY");
    if (!env.isEmpty())
        return env;
    // The app and the CLI have different application names (so different AppDataLocations) but one
    // organisation: the history sits in the organisation's data folder, shared by both.
    const QString organisation = QCoreApplication::organizationName().isEmpty()
                                     ? QStringLiteral("semscope")
                                     : QCoreApplication::organizationName();
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QLatin1Char('/') +
           organisation + QStringLiteral("/history.sqlite");
}

std::pair<qint64, qint64> HistoryStore::retentionFromSettings() {
    // The app's settings file (the CLI reads the same one), whichever program asks.
    QSettings settings(QSettings::UserScope,
                       QCoreApplication::organizationName().isEmpty() ? QStringLiteral("semscope")
                                                                      : QCoreApplication::organizationName(),
                       QStringLiteral("semscope"));
    const qint64 days = settings.value(QStringLiteral("history/maxAgeDays"), 30).toLongLong();
    const qint64 mb = settings.value(QStringLiteral("history/maxMegabytes"), 100).toLongLong();
    return {qMax<qint64>(1, days) * 24 * 3600 * 1000, qMax<qint64>(1, mb) * 1024 * 1024};
}

void HistoryStore::setRetention(qint64 maxAgeMs, qint64 maxBytes) {
    m_maxAgeMs = qMax<qint64>(1, maxAgeMs);
    m_maxBytes = qMax<qint64>(64 * 1024, maxBytes);
}

void HistoryStore::disable(const QString &what, const QString &error) const {
    m_available = false;
    m_warning = QStringLiteral("history file %1 %2: %3; continuing without history").arg(m_path, what, error);
    qCWarning(lcHistory).noquote() << m_warning;
    if (QSqlDatabase::contains(m_connectionName))
        QSqlDatabase::database(m_connectionName, false).close();
}

void HistoryStore::noteReadError(const QSqlError &error) const {
    // A damaged page shows when it is read: from then on the history is off, said once.
    if (isDamage(error))
        disable(QStringLiteral("is damaged"), error.text());
}

bool HistoryStore::exec(const QString &sql) {
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    if (q.exec(sql))
        return true;
    const QSqlError error = q.lastError();
    if (isDamage(error)) {
        disable(QStringLiteral("is damaged"), error.text());
    } else {
        // Busy past the timeout, disk full...: this write fails, the next one may work.
        m_warning = QStringLiteral("history file %1: %2").arg(m_path, error.text());
        qCWarning(lcHistory).noquote() << m_warning;
    }
    return false;
}

bool HistoryStore::open() {
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE"))) {
        disable(QStringLiteral("cannot be used"),
                QStringLiteral(
                    "Qt's SQLite driver (QSQLITE, Debian package libqt6sql6-sqlite) is not installed"));
        return false;
    }
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    db.setDatabaseName(m_path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(m_busyTimeoutMs));
    if (!db.open()) {
        disable(QStringLiteral("cannot be opened"), db.lastError().text());
        return false;
    }
    m_available = true;
    // WAL lets readers and one writer work at once across processes; NORMAL sync is safe with WAL
    // (a power cut may lose the last events, never the file).
    QSqlQuery q(db);
    QStringList statements{QStringLiteral("PRAGMA journal_mode=WAL"),
                           QStringLiteral("PRAGMA synchronous=NORMAL")};
    for (const char *statement : kSchema)
        statements << QString::fromLatin1(statement);
    // SQLite answers "busy" at once, without waiting the busy timeout, when waiting could deadlock:
    // a statement that read the file and must now write it (turning on WAL, creating a table) while
    // another process does the same on a fresh file. That statement has then released its locks, so
    // running it again is safe and soon succeeds; giving up instead turned the history off for good.
    QDeadlineTimer deadline(m_busyTimeoutMs);
    for (const QString &statement : std::as_const(statements)) {
        bool done = q.exec(statement);
        while (!done && isBusy(q.lastError()) && !deadline.hasExpired()) {
            QThread::msleep(5);
            done = q.exec(statement);
        }
        if (!done) {
            disable(isDamage(q.lastError()) ? QStringLiteral("is damaged") : QStringLiteral("cannot be used"),
                    q.lastError().text());
            return false;
        }
    }
    return true;
}

void HistoryStore::prune(qint64 nowMs) {
    if (!m_available)
        return;
    m_lastPruneMs = nowMs;
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    const qint64 cutoff = nowMs - m_maxAgeMs;
    QSqlQuery q(db);
    for (const char *sql :
         {"DELETE FROM events WHERE at_ms < ?", "DELETE FROM holds WHERE last_seen < ?",
          "DELETE FROM force_releases WHERE at_ms < ?", "DELETE FROM seen_semaphores WHERE last_seen < ?"}) {
        if (!execWith(q, QString::fromLatin1(sql), {cutoff})) {
            if (isDamage(q.lastError()))
                disable(QStringLiteral("is damaged"), q.lastError().text());
            return;
        }
    }
    // The size bound counts pages in use: SQLite reuses freed pages, so the file stops growing there
    // without a VACUUM (which would lock out other processes).
    for (int i = 0; i < 20; ++i) {
        if (!q.exec(QStringLiteral(
                "SELECT (SELECT page_count FROM pragma_page_count()) - (SELECT freelist_count "
                "FROM pragma_freelist_count()), (SELECT page_size FROM pragma_page_size())")) ||
            !q.next())
            return;
        const qint64 used = q.value(0).toLongLong() * q.value(1).toLongLong();
        if (used <= m_maxBytes)
            return;
        // Oldest tenth of the events and of the finished holds.
        if (!exec(QStringLiteral("DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY at_ms LIMIT "
                                 "MAX(1, (SELECT COUNT(*) FROM events) / 10))")) ||
            !exec(
                QStringLiteral("DELETE FROM holds WHERE id IN (SELECT id FROM holds WHERE ended IS NOT NULL "
                               "ORDER BY last_seen LIMIT MAX(1, (SELECT COUNT(*) FROM holds) / 10))")))
            return;
    }
}

int HistoryStore::pendingEvents() const {
    int n = 0;
    for (const auto &batch : m_pending)
        n += int(batch.second.size());
    return n;
}

bool HistoryStore::record(const QString &endpoint, const QList<HolderEvent> &list) {
    if (!m_available)
        return false;
    if (!list.isEmpty())
        m_pending.append({endpoint, list});
    int dropped = 0;
    for (int n = pendingEvents(); n > kMaxPendingEvents; --n) {
        m_pending.first().second.removeFirst();
        if (m_pending.first().second.isEmpty())
            m_pending.removeFirst();
        ++dropped;
    }
    if (dropped > 0)
        qCWarning(lcHistory).noquote()
            << (m_warning =
                    QStringLiteral("history file %1: %2 could not be written for a long time and "
                                   "%3 dropped (at most %4 are kept waiting)")
                        .arg(m_path,
                             core::countText(dropped, QStringLiteral("event"), QStringLiteral("events")),
                             core::forCount(dropped, QStringLiteral("was"), QStringLiteral("were")))
                        .arg(kMaxPendingEvents));
    while (!m_pending.isEmpty()) {
        if (!write(m_pending.first().first, m_pending.first().second))
            return false; // kept for the next call
        m_pending.removeFirst();
    }
    return true;
}

bool HistoryStore::write(const QString &endpoint, const QList<HolderEvent> &list) {
    if (!m_available)
        return false;
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    if (!exec(QStringLiteral("BEGIN IMMEDIATE")))
        return false;
    QSqlQuery q(db);
    q.prepare(
        QStringLiteral("INSERT INTO events(endpoint, kind, name, at_ms, event, holder, token, slot, ttl_ms, "
                       "details) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const HolderEvent &e : list) {
        if (!execWith(q, semaphoreColumns(endpoint, e.ref) +
                             QVariantList{e.atMs, e.event, e.holder, optionalValue(e.token),
                                          optionalValue(e.slot), optionalValue(e.ttlMs), e.details})) {
            const QSqlError error = q.lastError();
            exec(QStringLiteral("ROLLBACK"));
            if (isDamage(error))
                disable(QStringLiteral("is damaged"), error.text());
            else
                qCWarning(lcHistory).noquote()
                    << (m_warning = QStringLiteral("history file %1: %2").arg(m_path, error.text()));
            return false;
        }
    }
    if (!exec(QStringLiteral("COMMIT"))) {
        exec(QStringLiteral("ROLLBACK"));
        return false;
    }
    const qint64 now = list.constLast().atMs;
    if (now - m_lastPruneMs > 60000)
        prune(now);
    return true;
}

QHash<QString, qint64> HistoryStore::recordSeen(const QString &endpoint, const core::SemaphoreRef &ref,
                                                const QStringList &holders, qint64 nowMs) {
    QHash<QString, qint64> first;
    if (!m_available)
        return first;
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    // One transaction: two processes recording the same semaphore at once see each other's holds
    // whole (BEGIN IMMEDIATE takes the write lock up front, so neither has to upgrade and fail).
    if (!exec(QStringLiteral("BEGIN IMMEDIATE")))
        return first;
    QSqlQuery q(db);
    const QVariantList semaphore = semaphoreColumns(endpoint, ref);
    QHash<QString, qint64> open;
    bool ok =
        execWith(q,
                 QStringLiteral("SELECT holder, first_seen FROM holds WHERE endpoint = ? AND kind = ? AND "
                                "name = ? AND ended IS NULL"),
                 semaphore);
    if (ok)
        while (q.next())
            open.insert(q.value(0).toString(), q.value(1).toLongLong());
    const QSet<QString> present(holders.begin(), holders.end());
    for (auto it = open.cbegin(); ok && it != open.cend(); ++it) {
        if (present.contains(it.key()))
            continue;
        ok =
            execWith(q,
                     QStringLiteral("UPDATE holds SET ended = ? WHERE endpoint = ? AND kind = ? AND name = ? "
                                    "AND holder = ? AND ended IS NULL"),
                     QVariantList{nowMs} + semaphore + QVariantList{it.key()});
    }
    for (const QString &holder : holders) {
        if (!ok)
            break;
        const QVariantList seen = QVariantList{nowMs} + semaphore + QVariantList{holder};
        if (open.contains(holder)) {
            first.insert(holder, qMin(open.value(holder), nowMs));
            ok = execWith(
                q,
                QStringLiteral("UPDATE holds SET last_seen = MAX(last_seen, ?) WHERE endpoint = ? AND "
                               "kind = ? AND name = ? AND holder = ? AND ended IS NULL"),
                seen);
        } else {
            first.insert(holder, nowMs);
            ok = execWith(
                q,
                QStringLiteral("INSERT INTO holds(last_seen, endpoint, kind, name, holder, first_seen) "
                               "VALUES(?, ?, ?, ?, ?, ?)"),
                seen + QVariantList{nowMs});
        }
    }
    if (!ok) {
        const QSqlError error = q.lastError();
        exec(QStringLiteral("ROLLBACK"));
        if (isDamage(error))
            disable(QStringLiteral("is damaged"), error.text());
        else
            qCWarning(lcHistory).noquote()
                << (m_warning = QStringLiteral("history file %1: %2").arg(m_path, error.text()));
        return {};
    }
    if (!exec(QStringLiteral("COMMIT"))) {
        exec(QStringLiteral("ROLLBACK"));
        return {};
    }
    if (nowMs - m_lastPruneMs > 60000)
        prune(nowMs);
    return first;
}

std::optional<qint64> HistoryStore::firstSeen(const QString &endpoint, const core::SemaphoreRef &ref,
                                              const QString &holder) const {
    if (!m_available)
        return std::nullopt;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    if (execWith(
            q,
            QStringLiteral("SELECT first_seen FROM holds WHERE endpoint = ? AND kind = ? AND name = ? AND "
                           "holder = ? AND ended IS NULL"),
            semaphoreColumns(endpoint, ref) + QVariantList{holder}) &&
        q.next())
        return q.value(0).toLongLong();
    noteReadError(q.lastError());
    return std::nullopt;
}

QList<HoldRecord> HistoryStore::holds(const QString &endpoint, const core::SemaphoreRef &ref, qint64 sinceMs,
                                      int limit) const {
    QList<HoldRecord> out;
    if (!m_available)
        return out;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    if (!execWith(
            q,
            QStringLiteral("SELECT holder, first_seen, last_seen, ended FROM holds WHERE endpoint = ? AND "
                           "kind = ? AND name = ? AND (ended IS NULL OR ended >= ?) ORDER BY first_seen "
                           "DESC LIMIT ?"),
            semaphoreColumns(endpoint, ref) + QVariantList{sinceMs, limit})) {
        noteReadError(q.lastError());
        return out;
    }
    while (q.next())
        out << HoldRecord{q.value(0).toString(), q.value(1).toLongLong(), q.value(2).toLongLong(),
                          optionalFrom(q.value(3))};
    return out;
}

QList<HolderEvent> HistoryStore::events(const QString &endpoint, const core::SemaphoreRef &ref,
                                        qint64 sinceMs, int limit) const {
    QList<HolderEvent> out;
    if (!m_available)
        return out;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    if (!execWith(
            q,
            QStringLiteral("SELECT at_ms, event, holder, token, slot, ttl_ms, details FROM events WHERE "
                           "endpoint = ? AND kind = ? AND name = ? AND at_ms >= ? ORDER BY at_ms DESC, "
                           "id DESC LIMIT ?"),
            semaphoreColumns(endpoint, ref) + QVariantList{sinceMs, limit})) {
        noteReadError(q.lastError());
        return out;
    }
    while (q.next()) {
        HolderEvent e;
        e.ref = ref;
        e.atMs = q.value(0).toLongLong();
        e.event = q.value(1).toString();
        e.holder = q.value(2).toString();
        e.token = optionalFrom(q.value(3));
        e.slot = optionalFrom(q.value(4));
        e.ttlMs = optionalFrom(q.value(5));
        e.details = q.value(6).toString();
        out << e;
    }
    return out;
}

std::optional<qint64> HistoryStore::markForceRelease(const QString &endpoint, const core::SemaphoreRef &ref,
                                                     const QString &holder, const QString &origin,
                                                     qint64 nowMs) {
    if (!m_available)
        return std::nullopt;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    if (!execWith(q,
                  QStringLiteral("INSERT INTO force_releases(endpoint, kind, name, holder, origin, at_ms) "
                                 "VALUES(?, ?, ?, ?, ?, ?)"),
                  semaphoreColumns(endpoint, ref) + QVariantList{holder, origin, nowMs})) {
        m_warning = QStringLiteral("history file %1: %2").arg(m_path, q.lastError().text());
        qCWarning(lcHistory).noquote() << m_warning;
        return std::nullopt;
    }
    return q.lastInsertId().toLongLong();
}

QString HistoryStore::originOfThisProcess(const QString &program) {
    return QStringLiteral("%1 (%2@%3, pid %4)")
        .arg(program, qEnvironmentVariable("USER", QStringLiteral("?")), QSysInfo::machineHostName())
        .arg(QCoreApplication::applicationPid());
}

void HistoryStore::clearForceRelease(qint64 markId) {
    if (!m_available)
        return;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    execWith(q, QStringLiteral("DELETE FROM force_releases WHERE id = ?"), {markId});
}

QString HistoryStore::settleForceRelease(const std::optional<qint64> &mark, bool removed) {
    if (mark && !removed)
        clearForceRelease(*mark);
    if (mark || !removed || !m_available)
        return {};
    return QStringLiteral("the shared history did not record this force-release (%1): a watch or the app "
                          "sees the holder go without being told who removed it; the audit log has it")
        .arg(m_warning);
}

QHash<QString, QString> HistoryStore::forceReleasedSince(const QString &endpoint,
                                                         const core::SemaphoreRef &ref,
                                                         qint64 sinceMs) const {
    QHash<QString, QString> out;
    if (!m_available)
        return out;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    if (!execWith(
            q,
            QStringLiteral("SELECT holder, origin FROM force_releases WHERE endpoint = ? AND kind = ? AND "
                           "name = ? AND at_ms >= ? ORDER BY at_ms"),
            semaphoreColumns(endpoint, ref) + QVariantList{sinceMs})) {
        noteReadError(q.lastError());
        return out;
    }
    while (q.next())
        out.insert(q.value(0).toString(), q.value(1).toString());
    return out;
}

void HistoryStore::recordSemaphoresSeen(const QString &endpoint, const QList<core::SemaphoreRef> &refs,
                                        qint64 nowMs) {
    if (!m_available || refs.isEmpty())
        return;
    // One transaction for the whole scan: thousands of semaphores cost one fsync, not thousands.
    if (!exec(QStringLiteral("BEGIN IMMEDIATE")))
        return;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    bool ok = q.prepare(QStringLiteral(
        "INSERT INTO seen_semaphores(endpoint, kind, name, first_seen, last_seen) VALUES(?, ?, ?, ?, ?) "
        "ON CONFLICT(endpoint, kind, name) DO UPDATE SET last_seen = MAX(last_seen, excluded.last_seen)"));
    for (const core::SemaphoreRef &ref : refs) {
        if (!ok)
            break;
        ok = execWith(q, semaphoreColumns(endpoint, ref) + QVariantList{nowMs, nowMs});
    }
    if (!ok) {
        const QSqlError error = q.lastError();
        exec(QStringLiteral("ROLLBACK"));
        if (isDamage(error))
            disable(QStringLiteral("is damaged"), error.text());
        return;
    }
    if (!exec(QStringLiteral("COMMIT")))
        exec(QStringLiteral("ROLLBACK"));
}

QList<SeenSemaphore> HistoryStore::seenSemaphores(const QString &endpoint) const {
    QList<SeenSemaphore> out;
    if (!m_available)
        return out;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    if (!execWith(q,
                  QStringLiteral("SELECT kind, name, first_seen, last_seen FROM seen_semaphores WHERE "
                                 "endpoint = ? ORDER BY first_seen"),
                  {endpoint})) {
        noteReadError(q.lastError());
        return out;
    }
    while (q.next()) {
        const auto kind = core::kindFromName(q.value(0).toString());
        if (!kind)
            continue; // written by a newer semscope that knows more kinds
        SeenSemaphore seen;
        seen.ref.kind = *kind;
        seen.ref.name = q.value(1).toString();
        seen.firstSeenMs = q.value(2).toLongLong();
        seen.lastSeenMs = q.value(3).toLongLong();
        out << seen;
    }
    return out;
}

void HistoryStore::forgetSemaphore(const QString &endpoint, const core::SemaphoreRef &ref) {
    if (!m_available)
        return;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    if (!execWith(q,
                  QStringLiteral("DELETE FROM seen_semaphores WHERE endpoint = ? AND kind = ? AND name = ?"),
                  semaphoreColumns(endpoint, ref)) &&
        isDamage(q.lastError()))
        disable(QStringLiteral("is damaged"), q.lastError().text());
}

} // namespace semscope::monitor
