#pragma once

#include "core/Cancellation.h"
#include "training/FailoverLostLock.h"

#include <QObject>
#include <memory>

class QThread;

namespace semscope::model {

// Runs the training scenario failover-lost-lock (redis::FailoverLostLock, the CLI's own code) for
// the app: on a thread of its own, since a run blocks for seconds while it starts its private
// master, replica and sentinel, kills the master and waits for the promotion. It needs no
// connection. Progress lines and the report come back on the GUI thread; cancel() makes the run
// stop at its next step, and every process it started is stopped before finished() (also when this
// object is destroyed mid-run: the destructor cancels and waits for the thread).
class FailoverTrainingRunner : public QObject {
    Q_OBJECT
public:
    explicit FailoverTrainingRunner(QObject *parent = nullptr);
    ~FailoverTrainingRunner() override;

    bool isRunning() const { return m_thread != nullptr; }
    // `name` names the scratch semaphores on the private servers (NAME-naive, NAME-safe).
    void start(const QString &name);
    void cancel();
    // The last finished run (empty sides before the first).
    const redis::FailoverLostLock::Report &report() const { return m_report; }

Q_SIGNALS:
    void step(const QString &line);
    void finished(const redis::FailoverLostLock::Report &report);

private:
    QThread *m_thread = nullptr;
    core::Cancellation m_cancel;
    redis::FailoverLostLock::Report m_report;
};

} // namespace semscope::model

Q_DECLARE_METATYPE(semscope::redis::FailoverLostLock::Report)
