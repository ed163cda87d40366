#pragma once

#include "core/SemaphoreStore.h"

#include <QEventLoop>
#include <QTimer>
#include <optional>

// Runs an asynchronous store call and waits (bounded) for its callback. Returns nullopt on timeout.
template <typename R, typename Start>
std::optional<R> await(Start &&start, int timeoutMs = 60000) {
    auto result = std::make_shared<std::optional<R>>();
    QEventLoop loop;
    auto alive = std::make_shared<bool>(true);
    start([result, alive, &loop](R r) {
        *result = std::move(r);
        if (*alive)
            loop.quit();
    });
    if (!result->has_value()) {
        QTimer guard;
        guard.setSingleShot(true);
        QObject::connect(&guard, &QTimer::timeout, &loop, &QEventLoop::quit);
        guard.start(timeoutMs);
        loop.exec();
    }
    *alive = false;
    return *result;
}
