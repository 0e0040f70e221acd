#pragma once
// The one executor and clock of the daemon (docs/design.md rules 4 and 7): every component posts its
// work, reads the time and sets its timers here, and nowhere else. pitlinkd runs it on the
// io_context's logic thread (AsioExecutor); unit tests drive a manual clock and the simulation
// tier (tests/sim) a simulated one, so that one seed reproduces one run exactly.
#include <chrono>
#include <cstdint>
#include <functional>

namespace pitlink::platform {

class Executor {
public:
    using TimerId = std::uint64_t;
    virtual ~Executor() = default;
    // Runs `work` on the logic thread after what is already posted. The only call that other
    // threads (journal writer, reader, Modbus worker) may make.
    virtual void post(std::function<void()> work) = 0;
    // Monotonic milliseconds: time-outs, flashing, debounce, poll periods.
    [[nodiscard]] virtual std::int64_t nowMs() const = 0;
    // UTC milliseconds of the system clock (what the journal stamps, before the host's correction).
    [[nodiscard]] virtual std::int64_t wallMs() const = 0;
    // Calls `fire` once on the logic thread after `delay`, unless cancelled first.
    virtual TimerId after(std::chrono::milliseconds delay, std::function<void()> fire) = 0;
    virtual void cancel(TimerId id) = 0;
};

}  // namespace pitlink::platform
