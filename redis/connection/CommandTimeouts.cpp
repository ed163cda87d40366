#include "CommandTimeouts.h"

namespace semscope::redis {

CommandTimeouts::CommandTimeouts(int timeoutMs, QObject *context, std::function<void()> onDue)
    : m_timeoutMs(timeoutMs) {
    m_clock.start();
    m_timer.setSingleShot(true);
    QObject::connect(&m_timer, &QTimer::timeout, context, std::move(onDue));
}

qint64 CommandTimeouts::deadlineFromNow() const {
    return m_timeoutMs > 0 ? m_clock.elapsed() + m_timeoutMs : 0;
}

void CommandTimeouts::arm(const ReplyDispatch &dispatch) {
    if (m_timeoutMs <= 0 || m_timer.isActive())
        return;
    qint64 earliest = 0;
    if (!dispatch.inFlight.empty() && dispatch.inFlight.front().deadline > 0)
        earliest = dispatch.inFlight.front().deadline;
    const auto &queue = dispatch.queue;
    if (!queue.empty() && queue.front().pending.deadline > 0 &&
        (earliest == 0 || queue.front().pending.deadline < earliest))
        earliest = queue.front().pending.deadline;
    if (earliest == 0)
        return;
    m_timer.start(int(qBound<qint64>(0, earliest - m_clock.elapsed(), qint64(m_timeoutMs))));
}

bool CommandTimeouts::inFlightOverdue(const ReplyDispatch &dispatch) const {
    const auto &inFlight = dispatch.inFlight;
    return !inFlight.empty() && inFlight.front().deadline > 0 &&
           inFlight.front().deadline <= m_clock.elapsed();
}

std::deque<PendingCommand> CommandTimeouts::takeOverdueQueued(ReplyDispatch &dispatch) const {
    const qint64 now = m_clock.elapsed();
    std::deque<PendingCommand> overdue;
    auto &queue = dispatch.queue;
    while (!queue.empty() && queue.front().pending.deadline > 0 && queue.front().pending.deadline <= now) {
        overdue.push_back(std::move(queue.front().pending));
        queue.pop_front();
    }
    return overdue;
}

} // namespace semscope::redis
