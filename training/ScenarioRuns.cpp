#include "ScenarioRuns.h"

#include "core/Kind.h"
#include "redis/RedisKind.h"
#include "redis/RedisSemaphoreStore.h"

#include <algorithm>

namespace semscope::redis {

QString scenarioUnsafeName(const QString &name) {
    return name + QStringLiteral("-unsafe");
}

QString scenarioAtomicName(const QString &name) {
    return name + QStringLiteral("-atomic");
}

core::LoadTestConfig scenarioConfig(const TrainingScenario &scenario, const QString &name) {
    core::LoadTestConfig c = scenario.defaults;
    c.ref.kind = scenario.counterpart;
    c.ref.name = name;
    return c;
}

QList<PlannedRun> scenarioRuns(const TrainingScenario &scenario, const core::LoadTestConfig &base,
                               const ConnectionSettings &settings, int raceWindowMs) {
    QList<PlannedRun> runs;

    PlannedRun unsafe;
    unsafe.config = base;
    unsafe.config.ref.kind = scenario.counterpart;
    unsafe.config.ref.name = scenarioUnsafeName(base.ref.name);
    unsafe.label = scenario.name;
    const QString name = scenario.name;
    const int window = std::min(raceWindowMs, 60'000);
    unsafe.factory = [settings, name, window] { return makeTrainingStore(name, settings, window); };
    runs << unsafe;

    PlannedRun atomic;
    atomic.config = base;
    atomic.config.ref.kind = scenario.counterpart;
    atomic.config.ref.name = scenarioAtomicName(base.ref.name);
    atomic.label = core::kindName(scenario.counterpart);
    atomic.factory = [settings]() -> std::unique_ptr<core::SemaphoreStore> {
        return std::make_unique<RedisSemaphoreStore>(settings);
    };
    runs << atomic;
    return runs;
}

void resetScenarioSemaphores(RedisSemaphoreStore &store, const TrainingScenario &scenario,
                             const QString &name, std::function<void(const QString &error)> done) {
    const RedisKind *kind = store.kindFor(scenario.counterpart);
    QList<QByteArray> del{"DEL"};
    if (kind) {
        del += kind->keysOf(scenarioUnsafeName(name));
        del += kind->keysOf(scenarioAtomicName(name));
    }
    if (del.size() == 1) {
        done({});
        return;
    }
    // One DEL per key: the seed layouts' keys lie in different hash slots of a Redis Cluster, where
    // one DEL of them all would be refused.
    QList<QList<QByteArray>> dels;
    for (qsizetype i = 1; i < del.size(); ++i)
        dels.append({"DEL", del.at(i)});
    store.topology().pipeline(dels, [done](const QList<RedisReply> &replies) {
        for (const RedisReply &reply : replies) {
            if (reply.isError()) {
                done(QStringLiteral("resetting the scenario's semaphores: ") + reply.errorMessage());
                return;
            }
        }
        done({});
    });
}

QJsonObject scenarioReportJson(const TrainingScenario &scenario, const core::LoadTestReport &unsafe,
                               const core::LoadTestReport &atomic) {
    return QJsonObject{
        {QStringLiteral("scenario"), scenario.name},
        {QStringLiteral("title"), scenario.title},
        {QStringLiteral("explanation"), scenario.explanation},
        {scenarioUnsafeSide(), unsafe.toJson()},
        {scenarioAtomicSide(), atomic.toJson()},
    };
}

} // namespace semscope::redis
