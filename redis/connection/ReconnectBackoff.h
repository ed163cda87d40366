#pragma once

#include <QtGlobal>

namespace semscope::redis {

// Delays between reconnect attempts: from 100 ms, doubling up to 5 s; a successful handshake (or a
// move the sentinels announced, which is no failure of the node) starts again from 100 ms.
class ReconnectBackoff {
public:
    static constexpr int kInitialMs = 100;
    static constexpr int kMaxMs = 5000;

    // The delay before the next attempt; the one after it doubles.
    int next() {
        const int delay = m_delayMs;
        m_delayMs = qMin(m_delayMs * 2, kMaxMs);
        return delay;
    }
    void reset() { m_delayMs = kInitialMs; }

private:
    int m_delayMs = kInitialMs;
};

} // namespace semscope::redis
