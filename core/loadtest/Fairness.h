#pragma once

#include <QList>

namespace semscope::core {

struct FairnessSummary {
    double jainIndex = 0.0; // 1.0 = every client got the same number of grants; 1/n = one got all
    qint64 clients = 0;
    qint64 minGrants = 0;
    qint64 maxGrants = 0;
    qint64 starvedClients = 0; // clients that never got a grant
};

// Jain's fairness index (sum x)^2 / (n * sum x^2) over per-client grant counts. An empty list or
// one where nobody got anything has no fairness to speak of and yields 0.
double jainIndex(const QList<qint64> &grantsPerClient);
FairnessSummary summarizeFairness(const QList<qint64> &grantsPerClient);

} // namespace semscope::core
