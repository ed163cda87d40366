#pragma once

#include "ReplyDispatch.h"

#include <QElapsedTimer>
#include <QTimer>
#include <deque>
#include <functional>

namespace semscope::redis {

// Deadlines of a connection's commands (settings.commandTimeoutMs; 0: none). Every command gets the
// same timeout and both ReplyDispatch queues are FIFOs, so each queue's front holds its earliest
// deadline: one timer armed for the earlier of the two fronts serves them all.
class CommandTimeouts {
public:
    // `onDue` runs (from the event loop, with `context`) when the earliest deadline has passed.
    CommandTimeouts(int timeoutMs, QObject *context, std::function<void()> onDue);

    int timeoutMs() const { return m_timeoutMs; }
    // The deadline of a command issued now; 0 when commands have none.
    qint64 deadlineFromNow() const;

    // Arms the timer for the earliest deadline in `dispatch`, unless it is armed already.
    void arm(const ReplyDispatch &dispatch);
    void stop() { m_timer.stop(); }

    // The oldest command in flight is overdue: its reply may never come, and RESP cannot skip one,
    // so the whole connection must go.
    bool inFlightOverdue(const ReplyDispatch &dispatch) const;
    // Takes the queued commands that are overdue (they fail alone: nothing was written).
    std::deque<PendingCommand> takeOverdueQueued(ReplyDispatch &dispatch) const;

private:
    int m_timeoutMs;
    QElapsedTimer m_clock;
    QTimer m_timer;
};

} // namespace semscope::redis
