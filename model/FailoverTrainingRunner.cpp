#include "FailoverTrainingRunner.h"

#include <QPointer>
#include <QThread>

namespace semscope::model {

FailoverTrainingRunner::FailoverTrainingRunner(QObject *parent)
    : QObject(parent) {}

FailoverTrainingRunner::~FailoverTrainingRunner() {
    if (!m_thread)
        return;
    // The thread owns the processes (they die with it): let it stop them itself, then go.
    m_cancel.cancel();
    m_thread->wait();
    delete m_thread;
}

void FailoverTrainingRunner::start(const QString &name) {
    if (m_thread)
        return;
    m_cancel = core::Cancellation();
    const core::Cancellation cancel = m_cancel;
    QPointer<FailoverTrainingRunner> self(this);
    m_thread = QThread::create([self, name, cancel] {
        auto progress = [self](const QString &line) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, line] {
                    if (self)
                        Q_EMIT self->step(line);
                },
                Qt::QueuedConnection);
        };
        const redis::FailoverLostLock::Report report = redis::FailoverLostLock::run(name, progress, cancel);
        QMetaObject::invokeMethod(
            self.data(),
            [self, report] {
                if (!self || !self->m_thread)
                    return;
                self->m_thread->wait();
                self->m_thread->deleteLater();
                self->m_thread = nullptr;
                self->m_report = report;
                Q_EMIT self->finished(report);
            },
            Qt::QueuedConnection);
    });
    m_thread->setObjectName(QStringLiteral("failover-lost-lock"));
    m_thread->start();
}

void FailoverTrainingRunner::cancel() {
    m_cancel.cancel();
}

} // namespace semscope::model
