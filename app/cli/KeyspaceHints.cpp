#include "KeyspaceHints.h"

#include "CliContext.h"
#include "RedisOptions.h"
#include "core/Duration.h"
#include "monitor/SemaphoreWatcher.h"
#include "redis/KeyspaceNotifications.h"

#include <QPointer>

namespace semscope::cli {

std::unique_ptr<redis::KeyspaceNotifications>
readChangesAtOnce(CliContext &ctx, const core::SemaphoreStore &store, monitor::SemaphoreWatcher &watcher) {
    if (store.backend() != core::Backend::Redis)
        return nullptr;
    QString error;
    const auto settings = redisSettingsFromOptions(ctx, &error);
    if (!settings)
        return nullptr;
    auto notifications = std::make_unique<redis::KeyspaceNotifications>(*settings);
    QPointer<redis::KeyspaceNotifications> hints(notifications.get());
    QPointer<monitor::SemaphoreWatcher> watching(&watcher);
    notifications->probe([&ctx, hints, watching](bool enabled, const QString &setting) {
        if (!hints || !watching)
            return;
        if (!enabled) {
            ctx.err() << QStringLiteral(
                             "re-reading every %1 (the server publishes no keyspace notifications%2)\n")
                             .arg(core::formatDurationMs(watching->options().intervalMs),
                                  setting.isEmpty() ? QString() : QStringLiteral(": ") + setting);
        } else {
            ctx.err() << QStringLiteral("keyspace notifications on (%1): a change is read at once%2\n")
                             .arg(setting, setting.contains(QLatin1Char('E'))
                                               ? QStringLiteral(", a new semaphore looked for at once")
                                               : QString());
        }
        // Followed either way: channels cost nothing while the server publishes nothing, and
        // notifications turned on later are then used from their first event.
        watching->setChangeHints(hints);
        QObject::connect(hints, &redis::KeyspaceNotifications::publishingStarted, hints, [&ctx] {
            ctx.err() << QStringLiteral(
                "keyspace notifications are published now: a change is read at once\n");
            ctx.err().flush();
        });
        ctx.err().flush();
    });
    return notifications;
}

} // namespace semscope::cli
