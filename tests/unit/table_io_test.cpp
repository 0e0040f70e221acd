// The table's lamps and dealer buttons on the logic thread, on a manual clock, with a module in
// memory whose cycles run at once (the worker thread is the daemon's): lamps follow the table,
// presses are journaled and acted on, a refused connection is retried with the bounded back-off,
// the offline tilt comes only where configured and clears when the module answers, and a module
// slower than the poll period is never given two cycles at once.
#include "daemon/modbus/table_io.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>

#include "daemon/journal/records/record_kinds.h"
#include "tests/support/memory_modbus_device.h"
#include "tests/unit/table_fixture.h"

namespace pitlink::modbus {
namespace {

using std::chrono::milliseconds;
using table::CardSource;
using table::Reply;
using table::Respond;

constexpr std::uint16_t kIdleCoil = 3;
constexpr std::uint16_t kBetsCoil = 1;
constexpr std::uint16_t kCandleCoil = 0;

TableIoSettings settings() {
    TableIoSettings s;
    s.enabled = true;
    s.poll = milliseconds(20);
    s.debounce = milliseconds(20);
    s.reconnectMin = milliseconds(100);
    s.reconnectMax = milliseconds(400);
    s.points.outputs = {{"candle", OutputKind::Coil, kCandleCoil, 0},
                        {"bets_open", OutputKind::Coil, kBetsCoil, 0},
                        {"idle", OutputKind::Coil, kIdleCoil, 0}};
    s.lamps = {{{TableCondition::Tilt, LampState::FastFlash}, {TableCondition::CallAttendant, LampState::On}},
               {{TableCondition::BetsOpen, LampState::On}},
               {{TableCondition::Idle, LampState::On}}};
    s.points.inputs = {{"attendant_key", InputKind::DiscreteInput, 0, 0, false, std::nullopt}};
    s.buttons = {{ButtonAction::AttendantKey, false, milliseconds(10'000)}};
    s.modules = {ModuleSettings{}};
    return s;
}

struct TableIoFixture : table::TableFixture {
    explicit TableIoFixture(TableIoSettings s = settings())
        : table::TableFixture(CardSource::Reader), io_settings(std::move(s)) {
        io.emplace(io_settings, std::vector<table::Table*>{table.get()}, *journal, timers,
                   [this](std::size_t module, CycleRequest request, std::function<void(CycleResult)> done) {
                       ++submitted;
                       test::MemoryDevice& to = module == 0 ? device : second;
                       if (holdCycles) {
                           held = [&to, request = std::move(request), done = std::move(done)] {
                               done(runCycle(to, request));
                           };
                           return;
                       }
                       done(runCycle(to, request));
                   });
    }
    ~TableIoFixture() { io.reset(); }
    TableIoFixture(const TableIoFixture&) = delete;
    TableIoFixture& operator=(const TableIoFixture&) = delete;

    TableIoSettings io_settings;
    test::MemoryDevice device;
    test::MemoryDevice second;  // a second module's
    std::optional<TableIo> io;
    int submitted = 0;
    bool holdCycles = false;
    std::function<void()> held;
};

TEST(TableIo, LampsFollowTheTableAtTheNextPoll) {
    TableIoFixture f;
    f.io->start();
    EXPECT_TRUE(f.device.coils[kIdleCoil]);
    EXPECT_FALSE(f.device.coils[kBetsCoil]);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->newShoe(r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
    EXPECT_FALSE(f.device.coils[kBetsCoil]);  // not before the next poll
    f.timers.advance(milliseconds(20));
    EXPECT_TRUE(f.device.coils[kBetsCoil]);
    EXPECT_FALSE(f.device.coils[kIdleCoil]);
    EXPECT_EQ(f.device.connects, 1);
    EXPECT_EQ(f.io->statusJson().at("lamps").at("bets_open"), "on");
}

TEST(TableIo, APressIsJournaledThenActedOnOnce) {
    TableIoFixture f;
    f.fund(1, 1'000);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->callAttendant(1, r); }).ok);
    f.io->start();
    EXPECT_TRUE(f.device.coils[kCandleCoil]);
    f.device.firstInput = true;  // held for a second: one press
    f.timers.advance(milliseconds(1'000));
    f.device.firstInput = false;
    f.timers.advance(milliseconds(100));
    EXPECT_EQ(f.count(journal::kind::kButtonPressed), 1);
    EXPECT_EQ(f.count(journal::kind::kAttendantCleared), 1);
    EXPECT_FALSE(f.table->wallet(1).attendantCalled);
    EXPECT_FALSE(f.device.coils[kCandleCoil]);
    EXPECT_EQ(f.io->statusJson().at("presses"), 1);
}

TEST(TableIo, ARefusedConnectionIsRetriedWithTheBoundedBackoff) {
    TableIoFixture f;
    f.device.refuseConnect = true;
    f.io->start();  // attempt at 0, then after 100, 200, 400, 400 ... ms
    f.timers.advance(milliseconds(2'000));
    EXPECT_EQ(f.device.connects, 7);  // 0, 100, 300, 700, 1100, 1500, 1900
    EXPECT_FALSE(f.io->up());
    EXPECT_TRUE(f.table->tilts().empty());              // offline_tilt 0: never
    EXPECT_EQ(f.count(journal::kind::kModbusLink), 1);  // down, once
    EXPECT_EQ(f.io->statusJson().at("modules").at(0).at("failures_in_a_row"), 7);
    f.device.refuseConnect = false;
    f.timers.advance(milliseconds(400));
    EXPECT_TRUE(f.io->up());
    EXPECT_EQ(f.io->statusJson().at("modules").at(0).at("failures_in_a_row"), 0);
    EXPECT_TRUE(f.device.coils[kIdleCoil]);  // the whole image, written on reconnect
    EXPECT_EQ(f.count(journal::kind::kModbusLink), 2);
}

TEST(TableIo, OfflineTiltOnlyAfterItsTimeAndClearedWhenTheModuleAnswers) {
    TableIoSettings s = settings();
    s.offlineTilt = milliseconds(500);
    TableIoFixture f(s);
    f.device.refuseConnect = true;
    f.io->start();
    f.timers.advance(milliseconds(480));
    EXPECT_TRUE(f.table->tilts().empty());
    f.timers.advance(milliseconds(40));
    EXPECT_EQ(f.table->tilts().count("modbus"), 1U);
    f.device.refuseConnect = false;
    f.timers.advance(milliseconds(500));
    EXPECT_TRUE(f.io->up());
    EXPECT_TRUE(f.table->tilts().empty());
    EXPECT_EQ(f.count(journal::kind::kTiltRaised), 1);
    EXPECT_EQ(f.count(journal::kind::kTiltCleared), 1);
}

TEST(TableIo, AModuleSlowerThanThePollGetsOneCycleAtATime) {
    TableIoFixture f;
    f.holdCycles = true;
    f.io->start();
    f.timers.advance(milliseconds(100));  // five poll periods with the first cycle still out
    EXPECT_EQ(f.submitted, 1);
    EXPECT_EQ(f.io->statusJson().at("skipped_periods"), 5);
    f.held();
    f.holdCycles = false;
    f.timers.advance(milliseconds(20));
    EXPECT_EQ(f.submitted, 2);
    EXPECT_TRUE(f.io->up());
}

TEST(TableIo, AResultAfterStopIsDropped) {
    TableIoFixture f;
    f.holdCycles = true;
    f.io->start();
    f.io->stop();
    f.held();  // the worker's answer arrives after the stop: nothing happens
    EXPECT_FALSE(f.io->up());
    EXPECT_EQ(f.timers.pending(), 0U);
}

TEST(TableIo, TheSafeImageUntilTheTableIsReadyAndForTheLastCycle) {
    TableIoSettings s = settings();
    s.safeLit = {true, false, false};  // only the candle
    TableIoFixture f(s);
    f.io->holdSafeImage();
    f.io->start();
    EXPECT_TRUE(f.device.coils[kCandleCoil]);
    EXPECT_FALSE(f.device.coils[kIdleCoil]);
    EXPECT_EQ(f.io->statusJson().at("safe_image"), true);
    f.io->tableReady();
    f.timers.advance(milliseconds(20));
    EXPECT_FALSE(f.device.coils[kCandleCoil]);
    EXPECT_TRUE(f.device.coils[kIdleCoil]);
    const CycleResult last = runCycle(f.device, f.io->safeCycle(0));
    ASSERT_TRUE(last.ok);
    EXPECT_TRUE(f.device.coils[kCandleCoil]);
    EXPECT_FALSE(f.device.coils[kIdleCoil]);
}

TEST(TableIo, AStuckOutputIsAFaultOfThatLampNotAnOutage) {
    TableIoFixture f;
    f.device.stuckOff = true;
    f.io->start();  // idle is written on and reads back off
    EXPECT_TRUE(f.io->up());
    EXPECT_EQ(f.count(journal::kind::kModbusFault), 1);
    EXPECT_EQ(f.io->statusJson().at("faults"), (nlohmann::json{{"idle", "stuck_output"}}));
    f.timers.advance(milliseconds(100));
    EXPECT_EQ(f.count(journal::kind::kModbusFault), 1);  // raised once, however often it is read back
    EXPECT_EQ(f.count(journal::kind::kModbusLink), 1);   // up, never down
    f.device.stuckOff = false;
    f.timers.advance(milliseconds(20));  // written again in full, read back
    EXPECT_EQ(f.count(journal::kind::kModbusFault), 2);
    EXPECT_TRUE(f.io->statusJson().at("faults").empty());
}

TEST(TableIo, EdgesCountedByTheModuleArePressesHoweverShort) {
    TableIoSettings s = settings();
    s.points.inputs[0].counter = 30;
    TableIoFixture f(s);
    f.device.inputRegisters[30] = 65'534;  // the baseline at connect, whatever it is
    f.io->start();
    EXPECT_EQ(f.io->statusJson().at("presses"), 0);
    f.device.inputRegisters[30] = 1;  // three taps between two polls, across the wrap
    f.timers.advance(milliseconds(20));
    EXPECT_EQ(f.io->statusJson().at("presses"), 3);
    EXPECT_EQ(f.io->statusJson().at("counted_presses"), 3);
    EXPECT_EQ(f.count(journal::kind::kButtonPressed), 3);  // each refused (no call), each journaled
    f.timers.advance(milliseconds(100));
    EXPECT_EQ(f.io->statusJson().at("presses"), 3);
    f.device.inputRegisters[30] = 0;  // the module restarted between two polls: a reset, not 65535 presses
    f.timers.advance(milliseconds(20));
    EXPECT_EQ(f.io->statusJson().at("presses"), 3);
    EXPECT_EQ(f.io->statusJson().at("counter_resets"), 1);
    f.device.inputRegisters[30] = 1;  // counted from the new baseline
    f.timers.advance(milliseconds(20));
    EXPECT_EQ(f.io->statusJson().at("presses"), 4);
}

TEST(TableIo, AButtonHeldTooLongIsAFaultUntilLetGo) {
    TableIoSettings s = settings();
    s.buttons[0].maxHold = milliseconds(200);
    TableIoFixture f(s);
    f.io->start();
    f.device.firstInput = true;
    f.timers.advance(milliseconds(200));
    EXPECT_EQ(f.count(journal::kind::kModbusFault), 0);
    f.timers.advance(milliseconds(60));
    EXPECT_EQ(f.count(journal::kind::kModbusFault), 1);
    EXPECT_EQ(f.io->statusJson().at("faults"), (nlohmann::json{{"attendant_key", "button_held"}}));
    f.device.firstInput = false;
    f.timers.advance(milliseconds(60));
    EXPECT_EQ(f.count(journal::kind::kModbusFault), 2);
    EXPECT_EQ(f.io->statusJson().at("presses"), 1);  // and it was one press
}

TEST(TableIo, TwoModulesEachWithItsOwnHealth) {
    TableIoSettings s = settings();
    ModuleSettings tower;
    tower.name = "tower";
    tower.connection.port = 1502;
    s.modules.push_back(tower);
    s.outputModule = {0, 1, 0};  // bets_open on the tower
    TableIoFixture f(s);
    f.second.refuseConnect = true;
    f.io->start();
    EXPECT_TRUE(f.device.coils[kIdleCoil]);
    EXPECT_FALSE(f.device.coils.contains(kBetsCoil));  // not this module's
    const nlohmann::json status = f.io->statusJson();
    EXPECT_FALSE(status.at("up"));
    EXPECT_TRUE(status.at("modules").at(0).at("up"));
    EXPECT_FALSE(status.at("modules").at(1).at("up"));
    EXPECT_EQ(status.at("modules").at(1).at("name"), "tower");
    f.second.refuseConnect = false;
    ASSERT_TRUE(f.call([&](Respond r) { f.table->newShoe(r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
    f.timers.advance(milliseconds(200));
    EXPECT_TRUE(f.io->up());
    EXPECT_TRUE(f.second.coils[kBetsCoil]);
    EXPECT_FALSE(f.device.coils[kIdleCoil]);
    EXPECT_EQ(f.count(journal::kind::kModbusLink), 3);  // io up; tower down, then up
}

TEST(TableIo, TheLampTestLightsEachLampAloneThenGivesThemBack) {
    TableIoFixture f;
    f.io->start();
    const Reply started = f.call([&](Respond r) { f.io->lampTest(milliseconds(100), "tech", std::nullopt, r); });
    ASSERT_TRUE(started.ok) << started.message;
    f.timers.advance(milliseconds(20));
    EXPECT_TRUE(f.device.coils[kCandleCoil]);
    EXPECT_FALSE(f.device.coils[kIdleCoil]);
    f.timers.advance(milliseconds(100));
    EXPECT_FALSE(f.device.coils[kCandleCoil]);
    EXPECT_TRUE(f.device.coils[kBetsCoil]);
    f.timers.advance(milliseconds(100));
    EXPECT_TRUE(f.device.coils[kIdleCoil]);
    EXPECT_FALSE(f.device.coils[kBetsCoil]);
    f.timers.advance(milliseconds(120));
    EXPECT_TRUE(f.device.coils[kIdleCoil]);  // the table's lamps again: idle
    EXPECT_FALSE(f.device.coils[kCandleCoil]);
    EXPECT_FALSE(f.io->statusJson().at("lamp_test"));
    // A round opened by a dealer's button ends a test under way: players read the lamps.
    ASSERT_TRUE(f.call([&](Respond r) { f.io->lampTest(milliseconds(1'000), "tech", std::nullopt, r); }).ok);
    f.timers.advance(milliseconds(20));
    EXPECT_TRUE(f.io->statusJson().at("lamp_test"));
    ASSERT_TRUE(f.call([&](Respond r) { f.table->newShoe(r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
    f.timers.advance(milliseconds(20));
    EXPECT_FALSE(f.io->statusJson().at("lamp_test"));
    EXPECT_TRUE(f.device.coils[kBetsCoil]);
    const Reply refused = f.call([&](Respond r) { f.io->lampTest(milliseconds(100), "tech", std::nullopt, r); });
    EXPECT_FALSE(refused.ok);
    EXPECT_EQ(refused.error, "round_in_progress");
    EXPECT_EQ(f.count(journal::kind::kModbusLampTest), 3);  // the refusal too
}

}  // namespace
}  // namespace pitlink::modbus
