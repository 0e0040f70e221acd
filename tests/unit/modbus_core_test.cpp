// The pure Modbus core on a manual clock and a device in memory: lamp rules and priority,
// flashing in step, debounced presses (a held button is one press), the back-off, the output
// image and its write runs, the input read plan, and the poll cycle (full write and read back
// after a connect, only changes after, a failure closes the link).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "protocols/modbus/button_debouncer.h"
#include "protocols/modbus/io_cycle.h"
#include "protocols/modbus/io_image.h"
#include "protocols/modbus/lamp_rules.h"
#include "protocols/modbus/point_map.h"
#include "protocols/modbus/reconnect_backoff.h"
#include "tests/support/memory_modbus_device.h"

namespace pitlink::modbus {
namespace {

using test::MemoryDevice;

using std::chrono::milliseconds;

TableConditions active(std::initializer_list<TableCondition> on) {
    TableConditions c{};
    for (const TableCondition x : on) {
        c.at(static_cast<std::size_t>(x)) = true;
    }
    return c;
}

TEST(LampRules, TheHighestActiveConditionTheLampNamesDecides) {
    const LampRule candle{{TableCondition::Tilt, LampState::FastFlash},
                          {TableCondition::Handpay, LampState::SlowFlash},
                          {TableCondition::CallAttendant, LampState::On}};
    const auto order = defaultPriority();
    EXPECT_EQ(lampStateFor(candle, order, active({TableCondition::BetsOpen})), LampState::Off);
    EXPECT_EQ(lampStateFor(candle, order, active({TableCondition::CallAttendant, TableCondition::BetsOpen})),
              LampState::On);
    EXPECT_EQ(lampStateFor(candle, order, active({TableCondition::CallAttendant, TableCondition::Handpay})),
              LampState::SlowFlash);
    EXPECT_EQ(lampStateFor(candle, order, active({TableCondition::Handpay, TableCondition::Tilt})),
              LampState::FastFlash);
    // A door open outranks the call, but this lamp does not name it: the call still shows.
    EXPECT_EQ(lampStateFor(candle, order, active({TableCondition::DoorOpen, TableCondition::CallAttendant})),
              LampState::On);
}

TEST(LampRules, AConfiguredPriorityReordersThem) {
    const LampRule candle{{TableCondition::Handpay, LampState::SlowFlash},
                          {TableCondition::CallAttendant, LampState::On}};
    const std::vector<TableCondition> callsFirst{TableCondition::CallAttendant, TableCondition::Handpay};
    EXPECT_EQ(lampStateFor(candle, callsFirst, active({TableCondition::CallAttendant, TableCondition::Handpay})),
              LampState::On);
}

TEST(LampRules, AnOffEntryHidesALowerCondition) {
    const LampRule green{{TableCondition::Tilt, LampState::Off}, {TableCondition::BetsOpen, LampState::On}};
    EXPECT_EQ(lampStateFor(green, defaultPriority(), active({TableCondition::BetsOpen})), LampState::On);
    EXPECT_EQ(lampStateFor(green, defaultPriority(), active({TableCondition::Tilt, TableCondition::BetsOpen})),
              LampState::Off);
}

TEST(LampRules, NamesRoundTrip) {
    for (const auto c : defaultPriority()) {
        EXPECT_EQ(parseTableCondition(tableConditionName(c)), c);
    }
    EXPECT_EQ(parseLampState("slow_flash"), LampState::SlowFlash);
    EXPECT_EQ(parseLampState("blink"), std::nullopt);
    EXPECT_EQ(parseTableCondition("no_more_bets"), TableCondition::NoMoreBets);
    EXPECT_EQ(parseTableCondition("closed"), std::nullopt);
}

TEST(LampFlashing, FollowsPitlinksClockInHalfPeriods) {
    const FlashTiming t{milliseconds(500), milliseconds(125)};
    EXPECT_TRUE(lampLit(LampState::SlowFlash, 0, t));
    EXPECT_TRUE(lampLit(LampState::SlowFlash, 499, t));
    EXPECT_FALSE(lampLit(LampState::SlowFlash, 500, t));
    EXPECT_FALSE(lampLit(LampState::SlowFlash, 999, t));
    EXPECT_TRUE(lampLit(LampState::SlowFlash, 1000, t));
    EXPECT_TRUE(lampLit(LampState::FastFlash, 124, t));
    EXPECT_FALSE(lampLit(LampState::FastFlash, 125, t));
    EXPECT_TRUE(lampLit(LampState::FastFlash, 250, t));
    EXPECT_TRUE(lampLit(LampState::On, 777, t));
    EXPECT_FALSE(lampLit(LampState::Off, 0, t));
}

TEST(ButtonDebouncer, APressMustLastTheDebounceTime) {
    ButtonDebouncer b(milliseconds(30));
    EXPECT_FALSE(b.sample(false, 0));   // the first sample sets the level
    EXPECT_FALSE(b.sample(true, 10));   // pressed, not yet stable
    EXPECT_FALSE(b.sample(false, 20));  // a bounce: forgotten
    EXPECT_FALSE(b.sample(true, 30));
    EXPECT_FALSE(b.sample(true, 50));
    EXPECT_TRUE(b.sample(true, 60));  // stable for 30 ms: one press
    EXPECT_TRUE(b.pressed());
}

TEST(ButtonDebouncer, AHeldButtonIsOnePress) {
    ButtonDebouncer b(milliseconds(20));
    b.sample(false, 0);
    int presses = 0;
    for (std::int64_t t = 10; t <= 5'000; t += 10) {
        presses += b.sample(true, t) ? 1 : 0;
    }
    EXPECT_EQ(presses, 1);
    // Released (debounced), then pressed again: a second press.
    for (std::int64_t t = 5'010; t <= 5'100; t += 10) {
        presses += b.sample(false, t) ? 1 : 0;
    }
    EXPECT_FALSE(b.pressed());
    for (std::int64_t t = 5'110; t <= 5'200; t += 10) {
        presses += b.sample(true, t) ? 1 : 0;
    }
    EXPECT_EQ(presses, 2);
}

TEST(ButtonDebouncer, HeldAcrossAReconnectIsNotANewPress) {
    ButtonDebouncer b(milliseconds(0));
    b.sample(false, 0);
    EXPECT_TRUE(b.sample(true, 10));
    b.reset();
    EXPECT_FALSE(b.sample(true, 2'000));  // still held when the device came back
    EXPECT_FALSE(b.sample(true, 2'010));
    b.sample(false, 2'020);
    EXPECT_TRUE(b.sample(true, 2'030));  // a real new press
}

TEST(ReconnectBackoff, DoublesUpToTheBoundAndResets) {
    ReconnectBackoff b(milliseconds(250), milliseconds(1'000));
    EXPECT_EQ(b.failed(), milliseconds(250));
    EXPECT_EQ(b.failed(), milliseconds(500));
    EXPECT_EQ(b.failed(), milliseconds(1'000));
    EXPECT_EQ(b.failed(), milliseconds(1'000));
    EXPECT_EQ(b.failuresInARow(), 4);
    b.succeeded();
    EXPECT_EQ(b.failuresInARow(), 0);
    EXPECT_EQ(b.failed(), milliseconds(250));
}

PointMap sampleMap() {
    PointMap m;
    m.outputs = {{"candle", OutputKind::Coil, 0, 0},
                 {"green", OutputKind::Coil, 1, 0},
                 {"red", OutputKind::Coil, 5, 0},
                 {"status_a", OutputKind::HoldingRegisterBit, 10, 0},
                 {"status_b", OutputKind::HoldingRegisterBit, 10, 3}};
    m.inputs = {{"deal", InputKind::DiscreteInput, 4, 0, false},
                {"void", InputKind::DiscreteInput, 6, 0, true},
                {"key", InputKind::InputRegisterBit, 20, 2, false}};
    return m;
}

TEST(IoImage, LampsBecomeCoilsAndRegisterBits) {
    const OutputImage image = outputImageOf(sampleMap(), {true, false, true, false, true});
    EXPECT_EQ(image.coils, (std::map<std::uint16_t, bool>{{0, true}, {1, false}, {5, true}}));
    EXPECT_EQ(image.registers, (std::map<std::uint16_t, std::uint16_t>{{10, 0b1000}}));
    EXPECT_EQ(coilRuns(image.coils), (std::vector<CoilRun>{{0, {true, false}}, {5, {true}}}));
    EXPECT_EQ(registerRuns(image.registers), (std::vector<RegisterRun>{{10, {8}}}));
}

TEST(IoImage, OnlyWhatChangedIsWrittenAgain) {
    const OutputImage before = outputImageOf(sampleMap(), {true, false, true, false, true});
    const OutputImage after = outputImageOf(sampleMap(), {true, true, true, true, true});
    const OutputImage changed = changedPart(after, &before);
    EXPECT_EQ(changed.coils, (std::map<std::uint16_t, bool>{{1, true}}));
    EXPECT_EQ(changed.registers, (std::map<std::uint16_t, std::uint16_t>{{10, 0b1001}}));
    EXPECT_EQ(changedPart(after, nullptr), after);
    EXPECT_TRUE(changedPart(after, &after).coils.empty());
}

TEST(IoImage, InputsAreReadInOneSpanPerKindAndDecoded) {
    const PointMap m = sampleMap();
    const ReadPlan plan = readPlanOf(m);
    EXPECT_EQ(plan, (ReadPlan{4, 3, 20, 1}));
    // deal (DI 4) pressed, void (DI 6, active low) reads 1 = released, key (IR 20 bit 2) set.
    EXPECT_EQ(decodeInputs(m, plan, {true, false, true}, {0b100}), (std::vector<bool>{true, false, true}));
    EXPECT_EQ(decodeInputs(m, plan, {false, false, false}, {0b011}), (std::vector<bool>{false, true, false}));
}

TEST(PointMap, ProblemsAreNamed) {
    EXPECT_TRUE(pointMapProblems(sampleMap()).empty());
    PointMap m = sampleMap();
    m.outputs.push_back({"green", OutputKind::Coil, 9, 0});
    m.outputs.push_back({"other", OutputKind::HoldingRegisterBit, 10, 3});
    m.inputs.push_back({"far", InputKind::DiscreteInput, 3'000, 0, false});
    const auto problems = pointMapProblems(m);
    ASSERT_EQ(problems.size(), 3U);
    EXPECT_NE(problems[0].find("'green' is used twice"), std::string::npos);
    EXPECT_NE(problems[1].find("holding register 10 bit 3 drives another lamp"), std::string::npos);
    EXPECT_NE(problems[2].find("discrete inputs span 2997"), std::string::npos);
}

TEST(IoCycle, AfterAConnectEverythingIsWrittenAndReadBack) {
    MemoryDevice device;
    device.firstInput = true;
    const PointMap m = sampleMap();
    const CycleRequest request{outputImageOf(m, {true, false, true, false, true}), {}, false, readPlanOf(m)};
    const CycleResult r = runCycle(device, request);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.connected);
    EXPECT_TRUE(r.fullWrite);
    EXPECT_EQ(device.log, (std::vector<std::string>{"write coils 0+2", "write coils 5+1", "write registers 10+1",
                                                    "read coils 0+2", "read coils 5+1", "read registers 10+1",
                                                    "read inputs 4+3", "read input registers 20+1"}));
    EXPECT_EQ(r.requests, 8U);
    EXPECT_EQ(r.written, request.image);
    EXPECT_EQ(r.discrete, (std::vector<bool>{true, false, false}));
    EXPECT_EQ(device.holding[10], 0b1000);
}

TEST(IoCycle, OnceWrittenOnlyChangesGoOut) {
    MemoryDevice device;
    const PointMap m = sampleMap();
    CycleRequest request{outputImageOf(m, {true, false, true, false, true}), {}, false, readPlanOf(m)};
    const CycleResult first = runCycle(device, request);
    device.log.clear();
    request = CycleRequest{outputImageOf(m, {true, true, true, false, true}), first.written, true, readPlanOf(m)};
    const CycleResult second = runCycle(device, request);
    ASSERT_TRUE(second.ok);
    EXPECT_FALSE(second.fullWrite);
    EXPECT_EQ(device.log,
              (std::vector<std::string>{"write coils 1+1", "read inputs 4+3", "read input registers 20+1"}));
    EXPECT_TRUE(device.coils[1]);
}

TEST(IoCycle, AFailureClosesTheLinkAndTheNextCycleStartsOver) {
    MemoryDevice device;
    const PointMap m = sampleMap();
    const CycleRequest request{outputImageOf(m, {true, true, true, true, true}), {}, false, readPlanOf(m)};
    ASSERT_TRUE(runCycle(device, request).ok);
    device.failWrites = true;
    const CycleRequest change{outputImageOf(m, {false, true, true, true, true}), request.image, true, readPlanOf(m)};
    const CycleResult failed = runCycle(device, change);
    EXPECT_FALSE(failed.ok);
    EXPECT_EQ(failed.error, "write coil 0: timed out");
    EXPECT_FALSE(device.open);
    device.failWrites = false;
    device.log.clear();
    const CycleResult again = runCycle(device, change);
    ASSERT_TRUE(again.ok);
    EXPECT_TRUE(again.connected);
    EXPECT_TRUE(again.fullWrite);  // even though the caller still thinks the old image is there
    EXPECT_EQ(device.log.front(), "write coils 0+2");
    EXPECT_EQ(device.connects, 2);
}

TEST(IoCycle, AReadBackThatDiffersFails) {
    MemoryDevice device;
    device.stuckOff = true;
    const PointMap m = sampleMap();
    const CycleResult r =
        runCycle(device, CycleRequest{outputImageOf(m, {false, true, false, false, false}), {}, false, readPlanOf(m)});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error, "read back coil 1: holds off, written on");
    EXPECT_FALSE(device.open);
}

TEST(IoCycle, ARefusedConnectionSaysSo) {
    MemoryDevice device;
    device.refuseConnect = true;
    const PointMap m = sampleMap();
    const CycleResult r = runCycle(device, CycleRequest{outputImageOf(m, {}), {}, false, readPlanOf(m)});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error, "connect: connection refused");
    EXPECT_EQ(r.requests, 0U);
}

}  // namespace
}  // namespace pitlink::modbus
