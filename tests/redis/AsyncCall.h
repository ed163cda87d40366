#pragma once

#include "TestWait.h"

#include <functional>
#include <memory>
#include <optional>

namespace semscope::test {

// Runs one asynchronous store/kind call and waits (event loop running) for its callback. nullopt
// when it did not answer in time. The result lives on the heap so a late callback is harmless.
template <typename T>
std::optional<T> awaitCall(const std::function<void(std::function<void(T)>)> &issue, int timeoutMs = 20000) {
    auto out = std::make_shared<std::optional<T>>();
    issue([out](T value) { *out = std::move(value); });
    waitFor([out] { return out->has_value(); }, timeoutMs);
    return *out;
}

} // namespace semscope::test
