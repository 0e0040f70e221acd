#pragma once
// Time as the table sees it (DESIGN.md rule 4): timers through an interface, so that tests drive
// a manual clock and never sleep; pitlinkd's adapter runs them on the io_context.
#include <chrono>
#include <cstdint>
#include <functional>

namespace pitlink::table {

class Timers {
public:
    using Id = std::uint64_t;
    virtual ~Timers() = default;
    // Calls `fire` once on the logic thread after `delay`, unless cancelled first.
    virtual Id after(std::chrono::milliseconds delay, std::function<void()> fire) = 0;
    virtual void cancel(Id id) = 0;
};

}  // namespace pitlink::table
