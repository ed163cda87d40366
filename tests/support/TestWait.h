#pragma once

#include <functional>

namespace semscope::test {

// Runs the event loop until `condition` holds or `timeoutMs` passes; returns the last result.
// For waiting on state that has no signal; prefer QSignalSpy::wait / QTRY_* where there is one.
bool waitFor(const std::function<bool()> &condition, int timeoutMs = 10000);

// Runs one synchronous round trip to a connection: waits (with its own event loop) until the
// callback given to `issue` is called, or `timeoutMs` passes. Returns false on timeout.
bool waitForCallback(const std::function<void(std::function<void()> done)> &issue, int timeoutMs = 10000);

// Delivers the events already posted and those they post in turn (layout requests, a chart's
// geometry, deferred updates), so that a screenshot grabbed next shows the state the test reached:
// what a fixed sleep before a grab used to hope for.
void deliverPostedEvents();

} // namespace semscope::test
