// The table's lamps and dealer buttons on the logic thread, on a manual clock, with a module in
// memory whose cycles run at once (the worker thread is the daemon's): lamps follow the table,
// presses are journaled and acted on, a refused connection is retried with the bounded back-off,
// the offline tilt comes only where configured and clears when the module answers, and a module
// slower than the poll period is never given two cycles at once.
#include "daemon/modbus/table_io.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>

#include "daemon/journal/record_kinds.h"
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
    return s;
}

struct TableIoFixture : table::TableFixture {
    explicit TableIoFixture(TableIoSettings s = settings())
        : table::TableFixture(CardSource::Reader), io_settings(std::move(s)) {
        io.emplace(io_settings, *table, *journal, timers,
                   [this](CycleRequest request, std::function<void(CycleResult)> done) {
                       ++submitted;
                       if (holdCycles) {
                           held = [this, request = std::move(request), done = std::move(done)] {
                               done(runCycle(device, request));
                           };
                           return;
                       }
                       done(runCycle(device, request));
                   });
    }
    ~TableIoFixture() { io.reset(); }
    TableIoFixture(const TableIoFixture&) = delete;
    TableIoFixture& operator=(const TableIoFixture&) = delete;

    TableIoSettings io_settings;
    test::MemoryDevice device;
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
    EXPECT_FALSE(f.table->station(1).attendantCalled);
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
    EXPECT_EQ(f.io->statusJson().at("failures_in_a_row"), 7);
    f.device.refuseConnect = false;
    f.timers.advance(milliseconds(400));
    EXPECT_TRUE(f.io->up());
    EXPECT_EQ(f.io->statusJson().at("failures_in_a_row"), 0);
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

}  // namespace
}  // namespace pitlink::modbus
