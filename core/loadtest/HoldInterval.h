#pragma once

#include <QString>
#include <optional>

namespace semscope::core {

// What one load-test client saw of one grant, in steady-clock nanoseconds since the run started.
// [startNs, endNs) is [grant reply received, release sent): it lies inside the time the server
// really counted this client as a holder, so overlaps between such intervals are real.
struct HoldInterval {
    int client = -1;
    QString holder;
    qint64 sentNs = 0;  // the acquire call that produced this grant was sent
    qint64 startNs = 0; // its Granted reply arrived
    qint64 endNs = 0;   // release sent, the client vanished (crash) or its lease could have run out
    std::optional<qint64> token;
    bool crashed = false; // the client vanished at endNs without releasing
};

} // namespace semscope::core
