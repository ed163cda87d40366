#pragma once

#include "core/Kind.h"
#include "core/SemaphoreStore.h"
#include "core/loadtest/LoadTestConfig.h"
#include "redis/ConnectionSettings.h"

#include <QList>
#include <QString>
#include <memory>

namespace semscope::redis {

// One training scenario: an unsafe design found in the wild (the seeds), replayed faithfully, and
// the atomic kind that does the same job safely. Both run side by side in a load test.
struct TrainingScenario {
    QString name;  // --scenario value, e.g. "fair-without-lock"
    QString title; // one line
    // What the unsafe design is, by name, for headings ("the Redis-in-Action fair semaphore
    // without its lock"): a trainee never saw the seeds, so "seed 001" tells them nothing.
    QString design;
    QString explanation;    // a short paragraph shown in the GUI and printed by the CLI
    core::Kind counterpart; // the atomic kind run beside it (and the layout it writes)
    int raceWindowMs = 0;   // default pause inserted where the seed's sequence can be interrupted
    bool showsLeak = false; // the flaw is a leak after crashes, not an over-admission
    // How both sides run unless the operator says otherwise, in the CLI and the GUI alike: set up so
    // that the unsafe side shows its flaw, and the atomic side none, every time within the duration
    // (kind = counterpart; no semaphore name).
    core::LoadTestConfig defaults;
};

// The two sides of every scenario's JSON (the CLI's --json, the app's export), failover-lost-lock
// included, so that one script reads them all: the design that shows the flaw, and the one that
// does not (an atomic kind; for failover-lost-lock, replica-acknowledged grants). Each side's "run"
// says what it was.
inline QString scenarioUnsafeSide() {
    return QStringLiteral("unsafe");
}
inline QString scenarioAtomicSide() {
    return QStringLiteral("atomic");
}

QList<TrainingScenario> trainingScenarios();
const TrainingScenario *findTrainingScenario(const QString &name);
QStringList trainingScenarioNames();

// The unsafe store of scenario `name` over `settings`; nullptr for an unknown name.
// raceWindowMs < 0 uses the scenario's default.
std::unique_ptr<core::SemaphoreStore>
makeTrainingStore(const QString &name, const ConnectionSettings &settings, int raceWindowMs = -1);

} // namespace semscope::redis
