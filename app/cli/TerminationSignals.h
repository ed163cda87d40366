#pragma once

#include <functional>
#include <memory>

class QSocketNotifier;

namespace semscope::cli {

// Catches SIGINT and SIGTERM while it lives and reports them on the main thread (the handler only
// writes a byte into a pipe that a QSocketNotifier watches), so that a command can undo what it left
// on a server (a waiter's queue entry) before the process ends. Only the first signal is caught:
// the handler restores the default action at once, so a second Ctrl-C ends the process as usual.
// One instance at a time.
class TerminationSignals {
public:
    explicit TerminationSignals(std::function<void(int signal)> onSignal);
    ~TerminationSignals();
    TerminationSignals(const TerminationSignals &) = delete;
    TerminationSignals &operator=(const TerminationSignals &) = delete;

    // "SIGINT" / "SIGTERM" for messages.
    static const char *name(int signal);

private:
    std::function<void(int)> m_onSignal;
    std::unique_ptr<QSocketNotifier> m_notifier;
};

} // namespace semscope::cli
