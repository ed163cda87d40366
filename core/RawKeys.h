#pragma once

#include "SemaphoreTypes.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

namespace semscope::core {

// What the raw view shows of one key (Redis) or KV entry (Consul) of a semaphore, exactly as stored
// and never interpreted. Every text that came from the server is already escaped and cut
// (core/PrintableText); collections are read in bounded windows, never whole.
struct RawKey {
    QString name;                        // key name, or the KV path
    QString type;                        // Redis TYPE (string, hash, list, zset, set, none) or "kv"
    std::optional<qint64> ttlMs;         // Redis PTTL; unset: no expiry (or Consul)
    qint64 length = -1;                  // elements (HLEN/LLEN/ZCARD/SCARD) or value bytes; -1: unknown
    QString value;                       // a string's value / a KV value (JSON pretty-printed)
    QStringList columns;                 // headers of `rows`: member/score, field/value, index/value
    QList<QStringList> rows;             // the first rows of a collection, at most RawKeys::maxRows
    QList<QPair<QString, QString>> meta; // Consul: flags, session, indices; shown beside the value
    QString error;                       // this key could not be read (the others still are)

    bool isCollection() const { return !columns.isEmpty(); }
    // "first 100 of 2345 shown" when the window did not hold everything, else empty.
    QString shownNote() const;
};

struct RawKeys {
    bool ok = false;
    QString error; // the semaphore's keys could not be listed at all
    QList<RawKey> keys;
};

// Limits every raw read keeps, so a 10-million-member ZSET or a 512 MB string costs a bounded read.
inline constexpr int kRawMaxRows = 200;             // rows per collection
inline constexpr int kRawMaxValueBytes = 64 * 1024; // bytes of a string / KV value read
inline constexpr int kRawMaxValueChars = 16 * 1024; // characters of it shown
inline constexpr int kRawMaxCellChars = 1000;       // characters per table cell
inline constexpr int kRawMaxKeys = 100;             // keys (or KV entries) per semaphore

// Server text that may span lines (a pretty-printed JSON value): each line escaped like any server
// text (core/PrintableText), the line breaks kept, the whole cut at `maxChars` with a note.
QString printableMultiline(const QByteArray &utf8, qsizetype maxChars);

// Implemented by stores that can show a semaphore's keys raw (Redis, Consul, the tests' in-memory
// store). A store offers it by inheriting this beside core::SemaphoreStore; callers find it with
// dynamic_cast, so the interface every other store implements stays as it is. Strictly read-only.
class RawKeySource {
public:
    virtual ~RawKeySource() = default;
    // The keys `ref` is made of, each with its type, TTL and (bounded) contents. `done` runs once,
    // later, on the store's thread.
    virtual void readRawKeys(const SemaphoreRef &ref, std::function<void(RawKeys)> done) = 0;
};

} // namespace semscope::core

Q_DECLARE_METATYPE(semscope::core::RawKeys)
