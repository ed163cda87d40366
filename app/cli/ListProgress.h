#pragma once

#include <QString>

namespace semscope::cli {

// What `list` writes on stderr while it discovers and when discovery is done. A terminal gets one
// line rewritten in place at every report; a pipe gets at most a line a second, the first after a
// second (a list that ends sooner says only its summary). The last progress line written always
// says what the summary says: one that later reports (or the result) left behind is written once
// more with the final numbers. Once a pipe's progress said "scanned 3 of 3 keys, 0 semaphores so
// far" right above "scanned 3 keys, found 1 semaphore": the reports that found it came within the
// second and were never written.
class ListProgress {
public:
    // `matchedOnly`: the scanned keys a store reports are only those that matched the scan pattern
    // (Redis' SCAN MATCH returns no others), not the keys walked: "scanned 12 of 1000000 keys" for
    // the whole walk read as a scan stuck at 12, so such counts are said as matches.
    explicit ListProgress(bool terminal, bool matchedOnly = false)
        : m_terminal(terminal)
        , m_matchedOnly(matchedOnly) {}

    // A report `elapsedMs` after discovery started: keys scanned so far, of `totalKeys` (-1 when
    // unknown), how many semaphores it found (of those the listing keeps), and the share of the
    // keyspace walked (core::DiscoverProgress::walked; said when matchedOnly). Returns what to write.
    QString report(qint64 elapsedMs, qint64 scannedKeys, qint64 totalKeys, qint64 newlyFound,
                   double walked = -1);
    // Discovery ended having scanned `scannedKeys` and found `found` semaphores (of those the
    // listing keeps): returns what ends the progress, the last line brought up to these numbers.
    QString finish(qint64 scannedKeys, qint64 found);
    // The summary after it: "scanned 3 keys, found 1 semaphore" ("12 keys matched, ..." when
    // matchedOnly).
    QString summary(qint64 scannedKeys, qint64 found) const;
    // Discovery failed: ends a progress line left open on a terminal.
    QString interrupted() const;

private:
    QString line() const;
    QString write(const QString &line);

    bool m_terminal;
    bool m_matchedOnly;
    qint64 m_scanned = 0;
    qint64 m_total = -1;
    qint64 m_found = 0;
    double m_walked = -1;
    qint64 m_writtenAtMs = -1; // when the last line was written; -1: none yet
    QString m_written;         // the last line written
};

} // namespace semscope::cli
