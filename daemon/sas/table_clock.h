#pragma once
// The clock the journal stamps records with: the system clock plus an offset that the accounting
// host may set with LP 7F (within a tolerance, journaled as clock.set), because the host's clock
// is the casino's reference. SAS dates are local calendar time.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>

#include "daemon/platform/executor.h"
#include "protocols/sas/long_poll_machine.h"

namespace pitlink::sas {

class TableClock {
public:
    // The system clock is the executor's (docs/design.md rule 7).
    explicit TableClock(const platform::Executor& executor, std::int64_t offsetMs = 0)
        : executor_(executor), offsetMs_(offsetMs) {}

    [[nodiscard]] std::int64_t nowMs() const;  // UTC milliseconds, corrected
    [[nodiscard]] std::int64_t offsetMs() const { return offsetMs_.load(); }
    void setOffsetMs(std::int64_t offset) { offsetMs_.store(offset); }

    [[nodiscard]] SasDateTime localTime() const { return localTimeOf(nowMs()); }
    [[nodiscard]] static SasDateTime localTimeOf(std::int64_t utcMs);
    // The offset that makes the clock read `hostLocal` now; nullopt when that moves the clock by
    // more than `tolerance` from where it stands.
    [[nodiscard]] std::optional<std::int64_t> offsetFor(const SasDateTime& hostLocal,
                                                        std::chrono::seconds tolerance) const;

private:
    const platform::Executor& executor_;
    std::atomic<std::int64_t> offsetMs_;
};

}  // namespace pitlink::sas
