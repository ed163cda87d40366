#pragma once

#include <atomic>
#include <memory>

namespace semscope::core {

// A flag shared between whoever starts long work (discovery, waiting acquire) and the work itself.
// Copies share the flag; cancel() is safe from any thread.
class Cancellation {
public:
    Cancellation()
        : m_flag(std::make_shared<std::atomic_bool>(false)) {}
    void cancel() const { m_flag->store(true); }
    bool isCancelled() const { return m_flag->load(); }

private:
    std::shared_ptr<std::atomic_bool> m_flag;
};

} // namespace semscope::core
