#include "Fairness.h"

#include <algorithm>

namespace semscope::core {

double jainIndex(const QList<qint64> &grantsPerClient) {
    if (grantsPerClient.isEmpty())
        return 0.0;
    double sum = 0.0;
    double sumSquares = 0.0;
    for (qint64 g : grantsPerClient) {
        const auto x = static_cast<double>(std::max<qint64>(0, g));
        sum += x;
        sumSquares += x * x;
    }
    if (sumSquares <= 0.0)
        return 0.0;
    return (sum * sum) / (static_cast<double>(grantsPerClient.size()) * sumSquares);
}

FairnessSummary summarizeFairness(const QList<qint64> &grantsPerClient) {
    FairnessSummary s;
    s.jainIndex = jainIndex(grantsPerClient);
    s.clients = grantsPerClient.size();
    if (grantsPerClient.isEmpty())
        return s;
    const auto [lo, hi] = std::minmax_element(grantsPerClient.begin(), grantsPerClient.end());
    s.minGrants = *lo;
    s.maxGrants = *hi;
    s.starvedClients =
        std::count_if(grantsPerClient.begin(), grantsPerClient.end(), [](qint64 g) { return g <= 0; });
    return s;
}

} // namespace semscope::core
