#pragma once
// The table's lamps, dealer buttons and switches over Modbus, on the logic thread, across one or
// more I/O modules. Every poll period it works out each lamp's state from the table (LampRule,
// priority, flashing on pitlink's clock) and hands each module one cycle (never two at once): its
// lamps written (all of them after every (re)connect, otherwise what changed), read back (after
// a full write and every `read_back_ms`), its inputs read. Presses (debounced edges, or a
// module's edge counter) are acted on by the table and journaled with its answer
// (DealerButtons); switches tell the table of doors and of the card reader. Each module has its
// own health: one that fails is reconnected with a bounded back-off; an outage is journaled once
// with its cause and its end with its duration and the errors seen; a transient error (mended by
// a retry) is counted, not an outage. An output that reads back other than written, or a button
// held too long, is a fault (modbus.fault). Until the table is ready and after a clean stop the
// lamps show the safe image; each module's own watchdog (at_connect writes) covers the time
// pitlinkd is dead. On a controller of several games each lamp shows its own game and each
// button and switch acts on its own game (pitlink.yaml `game:` on the point; absent: the first); a
// module that does not answer tilts the games whose points it carries.
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
#include "daemon/journal/records/modbus_records.h"
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
    // One cycle of `module` to its worker; `done` is called on the logic thread.
    using Submit = std::function<void(std::size_t module, CycleRequest, std::function<void(CycleResult)>)>;

    // `games`: the controller's, in pitlink.yaml's order (at least one).
    TableIo(const TableIoSettings& settings, std::vector<table::Table*> games, journal::Journal& journal,
            platform::Executor& timers, Submit submit);
    ~TableIo();
    TableIo(const TableIo&) = delete;
    TableIo& operator=(const TableIo&) = delete;

    void start();  // the first cycles now, then every poll period
    void stop();   // no further cycles (a result still on its way is dropped)
    // Start-up: the lamps show the safe image until tableReady().
    void holdSafeImage() { ready_ = false; }
    void tableReady() { ready_ = true; }
    // A module's last cycle, for a clean stop: the safe image written in full, then at_stop.
    [[nodiscard]] CycleRequest safeCycle(std::size_t module) const;

    // `pitlinkctl lamps test`: each lamp alone for `step`, in the configured order, then the
    // table's lamps again; with `game`, that game's lamps only (the others go on showing their
    // games). Refused while a round of a game whose lamps are tested is in progress (players read
    // the lamps). Either way journaled (modbus.lamp_test), and answered once that has committed.
    void lampTest(std::chrono::milliseconds step, const std::string& by, std::optional<std::size_t> game,
                  const table::Respond& respond);
    // `pitlinkctl io`: the inputs and outputs as each module reports them at its next cycle
    // (outputs read back); a module that does not answer is reported as such. With `game`, only
    // that game's points; on a controller of several games each point names its game.
    void readIo(std::optional<std::size_t> game, std::function<void(nlohmann::json)> answer);

    [[nodiscard]] bool up() const;  // every module answers
    [[nodiscard]] std::vector<LampState> lampStates() const;
    [[nodiscard]] nlohmann::json statusJson() const;

private:
    // One module: its points, its cycle under way, its health.
    struct Module {
        Module(ModulePoints own, ReadPlan readPlan, ReconnectBackoff waits)
            : points(std::move(own)), plan(readPlan), backoff(waits) {}
        ModulePoints points;
        ReadPlan plan;
        ReconnectBackoff backoff;
        bool inFlight = false;
        bool up = false;
        bool watchdogArmed = false;
        bool tiltRaised = false;
        bool writtenValid = false;
        bool readBackNext = false;     // `pitlinkctl io` waits for this module's next cycle
        std::optional<bool> reported;  // the last link state journaled
        std::int64_t downSince = 0;
        std::int64_t nextAttempt = 0;
        std::int64_t lastReadBack = 0;
        std::int64_t sentAt = 0;
        std::set<std::size_t> games;  // the games whose points it carries (an outage tilts them)
        OutputImage written;
        std::string lastError;
        std::uint64_t outageFailures = 0;    // failed cycles in the outage under way
        std::set<std::string> outageErrors;  // the distinct errors of the outage under way
        std::map<std::string, std::string> identity;
        std::string identityError;
        std::string lastTransientError;
        struct Counters {
            std::uint64_t cycles = 0;
            std::uint64_t failures = 0;
            std::uint64_t connects = 0;
            std::uint64_t skipped = 0;  // poll periods that found the previous cycle still running
            std::uint64_t requests = 0;
            std::uint64_t transientErrors = 0;  // requests that failed and then succeeded when tried again
            std::int64_t lastCycleMs = 0;
            std::int64_t maxCycleMs = 0;
        } counters;
    };
    struct IoRead {
        std::optional<std::string> game;  // that game's points only
        std::function<void(nlohmann::json)> answer;
        std::vector<std::optional<nlohmann::json>> modules;  // filled as each module's cycle comes
    };

    void tick();
    void tickModule(std::size_t index, std::int64_t now, const std::vector<bool>& lit);
    [[nodiscard]] std::vector<bool> litNow(std::int64_t now) const;
    void onResult(std::size_t index, CycleResult result);
    void onFailure(std::size_t index, const CycleResult& result, std::int64_t now);
    void onInputs(std::size_t index, const CycleResult& result, std::int64_t now);
    void checkReadBack(std::size_t index, const OutputImage& held);
    void checkHeld(std::size_t input, std::int64_t now);
    void switchLevel(std::size_t input, bool active);
    void fault(std::size_t index, const std::string& point, const std::string& fault, bool active,
               journal::ModbusFaultRecord::Detail detail = {});
    void linkChanged(std::size_t index, bool up, const std::string& error);
    void checkOfflineTilt(std::size_t index, std::int64_t now);
    [[nodiscard]] nlohmann::json ioOf(std::size_t index, const CycleResult* result) const;
    void answerIo(std::size_t index, const CycleResult* result);
    [[nodiscard]] std::string tiltCause(std::size_t index) const;
    [[nodiscard]] std::string where(std::size_t index) const;
    [[nodiscard]] bool inRound(std::size_t game) const;
    [[nodiscard]] bool severalGames() const { return games_.size() > 1; }
    [[nodiscard]] nlohmann::json moduleStatus(std::size_t index) const;

    const TableIoSettings& settings_;
    std::vector<table::Table*> games_;
    journal::Journal& journal_;
    platform::Executor& timers_;
    std::function<std::int64_t()> now_;  // the executor's monotonic clock
    Submit submit_;
    DealerButtons buttons_;
    std::vector<Module> modules_;
    std::vector<ButtonDebouncer> debouncers_;           // per input (the table's index)
    std::vector<std::optional<std::uint16_t>> counts_;  // each counter input's last count (nullopt: no baseline)
    std::vector<std::int64_t> pressedSince_;            // each input's debounced press start (-1: released)
    std::vector<std::optional<bool>> switchTold_;       // what each switch last told the table
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);  // results after stop() find it false

    std::optional<platform::Executor::TimerId> timer_;
    bool running_ = false;
    bool ready_ = true;
    std::map<std::string, std::string> faults_;  // point -> fault, while active
    struct LampTest {
        std::int64_t start = 0;
        std::int64_t step = 0;
        std::vector<std::size_t> lamps;  // the outputs tested, in turn
        std::set<std::size_t> games;     // their games: a round opening in one ends the test
    };
    std::optional<LampTest> lampTest_;
    std::vector<IoRead> ioReads_;
    std::uint64_t counted_ = 0;        // presses counted by a module's edge counter
    std::uint64_t counterResets_ = 0;  // counter readings taken as a reset of the module's counter
};

}  // namespace pitlink::modbus
