// The pure Modbus core on a manual clock and a device in memory: lamp rules and priority,
// flashing in step, debounced presses (a held button is one press), the back-off, the output
// image and its write runs, the input read plan, and the poll cycle (full write and read back
// after a connect, only changes after, a failure closes the link).
#include <gtest/gtest.h>

#include <algorithm>
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
    m.inputs = {{"deal", InputKind::DiscreteInput, 4, 0, false, std::nullopt},
                {"void", InputKind::DiscreteInput, 6, 0, true, std::nullopt},
                {"key", InputKind::InputRegisterBit, 20, 2, false, std::nullopt}};
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
    m.inputs.push_back({"far", InputKind::DiscreteInput, 3'000, 0, false, std::nullopt});
    m.inputs.push_back({"deal_too", InputKind::DiscreteInput, 4, 0, false, std::nullopt});
    const auto problems = pointMapProblems(m);
    ASSERT_EQ(problems.size(), 4U);
    EXPECT_NE(problems[0].message.find("'green' is used twice"), std::string::npos);
    EXPECT_EQ(problems[0].where, PointProblem::Where::Output);
    EXPECT_EQ(problems[0].index, 5U);
    EXPECT_NE(problems[1].message.find("holding register 10 bit 3 drives another lamp too (status_b)"),
              std::string::npos);
    EXPECT_EQ(problems[1].index, 6U);
    // Two buttons on one input, told against the second button.
    EXPECT_EQ(problems[2].message, "deal_too: discrete input 4 is read by another input too (deal)");
    EXPECT_EQ(problems[2].where, PointProblem::Where::Input);
    EXPECT_EQ(problems[2].index, 4U);
    EXPECT_NE(problems[3].message.find("discrete inputs span 2997"), std::string::npos);
    EXPECT_EQ(problems[3].where, PointProblem::Where::Map);
    // Counter registers: one per input, and not a register whose bits are inputs.
    PointMap counters = sampleMap();
    counters.inputs[0].counter = 40;
    counters.inputs[1].counter = 40;
    ASSERT_EQ(pointMapProblems(counters).size(), 1U);
    EXPECT_EQ(pointMapProblems(counters)[0].message, "void: counter register 40 is another input's counter too (deal)");
    counters.inputs[1].counter = 20;  // "key" reads bit 2 of input register 20
    EXPECT_EQ(pointMapProblems(counters)[0].message, "void: counter register 20 holds the input bits of key");
}

CycleRequest cycleOf(OutputImage image, OutputImage written, bool valid, ReadPlan plan) {
    CycleRequest request;
    request.image = std::move(image);
    request.written = std::move(written);
    request.writtenValid = valid;
    request.plan = plan;
    return request;
}

TEST(IoCycle, AfterAConnectEverythingIsWrittenAndReadBack) {
    MemoryDevice device;
    device.firstInput = true;
    const PointMap m = sampleMap();
    const CycleRequest request = cycleOf(outputImageOf(m, {true, false, true, false, true}), {}, false, readPlanOf(m));
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
    CycleRequest request = cycleOf(outputImageOf(m, {true, false, true, false, true}), {}, false, readPlanOf(m));
    const CycleResult first = runCycle(device, request);
    device.log.clear();
    request = cycleOf(outputImageOf(m, {true, true, true, false, true}), first.written, true, readPlanOf(m));
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
    const CycleRequest request = cycleOf(outputImageOf(m, {true, true, true, true, true}), {}, false, readPlanOf(m));
    ASSERT_TRUE(runCycle(device, request).ok);
    device.failWrites = true;
    const CycleRequest change =
        cycleOf(outputImageOf(m, {false, true, true, true, true}), request.image, true, readPlanOf(m));
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

TEST(IoCycle, AReadBackThatDiffersIsAFaultOfThatOutputNotAnOutage) {
    MemoryDevice device;
    device.stuckOff = true;
    const PointMap m = sampleMap();
    const CycleResult r =
        runCycle(device, cycleOf(outputImageOf(m, {false, true, false, false, false}), {}, false, readPlanOf(m)));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(device.open);
    ASSERT_TRUE(r.readBack.has_value());
    const auto stuck = mismatches(m, r.written, *r.readBack);
    ASSERT_EQ(stuck.size(), 1U);
    EXPECT_EQ(m.outputs[stuck[0].output].name, "green");
    EXPECT_FALSE(stuck[0].holds);
}

TEST(IoCycle, ReadBackOnlyWhenAskedOnceWritten) {
    MemoryDevice device;
    const PointMap m = sampleMap();
    const CycleResult first =
        runCycle(device, cycleOf(outputImageOf(m, {true, false, false, false, true}), {}, false, readPlanOf(m)));
    device.log.clear();
    CycleRequest again = cycleOf(first.written, first.written, true, readPlanOf(m));
    EXPECT_FALSE(runCycle(device, again).readBack.has_value());
    again.readBack = true;
    device.coils[5] = true;  // changed on the module behind pitlink's back
    const CycleResult checked = runCycle(device, again);
    ASSERT_TRUE(checked.readBack.has_value());
    const auto stuck = mismatches(m, checked.written, *checked.readBack);
    ASSERT_EQ(stuck.size(), 1U);
    EXPECT_EQ(m.outputs[stuck[0].output].name, "red");
    EXPECT_TRUE(stuck[0].holds);
}

TEST(IoCycle, OneFailedRequestIsTriedAgainAndIsNotAnOutage) {
    MemoryDevice device;
    const PointMap m = sampleMap();
    const CycleRequest request = cycleOf(outputImageOf(m, {true, true, true, true, true}), {}, false, readPlanOf(m));
    ASSERT_TRUE(runCycle(device, request).ok);
    device.failNextReads = 1;
    const CycleResult r = runCycle(device, cycleOf(request.image, request.image, true, readPlanOf(m)));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.transientErrors, (std::vector<std::string>{"read discrete input 4: exception 6 (busy)"}));
    EXPECT_EQ(r.requests, 3U);  // discrete inputs twice, input registers once
    EXPECT_TRUE(device.open);
    device.failNextReads = 2;  // the retry fails too: now it is a failed cycle
    const CycleResult failed = runCycle(device, cycleOf(request.image, request.image, true, readPlanOf(m)));
    EXPECT_FALSE(failed.ok);
    EXPECT_EQ(failed.error, "read discrete input 4: exception 6 (busy)");
    EXPECT_FALSE(device.open);
}

TEST(IoCycle, SetUpWritesComeAfterEachConnectBeforeTheLamps) {
    MemoryDevice device;
    const PointMap m = sampleMap();
    CycleRequest request = cycleOf(outputImageOf(m, {true, false, false, false, false}), {}, false, readPlanOf(m));
    request.setup = {SetupWrite{false, 4096, {10}}, SetupWrite{false, 4106, {1}}};
    const CycleResult r = runCycle(device, request);
    ASSERT_TRUE(r.ok);
    EXPECT_TRUE(r.setupWritten);
    ASSERT_GE(device.log.size(), 3U);
    EXPECT_EQ(device.log[0], "write registers 4096+1");
    EXPECT_EQ(device.log[1], "write registers 4106+1");
    EXPECT_EQ(device.log[2], "write coils 0+2");
    EXPECT_EQ(device.holding[4096], 10);
    device.log.clear();
    const CycleResult next = runCycle(device, cycleOf(r.written, r.written, true, readPlanOf(m)));
    EXPECT_FALSE(next.setupWritten);
    EXPECT_EQ(std::count(device.log.begin(), device.log.end(), "write registers 4096+1"), 0);
}

TEST(IoCycle, TheModulesIdentityIsReadAfterAConnectWhereAsked) {
    MemoryDevice device;
    // 2B 0E 01 conformity 01, no more, next 0, 3 objects: vendor "ACME", product "IO-8", revision "1.2"
    device.identification = {0x2B, 0x0E, 0x01, 0x01, 0x00, 0x00, 0x03, 0x00, 4, 'A', 'C', 'M',
                             'E',  0x01, 4,    'I',  'O',  '-',  '8',  0x02, 3, '1', '.', '2'};
    const PointMap m = sampleMap();
    CycleRequest request = cycleOf(outputImageOf(m, {}), {}, false, readPlanOf(m));
    request.identify = true;
    const CycleResult r = runCycle(device, request);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.identity,
              (std::map<std::string, std::string>{{"vendor", "ACME"}, {"product_code", "IO-8"}, {"revision", "1.2"}}));
    // Bytes that are not printable ASCII (a Latin-1 name) are shown as \xNN: status stays JSON.
    device.identification = {0x2B, 0x0E, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 3, 0xC9, 'l', '\\'};
    device.close();
    EXPECT_EQ(runCycle(device, request).identity.at("vendor"), "\\xC9l\\x5C");
    device.identification = {0xAB, 0x01};  // an exception: not offered, and not a failure
    device.close();
    const CycleResult without = runCycle(device, request);
    ASSERT_TRUE(without.ok);
    EXPECT_TRUE(without.identity.empty());
    EXPECT_EQ(without.identityError, "read device identification (43/14): exception 1 (function 43/14 not offered)");
}

TEST(IoCycle, ARefusedConnectionSaysSo) {
    MemoryDevice device;
    device.refuseConnect = true;
    const PointMap m = sampleMap();
    const CycleResult r = runCycle(device, cycleOf(outputImageOf(m, {}), {}, false, readPlanOf(m)));
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error, "connect: connection refused");
    EXPECT_EQ(r.requests, 0U);
}

}  // namespace
}  // namespace pitlink::modbus
