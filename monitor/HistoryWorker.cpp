#include "HistoryWorker.h"

namespace semscope::monitor {

HistoryWorker::HistoryWorker(QString path, int busyTimeoutMs, QObject *parent)
    : QObject(parent)
    , m_path(path.isEmpty() ? HistoryStore::defaultPath() : std::move(path))
    , m_store(std::make_shared<std::unique_ptr<HistoryStore>>()) {
    qRegisterMetaType<QList<HolderEvent>>();
    m_thread.setObjectName(QStringLiteral("semscope-history"));
    m_inside = new QObject;
    m_inside->moveToThread(&m_thread);
    QObject::connect(&m_thread, &QThread::finished, m_inside, &QObject::deleteLater);
    m_thread.start();
    // Opening (and its first pruning) touches the disk as well: on the worker's thread, and before
    // any request (the queue is in order). Its warning, if any, comes back with the first answer.
    QMetaObject::invokeMethod(m_inside, [store = m_store, path = m_path, busyTimeoutMs] {
        *store = std::make_unique<HistoryStore>(path, busyTimeoutMs);
    });
    flush(this, [] {});
}

HistoryWorker::~HistoryWorker() {
    // After every request already made (the queue is in order): close the file on its own thread.
    QMetaObject::invokeMethod(m_inside, [store = m_store] {
        store->reset();
        QThread::currentThread()->quit();
    });
    m_thread.wait();
}

void HistoryWorker::runErased(std::function<std::function<void()>(HistoryStore &)> job, QObject *context) {
    const QPointer<QObject> answerTo(context);
    const bool checkContext = context != nullptr;
    HistoryWorker *front = this;
    QMetaObject::invokeMethod(
        m_inside, [store = m_store, job = std::move(job), front, answerTo, checkContext]() mutable {
            if (!*store)
                return;
            std::function<void()> then = job(**store);
            const QString warning = (*store)->warning();
            // `front` outlives this thread (its destructor waits for it), so posting to it is safe;
            // the answer is dropped there if the asker is gone.
            QMetaObject::invokeMethod(
                front,
                [front, warning, then = std::move(then), answerTo, checkContext] {
                    front->noteWarning(warning);
                    if (then && (!checkContext || answerTo))
                        then();
                },
                Qt::QueuedConnection);
        });
}

void HistoryWorker::noteWarning(const QString &warning) {
    if (warning.isEmpty() || warning == m_warning)
        return;
    m_warning = warning;
    Q_EMIT turnedOff(warning);
}

void HistoryWorker::post(std::function<void(HistoryStore &)> job) {
    runErased(
        [job = std::move(job)](HistoryStore &store) -> std::function<void()> {
            job(store);
            return {};
        },
        nullptr);
}

void HistoryWorker::record(const QString &endpoint, const QList<HolderEvent> &events) {
    post([endpoint, events](HistoryStore &store) { store.record(endpoint, events); });
}

void HistoryWorker::events(const QString &endpoint, const core::SemaphoreRef &ref, qint64 sinceMs, int limit,
                           QObject *context, std::function<void(QList<HolderEvent>)> done) {
    run([endpoint, ref, sinceMs,
         limit](HistoryStore &store) { return store.events(endpoint, ref, sinceMs, limit); },
        context, std::move(done));
}

void HistoryWorker::markForceRelease(const QString &endpoint, const core::SemaphoreRef &ref,
                                     const QString &holder, const QString &origin, qint64 nowMs,
                                     QObject *context, std::function<void(std::optional<qint64>)> done) {
    run([=](HistoryStore &store) { return store.markForceRelease(endpoint, ref, holder, origin, nowMs); },
        context, std::move(done));
}

void HistoryWorker::settleForceRelease(const std::optional<qint64> &mark, bool removed, QObject *context,
                                       std::function<void(QString)> done) {
    run([mark, removed](HistoryStore &store) { return store.settleForceRelease(mark, removed); }, context,
        std::move(done));
}

void HistoryWorker::recordSemaphoresSeen(const QString &endpoint, const QList<core::SemaphoreRef> &refs,
                                         qint64 nowMs) {
    post([endpoint, refs, nowMs](HistoryStore &store) { store.recordSemaphoresSeen(endpoint, refs, nowMs); });
}

void HistoryWorker::seenSemaphores(const QString &endpoint, QObject *context,
                                   std::function<void(QList<SeenSemaphore>)> done) {
    run([endpoint](HistoryStore &store) { return store.seenSemaphores(endpoint); }, context, std::move(done));
}

void HistoryWorker::forgetSemaphore(const QString &endpoint, const core::SemaphoreRef &ref) {
    post([endpoint, ref](HistoryStore &store) { store.forgetSemaphore(endpoint, ref); });
}

void HistoryWorker::flush(QObject *context, std::function<void()> done) {
    run([](HistoryStore &) { return true; }, context, [done = std::move(done)](bool) { done(); });
}

} // namespace semscope::monitor
