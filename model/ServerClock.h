#pragma once

#include <QDateTime>
#include <functional>

namespace semscope::model {

// Estimates the server's "now" between reads: each snapshot carries the server time of its read;
// the offset to the local clock is kept, so countdowns tick locally and resync on every read.
class ServerClock {
public:
    using LocalClock = std::function<qint64()>;

    explicit ServerClock(LocalClock local = {})
        : m_local(local ? std::move(local) : defaultClock()) {}

    void sync(qint64 serverNowMs) {
        if (serverNowMs > 0)
            m_offsetMs = serverNowMs - m_local();
    }
    qint64 localNowMs() const { return m_local(); }
    qint64 serverNowMs() const { return m_local() + m_offsetMs; }
    qint64 offsetMs() const { return m_offsetMs; }

    static LocalClock defaultClock() {
        return [] { return QDateTime::currentMSecsSinceEpoch(); };
    }

private:
    LocalClock m_local;
    qint64 m_offsetMs = 0;
};

} // namespace semscope::model
