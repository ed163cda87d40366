#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QObject>

namespace semscope::core {

// One operator write, as recorded.
struct AuditEntry {
    QDateTime time;
    QString user;        // OS user
    QString host;        // this machine
    QString connection;  // connection name and endpoint
    QString environment; // development / staging / production
    QString semaphore;   // "<kind>:<name>"
    QString action; // acquire, refresh, release, force-release, purge-expired, repair, invalidate-session
    QString holder;
    QJsonObject observed; // what the operator saw when deciding (holder record, version)
    QString result;       // released / changed / gone / ok / refused / error ...
    QString message;

    QJsonObject toJson() const;
    static AuditEntry fromJson(const QJsonObject &object);
};

// Append-only JSON-lines log of every operator write, shared by the desktop app and semscope-cli.
// One line per entry, written with a single write() on a file opened for appending, so several
// processes can log at once without interleaving, and a crash loses nothing already shown as done.
class AuditLog : public QObject {
    Q_OBJECT
public:
    // `filePath` empty: defaultFilePath()
    explicit AuditLog(QString filePath = {}, QObject *parent = nullptr);

    // The desktop app's data folder (~/.local/share/semscope/semscope/audit.jsonl on Linux), also
    // for semscope-cli, so one log holds every write whichever program made it.
    static QString defaultFilePath();
    static QString currentUser();
    static QString currentHost();

    QString filePath() const { return m_filePath; }
    // Fills time/user/host when empty, writes the line, emits appended(). False if the file could not
    // be written (the entry is still emitted so the operator sees it).
    bool append(AuditEntry entry);
    // The newest `maxEntries` entries, oldest first. Lines that are not valid JSON are skipped.
    QList<AuditEntry> readRecent(int maxEntries = 1000) const;
    QString lastError() const { return m_lastError; }

Q_SIGNALS:
    void appended(const semscope::core::AuditEntry &entry);

private:
    QString m_filePath;
    QString m_lastError;
};

} // namespace semscope::core

Q_DECLARE_METATYPE(semscope::core::AuditEntry)
