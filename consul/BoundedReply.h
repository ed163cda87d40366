#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QTimer>

class QNetworkReply;

namespace semscope::consul {

// Keeps one QNetworkReply within bounds a hostile or broken server cannot stretch: the body is read as
// it arrives and the reply is aborted once it passes `maxBodyBytes` (a declared Content-Length
// over it aborts at once), and a total deadline aborts it however slowly bytes keep trickling in
// (QNetworkRequest's transfer timeout only measures silence). Lives as a child of the reply.
class BoundedReply : public QObject {
public:
    // `what` names the request in messages ("GET /v1/kv/app/sem/").
    BoundedReply(QNetworkReply *reply, QString what, qint64 maxBodyBytes, qint64 deadlineMs);

    QNetworkReply *reply() const { return m_reply; }
    // Everything read; call once the reply has finished.
    QByteArray takeBody();
    // Why this object aborted the reply; empty if it did not.
    QString stopReason() const { return m_stopReason; }

private:
    void readAvailable();
    void stop(const QString &reason);

    QNetworkReply *m_reply;
    QString m_what;
    qint64 m_maxBodyBytes;
    qint64 m_deadlineMs;
    QByteArray m_body;
    QString m_stopReason;
    QTimer m_deadline;
};

} // namespace semscope::consul
