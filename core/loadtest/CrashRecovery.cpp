#include "CrashRecovery.h"

#include <algorithm>
#include <deque>
#include <vector>

namespace semscope::core {

CrashRecoveryVerdict analyzeCrashRecovery(const QList<HoldInterval> &intervals, int limit, qint64 runEndNs) {
    struct Event {
        qint64 t;
        int kind; // 0 = end (release or crash), 1 = start (grant), 2 = crash of an empty interval
        int index;
    };
    std::vector<Event> events;
    CrashRecoveryVerdict v;
    for (int i = 0; i < intervals.size(); ++i) {
        const HoldInterval &iv = intervals[i];
        if (iv.crashed)
            ++v.crashes;
        if (iv.endNs > iv.startNs) {
            events.push_back({iv.startNs, 1, i});
            events.push_back({iv.endNs, 0, i});
        } else if (iv.crashed) {
            // Held for no provable instant, but the crash still ties up a slot from here on.
            events.push_back({iv.startNs, 2, i});
        }
    }
    std::sort(events.begin(), events.end(), [](const Event &a, const Event &b) {
        if (a.t != b.t)
            return a.t < b.t;
        if (a.kind != b.kind)
            return (a.kind == 1) < (b.kind == 1);
        return a.index < b.index;
    });

    std::deque<int> unrecovered; // crashed intervals, oldest crash first
    int open = 0;
    for (const Event &e : events) {
        if (e.kind != 1) {
            if (e.kind == 0)
                --open;
            if (intervals[e.index].crashed)
                unrecovered.push_back(e.index);
            continue;
        }
        ++open;
        const int mayStillBeTaken = std::max(0, limit - open);
        while (static_cast<int>(unrecovered.size()) > mayStillBeTaken) {
            const int crashed = unrecovered.front();
            unrecovered.pop_front();
            const qint64 ns = e.t - intervals[crashed].endNs;
            v.recoveryNs.append(ns);
            v.maxRecoveryNs = std::max(v.maxRecoveryNs, ns);
            ++v.recovered;
        }
    }
    for (int index : unrecovered) {
        v.leakedHolders.append(intervals[index].holder);
        v.leakedForNs.append(std::max<qint64>(0, runEndNs - intervals[index].endNs));
    }
    return v;
}

} // namespace semscope::core
