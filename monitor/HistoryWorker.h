#pragma once

#include "HistoryStore.h"

#include <QObject>
#include <QPointer>
#include <QThread>
#include <functional>
#include <memory>

namespace semscope::monitor {

// The shared history (HistoryStore) behind a thread of its own: SQLite waits on the disk and on other
// processes (the busy timeout), so no caller's event loop waits on it. The HistoryStore is created,
// used and closed on that thread (a QSqlDatabase connection belongs to the thread that opened it).
// Requests run one after the other in the order they were made; each answer comes back, in the same
// order, on the thread that made the worker, and only while the `context` of its request lives.
// Destroying the worker finishes every request already made (nothing recorded is lost at exit),
// drops the answers still to come, and closes the file.
class HistoryWorker : public QObject {
    Q_OBJECT
public:
    // As HistoryStore(path, busyTimeoutMs); the file is opened on the worker's thread.
    explicit HistoryWorker(QString path = {}, int busyTimeoutMs = HistoryStore::kBusyTimeoutMs,
                           QObject *parent = nullptr);
    ~HistoryWorker() override;

    QString path() const { return m_path; }
    // As last reported by the worker: available until the store turned itself off (then warning()
    // says why, and turnedOff() was emitted once).
    bool isAvailable() const { return m_warning.isEmpty(); }
    QString warning() const { return m_warning; }

    // Runs job(store) on the worker's thread; done(result) then runs on this object's thread, unless
    // `context` is gone by then.
    template <typename Job, typename Done>
    void run(Job job, QObject *context, Done done) {
        runErased(
            [job = std::move(job),
             done = std::move(done)](HistoryStore &store) mutable -> std::function<void()> {
                auto result = job(store);
                return [done = std::move(done), result = std::move(result)]() mutable {
                    done(std::move(result));
                };
            },
            context);
    }
    // Runs job(store) on the worker's thread; nothing comes back.
    void post(std::function<void(HistoryStore &)> job);

    // HistoryStore's calls, without waiting.
    void record(const QString &endpoint, const QList<HolderEvent> &events);
    void events(const QString &endpoint, const core::SemaphoreRef &ref, qint64 sinceMs, int limit,
                QObject *context, std::function<void(QList<HolderEvent>)> done);
    void markForceRelease(const QString &endpoint, const core::SemaphoreRef &ref, const QString &holder,
                          const QString &origin, qint64 nowMs, QObject *context,
                          std::function<void(std::optional<qint64>)> done);
    void settleForceRelease(const std::optional<qint64> &mark, bool removed, QObject *context,
                            std::function<void(QString)> done);
    // Seen semaphores (HistoryStore::recordSemaphoresSeen and the rest), without waiting.
    void recordSemaphoresSeen(const QString &endpoint, const QList<core::SemaphoreRef> &refs, qint64 nowMs);
    void seenSemaphores(const QString &endpoint, QObject *context,
                        std::function<void(QList<SeenSemaphore>)> done);
    void forgetSemaphore(const QString &endpoint, const core::SemaphoreRef &ref);
    // done() once every request made before has run (tests, orderly shutdowns).
    void flush(QObject *context, std::function<void()> done);

Q_SIGNALS:
    // The history file could not be used: the store turned itself off (warning() says why).
    void turnedOff(const QString &warning);

private:
    // job runs on the worker's thread and returns what to run back on this one.
    void runErased(std::function<std::function<void()>(HistoryStore &)> job, QObject *context);
    void noteWarning(const QString &warning);

    QString m_path;
    QString m_warning;
    QThread m_thread;
    // Lives on m_thread; owns the store there.
    QObject *m_inside = nullptr;
    std::shared_ptr<std::unique_ptr<HistoryStore>> m_store;
};

} // namespace semscope::monitor
