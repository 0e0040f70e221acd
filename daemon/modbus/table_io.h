#pragma once
// The table's lamps, dealer buttons and switches over Modbus, on the logic thread. Every poll
// period it works out each lamp's state from the table (LampRule, priority, flashing on
// pitlink's clock) and hands one cycle to the worker: the lamps written (all of them after every
// (re)connect, otherwise what changed), read back (after a full write and every `read_back_ms`),
// the inputs read. Presses (debounced edges, or a module's edge counter) are acted on by the
// table and journaled with its answer (DealerButtons); switches tell the table of doors and of
// the card reader. A module that fails is reconnected with a bounded back-off; an outage is
// journaled once with its cause and its end with its duration and the errors seen; a transient
// error (mended by a retry) is counted, not an outage. An output that reads back other than
// written, or a button held too long, is a fault (modbus.fault). Until the table is ready and
// after a clean stop the lamps show the safe image; the module's own watchdog (at_connect
// writes) covers the time pitlinkd is dead.
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
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

// What the lamps see of the table. An open door is `door_open` and a tilt too (the table stops):
// a lamp shows door_open only where it ranks above tilt or the lamp leaves tilt out.
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
    // Start-up: the lamps show the safe image until tableReady().
    void holdSafeImage() { ready_ = false; }
    void tableReady() { ready_ = true; }
    // The last cycle, for a clean stop: the safe image, written in full.
    [[nodiscard]] CycleRequest safeCycle() const;

    // `pitlinkctl lamps test`: each lamp alone for `step`, in the configured order, then the
    // table's lamps again. Refused while a round is in progress (players read the lamps). Either
    // way journaled (modbus.lamp_test), and answered once that has committed.
    void lampTest(std::chrono::milliseconds step, const std::string& by, const table::Respond& respond);
    // `pitlinkctl io`: the inputs and outputs as the module reports them at the next cycle
    // (outputs read back); answered at once when the module does not answer.
    void readIo(std::function<void(nlohmann::json)> answer);

    [[nodiscard]] bool up() const { return up_; }
    [[nodiscard]] std::vector<LampState> lampStates() const;
    [[nodiscard]] nlohmann::json statusJson() const;

private:
    void tick();
    [[nodiscard]] std::vector<bool> litNow(std::int64_t now) const;
    void onResult(CycleResult result);
    void onFailure(const CycleResult& result, std::int64_t now);
    void onInputs(const CycleResult& result, std::int64_t now);
    void checkReadBack(const OutputImage& held);
    void checkHeld(std::size_t input, std::int64_t now);
    void switchLevel(std::size_t input, bool active);
    void fault(const std::string& point, const std::string& fault, bool active, nlohmann::json detail);
    void linkChanged(bool up, const std::string& error);
    void checkOfflineTilt(std::int64_t now);
    void answerIo(const CycleResult* result);

    const TableIoSettings& settings_;
    table::Table& table_;
    journal::Journal& journal_;
    platform::Executor& timers_;
    std::function<std::int64_t()> now_;  // the executor's monotonic clock
    Submit submit_;
    DealerButtons buttons_;
    ReadPlan plan_;
    std::vector<ButtonDebouncer> debouncers_;
    std::vector<std::optional<std::uint16_t>> counts_;  // each counter input's last count (nullopt: no baseline)
    std::vector<std::int64_t> pressedSince_;            // each input's debounced press start (-1: released)
    std::vector<std::optional<bool>> switchTold_;       // what each switch last told the table
    ReconnectBackoff backoff_;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);  // results after stop() find it false

    std::optional<platform::Executor::TimerId> timer_;
    bool running_ = false;
    bool ready_ = true;
    bool inFlight_ = false;
    bool up_ = false;
    bool watchdogArmed_ = false;
    std::optional<bool> reported_;  // the last link state journaled
    std::int64_t downSince_ = 0;
    std::int64_t nextAttempt_ = 0;
    std::int64_t lastReadBack_ = 0;
    bool tiltRaised_ = false;
    OutputImage written_;
    bool writtenValid_ = false;
    std::string lastError_;
    std::uint64_t outageFailures_ = 0;           // failed cycles in the outage under way
    std::set<std::string> outageErrors_;         // the distinct errors of the outage under way
    std::map<std::string, std::string> faults_;  // point -> fault, while active
    std::map<std::string, std::string> identity_;
    std::string identityError_;
    struct LampTest {
        std::int64_t start = 0;
        std::int64_t step = 0;
    };
    std::optional<LampTest> lampTest_;
    std::vector<std::function<void(nlohmann::json)>> ioWaiting_;
    struct Counters {
        std::uint64_t cycles = 0;
        std::uint64_t failures = 0;
        std::uint64_t connects = 0;
        std::uint64_t skipped = 0;  // poll periods that found the previous cycle still running
        std::uint64_t requests = 0;
        std::uint64_t transientErrors = 0;  // requests that failed and then succeeded when tried again
        std::uint64_t counted = 0;          // presses counted by a module's edge counter
        std::int64_t lastCycleMs = 0;
        std::int64_t maxCycleMs = 0;
    } counters_;
    std::string lastTransientError_;
    std::int64_t sentAt_ = 0;
};

}  // namespace pitlink::modbus
