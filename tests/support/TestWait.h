#pragma once

#include <functional>
#include <memory>
#include <optional>

namespace semscope::test {

// Runs the event loop until `condition` holds or `timeoutMs` passes; returns the last result.
// For waiting on state that has no signal; prefer QSignalSpy::wait / QTRY_* where there is one.
bool waitFor(const std::function<bool()> &condition, int timeoutMs = 10000);

// Runs one synchronous round trip to a connection: waits (with its own event loop) until the
// callback given to `issue` is called, or `timeoutMs` passes. Returns false on timeout.
bool waitForCallback(const std::function<void(std::function<void()> done)> &issue, int timeoutMs = 10000);

// The one await helper of the tests: runs one asynchronous call (a store's, a kind's, a reader's)
// and waits, event loop running, for its callback. `issue` receives the callback to hand on, as a
// std::function<void(T)>. Returns the value it was called with, or nullopt when it did not answer
// within `timeoutMs` (generous: it only bounds a test that already failed). The value lives on the
// heap, so an answer arriving after the timeout is harmless.
// It notices the answer by polling (waitFor), so a call that answers later takes at least one
// poll interval: the property run's ZSET rows (tst_semaphoreproperties) need the clock to move on
// between two steps, as a ZSET layout tells acquisitions apart by their millisecond.
template <typename T, typename Issue>
std::optional<T> awaitCall(Issue &&issue, int timeoutMs = 60000) {
    auto out = std::make_shared<std::optional<T>>();
    issue(std::function<void(T)>([out](T value) { *out = std::move(value); }));
    waitFor([out] { return out->has_value(); }, timeoutMs);
    return *out;
}

// Delivers the events already posted and those they post in turn (layout requests, a chart's
// geometry, deferred updates), so that a screenshot grabbed next shows the state the test reached:
// what a fixed sleep before a grab used to hope for.
void deliverPostedEvents();

} // namespace semscope::test
