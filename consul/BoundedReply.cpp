#include "BoundedReply.h"

#include <QNetworkReply>
#include <algorithm>
#include <limits>
#include <utility>

namespace semscope::consul {

namespace {

constexpr qint64 kReadAhead = 256 * 1024;

QString sizeText(qint64 bytes) {
    constexpr qint64 kMiB = 1024 * 1024;
    return bytes % kMiB == 0 ? QStringLiteral("%1 MiB").arg(bytes / kMiB)
                             : QStringLiteral("%1 bytes").arg(bytes);
}

QString durationText(qint64 ms) {
    return ms % 1000 == 0 ? QStringLiteral("%1 s").arg(ms / 1000) : QStringLiteral("%1 ms").arg(ms);
}

} // namespace

BoundedReply::BoundedReply(QNetworkReply *reply, QString what, qint64 maxBodyBytes, qint64 deadlineMs)
    : QObject(reply)
    , m_reply(reply)
    , m_what(std::move(what))
    , m_maxBodyBytes(maxBodyBytes)
    , m_deadlineMs(deadlineMs) {
    connect(reply, &QNetworkReply::metaDataChanged, this, [this]() {
        const QVariant declared = m_reply->header(QNetworkRequest::ContentLengthHeader);
        if (declared.isValid() && declared.toLongLong() > m_maxBodyBytes)
            stop(QStringLiteral("%1: the answer declares %2 bytes, more than the %3 semscope reads")
                     .arg(m_what)
                     .arg(declared.toLongLong())
                     .arg(sizeText(m_maxBodyBytes)));
    });
    // Qt reads ahead of us without limit by default (in its own thread): a flood would pile up
    // there before readAvailable() gets to stop it.
    reply->setReadBufferSize(std::min(maxBodyBytes, kReadAhead));
    connect(reply, &QNetworkReply::readyRead, this, &BoundedReply::readAvailable);
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this]() {
        stop(QStringLiteral("%1: no complete answer within %2").arg(m_what, durationText(m_deadlineMs)));
    });
    m_deadline.start(int(qBound<qint64>(0, deadlineMs, qint64(std::numeric_limits<int>::max()))));
}

void BoundedReply::readAvailable() {
    if (!m_stopReason.isEmpty() || !m_reply->isOpen())
        return;
    if (m_body.size() + m_reply->bytesAvailable() > m_maxBodyBytes) {
        stop(QStringLiteral("%1: the answer is larger than the %2 semscope reads")
                 .arg(m_what, sizeText(m_maxBodyBytes)));
        return;
    }
    m_body += m_reply->readAll();
}

QByteArray BoundedReply::takeBody() {
    m_deadline.stop();
    readAvailable();
    return std::exchange(m_body, {});
}

void BoundedReply::stop(const QString &reason) {
    if (!m_stopReason.isEmpty())
        return;
    m_stopReason = reason;
    m_body = QByteArray(); // what was read of it is of no use, and may be large
    m_deadline.stop();
    m_reply->abort(); // emits finished(): the owner reads stopReason() there
}

} // namespace semscope::consul
