#pragma once
// The table's lamps and dealer buttons over Modbus, on the logic thread. Every poll period it
// works out each lamp's state from the table (LampRule, priority, flashing on pitlink's clock)
// and hands one cycle to the worker: the lamps written (all of them, read back, after every
// (re)connect; otherwise what changed) and the buttons read. Presses (debounced edges) are
// journaled, then acted on by the table (DealerButtons). A device that fails is reconnected with
// a bounded back-off; its health is in `pitlinkctl status`; it tilts the table only where
// `offline_tilt_ms` says so.
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/config/modbus_settings.h"
#include "daemon/modbus/dealer_buttons.h"
#include "daemon/platform/executor.h"
#include "daemon/table/table.h"
#include "protocols/modbus/button_debouncer.h"
#include "protocols/modbus/io_cycle.h"
#include "protocols/modbus/reconnect_backoff.h"

namespace pitlink::modbus {

// What the lamps see of the table.
[[nodiscard]] TableConditions conditionsOf(const table::Table& table);

class TableIo {
public:
    using Submit = std::function<void(CycleRequest, std::function<void(CycleResult)>)>;  // to the worker

    TableIo(const TableIoSettings& settings, table::Table& table, journal::Journal& journal, platform::Executor& timers,
            Submit submit);
    ~TableIo();
    TableIo(const TableIo&) = delete;
    TableIo& operator=(const TableIo&) = delete;

    void start();  // the first cycle now, then every poll period
    void stop();   // no further cycles (a result still on its way is dropped)

    [[nodiscard]] bool up() const { return up_; }
    [[nodiscard]] std::vector<LampState> lampStates() const;
    [[nodiscard]] nlohmann::json statusJson() const;

private:
    void tick();
    void onResult(CycleResult result);
    void linkChanged(bool up, const std::string& error);
    void checkOfflineTilt(std::int64_t now);

    const TableIoSettings& settings_;
    table::Table& table_;
    journal::Journal& journal_;
    platform::Executor& timers_;
    std::function<std::int64_t()> now_;  // the executor's monotonic clock
    Submit submit_;
    DealerButtons buttons_;
    ReadPlan plan_;
    std::vector<ButtonDebouncer> debouncers_;
    ReconnectBackoff backoff_;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);  // results after stop() find it false

    std::optional<platform::Executor::TimerId> timer_;
    bool running_ = false;
    bool inFlight_ = false;
    bool up_ = false;
    std::optional<bool> reported_;  // the last link state journaled
    std::int64_t downSince_ = 0;
    std::int64_t nextAttempt_ = 0;
    bool tiltRaised_ = false;
    OutputImage written_;
    bool writtenValid_ = false;
    std::string lastError_;
    struct Counters {
        std::uint64_t cycles = 0;
        std::uint64_t failures = 0;
        std::uint64_t connects = 0;
        std::uint64_t skipped = 0;  // poll periods that found the previous cycle still running
        std::uint64_t requests = 0;
        std::int64_t lastCycleMs = 0;
        std::int64_t maxCycleMs = 0;
    } counters_;
    std::int64_t sentAt_ = 0;
};

}  // namespace pitlink::modbus
