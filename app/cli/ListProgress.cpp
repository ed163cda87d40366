#include "ListProgress.h"

#include "core/CountText.h"

#include <algorithm>

namespace semscope::cli {

namespace {

constexpr qint64 kPipeLineEveryMs = 1000;

} // namespace

QString ListProgress::line() const {
    const QString found = core::countText(m_found, QStringLiteral("semaphore"), QStringLiteral("semaphores"));
    if (m_matchedOnly) {
        const QString matched =
            core::countText(m_scanned, QStringLiteral("key matched"), QStringLiteral("keys matched"));
        // The keys walked are not returned, only how far the cursor is.
        const QString walked =
            m_walked >= 0 ? QStringLiteral(", %1 % walked").arg(int(std::clamp(m_walked, 0.0, 1.0) * 100))
                          : QString();
        return m_total >= 0 ? QStringLiteral("scanning %1 keys%2: %3, %4 so far")
                                  .arg(m_total)
                                  .arg(walked, matched, found)
                            : QStringLiteral("scanning%1: %2, %3 so far").arg(walked, matched, found);
    }
    QString text = QStringLiteral("scanned %1").arg(m_scanned);
    if (m_total >= 0)
        text += QStringLiteral(" of %1").arg(m_total);
    return text + QStringLiteral(" keys, %1 so far").arg(found);
}

QString ListProgress::write(const QString &text) {
    // A terminal's line is rewritten in place: padded, so a shorter one leaves nothing behind.
    const QString out = m_terminal ? QString(QStringLiteral("\r") + text.leftJustified(m_written.size()))
                                   : QString(text + QLatin1Char('\n'));
    m_written = text;
    return out;
}

QString ListProgress::report(qint64 elapsedMs, qint64 scannedKeys, qint64 totalKeys, qint64 newlyFound,
                             double walked) {
    m_scanned = scannedKeys;
    m_total = totalKeys;
    m_walked = walked;
    m_found += newlyFound;
    if (!m_terminal && elapsedMs - std::max<qint64>(m_writtenAtMs, 0) < kPipeLineEveryMs)
        return {};
    m_writtenAtMs = elapsedMs;
    return write(line());
}

QString ListProgress::finish(qint64 scannedKeys, qint64 found) {
    QString out;
    if (m_writtenAtMs >= 0) {
        m_scanned = scannedKeys;
        m_found = found;
        if (m_walked >= 0)
            m_walked = 1; // the walk is over
        if (const QString last = line(); last != m_written)
            out += write(last);
        if (m_terminal)
            out += QLatin1Char('\n');
    }
    return out;
}

QString ListProgress::summary(qint64 scannedKeys, qint64 found) const {
    const QString semaphores =
        core::countText(found, QStringLiteral("semaphore"), QStringLiteral("semaphores"));
    if (m_matchedOnly)
        return QStringLiteral("%1, found %2\n")
            .arg(core::countText(scannedKeys, QStringLiteral("key matched"), QStringLiteral("keys matched")),
                 semaphores);
    return QStringLiteral("scanned %1, found %2\n")
        .arg(core::countText(scannedKeys, QStringLiteral("key"), QStringLiteral("keys")), semaphores);
}

QString ListProgress::interrupted() const {
    return m_terminal && m_writtenAtMs >= 0 ? QStringLiteral("\n") : QString();
}

} // namespace semscope::cli
