#pragma once

#include "ConnectionConfig.h"
#include "ConnectionController.h"
#include "HolderPattern.h"

#include <QObject>
#include <QPointer>
#include <memory>

namespace semscope::model {

// One open connection to search, with the semaphores its list shows (profiles resolved).
struct HolderSearchTarget {
    QString connectionId;
    QString connectionName;
    Environment environment = Environment::Development;
    QPointer<ConnectionController> controller;
    QList<core::SemaphoreRef> semaphores;
};

// One holder (or waiter) that matched, as its semaphore's snapshot showed it.
struct HolderMatch {
    QString connectionId;
    QString connectionName;
    Environment environment = Environment::Development;
    core::SemaphoreRef ref;
    core::Holder holder;
    qint64 serverNowMs = 0; // "now" of the snapshot the holder came from, for its TTL
};

// "Where does worker-17 hold anything?": reads the snapshot of every listed semaphore of every
// given connection and reports the holders the pattern matches. Runs in the background through each
// connection's controller (the GUI thread never waits), at most kMaxInFlight reads at a time so a
// search does not crowd out the live pages, and at most kMaxSemaphores semaphores in all.
// Cancellable at once; a new search replaces the running one.
class HolderSearch : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxInFlight = 8;
    static constexpr int kMaxSemaphores = 5000;

    explicit HolderSearch(QObject *parent = nullptr);

    void start(const HolderPattern &pattern, const QList<HolderSearchTarget> &targets);
    void cancel();
    bool isRunning() const { return m_run != nullptr; }

Q_SIGNALS:
    void progress(int read, int total);
    void found(const QList<semscope::model::HolderMatch> &matches);
    // `errors`: one line per semaphore that could not be read, naming connection and semaphore.
    void finished(bool cancelled, int read, int skipped, const QStringList &errors);

private:
    struct Job {
        int target = 0;
        core::SemaphoreRef ref;
    };
    struct Run {
        HolderPattern pattern;
        QList<HolderSearchTarget> targets;
        QList<Job> jobs;
        int next = 0;
        int inFlight = 0;
        QList<int> inFlightPerTarget;           // so a connection closed mid-search can be written off
        QList<QMetaObject::Connection> watches; // on the controllers' destroyed(); dropped at the end
        int read = 0;
        int skipped = 0;
        QStringList errors;
    };
    void pump(const std::shared_ptr<Run> &run);
    // A target's controller went away (its connection was closed): its reads will never answer.
    void targetGone(const std::shared_ptr<Run> &run, int target);
    void finish(std::shared_ptr<Run> run, bool cancelled); // by value: `run` may be m_run itself

    std::shared_ptr<Run> m_run;
};

} // namespace semscope::model

Q_DECLARE_METATYPE(semscope::model::HolderMatch)
