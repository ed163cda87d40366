#include "SafetyChecker.h"

#include <QSet>
#include <algorithm>
#include <vector>

namespace semscope::core {

SafetyVerdict SafetyChecker::check() const {
    SafetyVerdict verdict;
    verdict.grantsChecked = m_intervals.size();
    checkOverlaps(verdict);
    checkTokens(verdict);
    return verdict;
}

void SafetyChecker::checkOverlaps(SafetyVerdict &verdict) const {
    struct Event {
        qint64 t;
        int kind; // 0 = end, 1 = start: ends sort first at equal times (half-open intervals)
        int index;
    };
    std::vector<Event> events;
    events.reserve(static_cast<size_t>(m_intervals.size()) * 2);
    for (int i = 0; i < m_intervals.size(); ++i) {
        const HoldInterval &iv = m_intervals[i];
        if (iv.endNs <= iv.startNs)
            continue; // empty: the client cannot prove it held at any instant
        events.push_back({iv.startNs, 1, i});
        events.push_back({iv.endNs, 0, i});
    }
    std::sort(events.begin(), events.end(), [](const Event &a, const Event &b) {
        if (a.t != b.t)
            return a.t < b.t;
        if (a.kind != b.kind)
            return a.kind < b.kind;
        return a.index < b.index;
    });

    QSet<int> open;
    std::optional<OverAdmission> current;
    QSet<int> involved;
    auto involve = [&](int index) {
        if (involved.contains(index))
            return;
        involved.insert(index);
        ++current->holderCount;
        if (current->holders.size() < holderListCap)
            current->holders.append(m_intervals[index].holder);
    };

    for (const Event &e : events) {
        if (e.kind == 1) {
            open.insert(e.index);
            const int count = static_cast<int>(open.size());
            verdict.maxConcurrentHolders = std::max(verdict.maxConcurrentHolders, count);
            if (count > m_limit) {
                if (!current) {
                    current = OverAdmission{};
                    current->atNs = e.t;
                    involved.clear();
                    for (int i : std::as_const(open))
                        involve(i);
                } else {
                    involve(e.index);
                }
                current->maxHolders = std::max(current->maxHolders, count);
            }
        } else {
            open.remove(e.index);
            if (current && open.size() <= m_limit) {
                current->untilNs = e.t;
                verdict.overAdmittedNs += current->untilNs - current->atNs;
                ++verdict.overAdmissions;
                if (verdict.episodes.size() < episodeListCap) {
                    // Sorted names make reports stable and easy to read.
                    std::sort(current->holders.begin(), current->holders.end());
                    verdict.episodes.append(*current);
                }
                current.reset();
            }
        }
    }
}

void SafetyChecker::checkTokens(SafetyVerdict &verdict) const {
    std::vector<int> withToken;
    for (int i = 0; i < m_intervals.size(); ++i)
        if (m_intervals[i].token)
            withToken.push_back(i);
    verdict.tokensChecked = static_cast<qint64>(withToken.size());
    if (withToken.empty())
        return;

    std::vector<int> byReceived = withToken;
    std::sort(byReceived.begin(), byReceived.end(),
              [this](int a, int b) { return m_intervals[a].startNs < m_intervals[b].startNs; });
    std::vector<int> bySent = withToken;
    std::sort(bySent.begin(), bySent.end(),
              [this](int a, int b) { return m_intervals[a].sentNs < m_intervals[b].sentNs; });

    QSet<int> flagged;
    auto flag = [&](int index, int earlier) {
        if (flagged.contains(index))
            return;
        flagged.insert(index);
        ++verdict.tokenViolations;
        if (verdict.violations.size() < episodeListCap) {
            const HoldInterval &g = m_intervals[index];
            const HoldInterval &e = m_intervals[earlier];
            verdict.violations.append({g.startNs, g.holder, *g.token, e.holder, *e.token});
        }
    };

    // Grants whose reply arrived strictly before a grant was requested are provably earlier.
    size_t received = 0;
    int maxIndex = -1;
    for (int g : bySent) {
        const qint64 sent = m_intervals[g].sentNs;
        while (received < byReceived.size() && m_intervals[byReceived[received]].startNs < sent) {
            const int r = byReceived[received++];
            if (maxIndex < 0 || *m_intervals[r].token > *m_intervals[maxIndex].token)
                maxIndex = r;
        }
        if (maxIndex >= 0 && *m_intervals[g].token <= *m_intervals[maxIndex].token)
            flag(g, maxIndex);
    }

    // A token handed out twice is a violation whatever the timing; blame the later reply.
    std::vector<int> byToken = byReceived;
    std::stable_sort(byToken.begin(), byToken.end(),
                     [this](int a, int b) { return *m_intervals[a].token < *m_intervals[b].token; });
    for (size_t i = 1; i < byToken.size(); ++i)
        if (*m_intervals[byToken[i]].token == *m_intervals[byToken[i - 1]].token)
            flag(byToken[i], byToken[i - 1]);
}

} // namespace semscope::core
