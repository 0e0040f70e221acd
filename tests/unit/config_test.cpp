#include "daemon/config/config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "daemon/config/config_error.h"
#include "daemon/config/paytable_loader.h"
#include "tests/unit/fixtures.h"

namespace pitlink::config {
namespace {

Config load(const std::string& text) {
    return test::loadConfigText(text);
}
ConfigError errorOf(const std::string& text) {
    return test::configTextError(text);
}

TEST(Config, ShippedDefaultConfigurationLoadsAndItsPaytableToo) {
    const Config c = loadConfigFile(test::sourceDir() / "etc" / "pitlink.yaml");
    EXPECT_EQ(c.table.shoe.decks, 8);
    EXPECT_EQ(c.table.shoe.cutCardFromEnd, 14);
    EXPECT_EQ(c.rounds.betsOpen, std::chrono::seconds(20));
    EXPECT_EQ(c.rounds.lastBets, std::chrono::seconds(5));
    EXPECT_TRUE(c.bets.forbidPlayerAndBanker);
    EXPECT_FALSE(c.bets.tieNeedsMainBet);
    EXPECT_EQ(c.bets.bigSmallLastRound, 31);
    EXPECT_EQ(loadPaytableFile(c.table.paytableFile).id, "standard");
}

TEST(Config, EmptyDocumentGivesTheDefaults) {
    const Config c = load("");
    EXPECT_EQ(c.table.shoe.decks, 8);
    EXPECT_EQ(c.bets.limits.levels.size(), 1U);
    EXPECT_EQ(c.bets.limits.levels.front().main, (game::StakeRange{100, 500'000}));
    EXPECT_EQ(c.log.level, "info");
}

// Issue 20's station settings: the round's start, confirmation, reservations, the reader, roads.
TEST(Config, StationFunctionSettingsAndTheirMistakes) {
    const Config shipped = loadConfigFile(test::sourceDir() / "etc" / "pitlink.yaml");
    EXPECT_FALSE(shipped.rounds.startOnDeal);
    EXPECT_FALSE(shipped.rounds.confirmBets);
    EXPECT_EQ(shipped.table.reserveTimeout, std::chrono::minutes(10));
    EXPECT_EQ(shipped.table.readerTimeout, std::chrono::seconds(60));
    EXPECT_TRUE(shipped.table.naturalsOnBigRoad);
    const Config c = load(
        "table:\n  reserve_minutes: 3\n  reader_timeout_ms: 0\n  naturals_on_big_road: false\n"
        "rounds:\n  start: deal\n");
    EXPECT_EQ(c.table.reserveTimeout, std::chrono::minutes(3));
    EXPECT_EQ(c.table.readerTimeout.count(), 0);
    EXPECT_FALSE(c.table.naturalsOnBigRoad);
    EXPECT_TRUE(c.rounds.startOnDeal);
    EXPECT_TRUE(load("rounds:\n  confirm_bets: true\n").rounds.confirmBets);
    EXPECT_EQ(errorOf("table:\n  source: reader\nrounds:\n  start: deal\n").key(), "rounds.start");
    EXPECT_EQ(errorOf("rounds:\n  start: button\n").key(), "rounds.start");
    EXPECT_EQ(errorOf("rounds:\n  start: deal\n  confirm_bets: true\n").key(), "rounds.confirm_bets");
    EXPECT_EQ(errorOf("table:\n  reserve_minutes: 0\n").key(), "table.reserve_minutes");
    EXPECT_EQ(errorOf("table:\n  reader_timeout_ms: -1\n").key(), "table.reader_timeout_ms");
}

// Seed 002's seven tables, a side bet's own range at every level and one level's own.
TEST(Config, LimitLevelsAndSpotRanges) {
    const Config c = load(
        "bets:\n  levels:\n    - {min: 200, max: 4100}\n    - {min: 500, max: 10200, spots: {tie: {min: 100, max: "
        "900}}}\n"
        "  spots:\n    tie: {min: 100, max: 500}\n");
    ASSERT_EQ(c.bets.limits.levels.size(), 2U);
    EXPECT_EQ(game::spotRange(c.bets.limits, 1, game::BetType::Banker), (game::StakeRange{200, 4100}));
    EXPECT_EQ(game::spotRange(c.bets.limits, 1, game::BetType::Tie), (game::StakeRange{100, 500}));
    EXPECT_EQ(game::spotRange(c.bets.limits, 2, game::BetType::Tie), (game::StakeRange{100, 900}));
    EXPECT_EQ(game::spotRange(c.bets.limits, 2, game::BetType::PlayerPair), (game::StakeRange{500, 10200}));
    const auto refusal = [](const std::string& text) {
        try {
            (void)load(text);
        } catch (const ConfigError& error) {
            return std::string(error.what());
        }
        return std::string();
    };
    EXPECT_THAT(refusal("bets:\n  min: 5\n  levels:\n    - {min: 1, max: 2}\n"),
                ::testing::HasSubstr("'bets.levels': give either"));
    EXPECT_THAT(refusal("bets:\n  levels:\n    - {min: 300, max: 200}\n"), ::testing::HasSubstr("bets.levels[0].max"));
    EXPECT_THAT(refusal("bets:\n  levels:\n    - {min: 300}\n"),
                ::testing::HasSubstr("'bets.levels[0].max': a range needs both"));
    EXPECT_THAT(refusal("bets:\n  spots:\n    tye: {min: 1, max: 2}\n"),
                ::testing::HasSubstr("'bets.spots.tye': not a bet spot"));
    EXPECT_THAT(refusal("bets:\n  levels: []\n"), ::testing::HasSubstr("bets.levels"));
}

TEST(Config, RelativePaytablePathResolvesAgainstTheConfigFile) {
    EXPECT_EQ(load("table:\n  paytable: paytables/ruyi.yaml\n").table.paytableFile,
              std::filesystem::path("/etc/pitlink/paytables/ruyi.yaml"));
}

TEST(Config, JournalKeysHaveDefaultsResolveRelativePathsAndAreChecked) {
    const Config defaults = load("");
    EXPECT_EQ(defaults.journal.path, std::filesystem::path("/var/lib/pitlink/journal.db"));
    EXPECT_TRUE(defaults.journal.keyFile.empty());
    EXPECT_EQ(defaults.journal.snapshotEvery, 2000);
    EXPECT_FALSE(defaults.journal.fullChainCheckAtStart);
    const Config c = load(
        "journal:\n  path: data/j.db\n  key_file: keys/j.key\n  snapshot_every: 500\n"
        "  full_chain_check_at_start: true\n");
    EXPECT_EQ(c.journal.path, std::filesystem::path("/etc/pitlink/data/j.db"));
    EXPECT_EQ(c.journal.keyFile, std::filesystem::path("/etc/pitlink/keys/j.key"));
    EXPECT_EQ(c.journal.snapshotEvery, 500);
    EXPECT_TRUE(c.journal.fullChainCheckAtStart);
    EXPECT_EQ(errorOf("journal:\n  snapshot_every: 10\n").key(), "journal.snapshot_every");
    EXPECT_EQ(errorOf("journal:\n  path: \"\"\n").key(), "journal.path");
    EXPECT_EQ(errorOf("journal:\n  sync: off\n").key(), "journal.sync");
}

TEST(Config, OutOfRangeValueNamesFileLineColumnKeyAndRange) {
    const ConfigError e = errorOf("table:\n  decks: 9\n");
    EXPECT_EQ(e.file(), "/etc/pitlink/pitlink.yaml");
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 10);
    EXPECT_EQ(e.key(), "table.decks");
    EXPECT_NE(std::string(e.what()).find("expected an integer from 1 to 8"), std::string::npos) << e.what();
}

TEST(Config, UnusableCutCardIsRefused) {
    const ConfigError e = errorOf("table:\n  decks: 1\n  cut_card_from_end: 40\n");
    EXPECT_EQ(e.key(), "table.cut_card_from_end");
    EXPECT_EQ(e.line(), 3);
}

TEST(Config, WrongTypesAndUnknownKeysAreRefused) {
    EXPECT_EQ(errorOf("bets:\n  anti_doubling: maybe\n").key(), "bets.anti_doubling");
    EXPECT_EQ(errorOf("bets:\n  min: ten\n").key(), "bets.min");
    EXPECT_EQ(errorOf("bets:\n  min: 500\n  max: 100\n").key(), "bets.max");
    EXPECT_EQ(errorOf("table:\n  deks: 8\n").key(), "table.deks");
    EXPECT_EQ(errorOf("tabel:\n  decks: 8\n").key(), "tabel");
    EXPECT_EQ(errorOf("log:\n  level: loud\n").key(), "log.level");
    EXPECT_EQ(errorOf("table: 8\n").key(), "table");
}

TEST(Config, TheLogicThreadsSchedulingDefaultsToRealTimeAndIsChecked) {
    const Config defaults = load("");
    EXPECT_EQ(defaults.scheduling.policy, platform::SchedulingPolicy::Fifo);
    EXPECT_EQ(defaults.scheduling.priority, 40);
    EXPECT_TRUE(defaults.scheduling.lockMemory);
    const Config rr = load("scheduling:\n  policy: rr\n  priority: 10\n  lock_memory: false\n");
    EXPECT_EQ(rr.scheduling.policy, platform::SchedulingPolicy::RoundRobin);
    EXPECT_EQ(rr.scheduling.priority, 10);
    EXPECT_FALSE(rr.scheduling.lockMemory);
    EXPECT_EQ(load("scheduling:\n  policy: other\n").scheduling.policy, platform::SchedulingPolicy::Other);
    EXPECT_EQ(errorOf("scheduling:\n  policy: idle\n").key(), "scheduling.policy");
    EXPECT_EQ(errorOf("scheduling:\n  priority: 100\n").key(), "scheduling.priority");
    EXPECT_EQ(errorOf("scheduling:\n  nice: 5\n").key(), "scheduling.nice");
}

TEST(Config, NoModbusDeviceMeansNoModbus) {
    EXPECT_FALSE(load("").modbus.enabled);
    EXPECT_FALSE(loadConfigFile(test::sourceDir() / "etc" / "pitlink.yaml").modbus.enabled);
}

TEST(Config, ModbusPointMapLampRulesAndButtonsAreRead) {
    const Config c = load(
        "modbus:\n  device: {transport: rtu, serial_port: tty/io, baud: 9600, parity: even, unit_id: 7,\n"
        "           timeout_ms: 300, byte_timeout_ms: 20, retries: 2, rs485: rts, rts: low, rts_delay_us: 500,\n"
        "           frame_gap_us: 2000}\n"
        "  poll_ms: 40\n  priority: [call_attendant, tilt]\n  read_back_ms: 2000\n  identify: false\n"
        "  at_connect:\n    - {register: 4096, value: 20}\n    - {coil: 260, values: [1, 0]}\n"
        "  watchdog_ms: 2000\n"
        "  lamps:\n    - {name: candle, coil: 3, safe: on, when: {tilt: fast_flash, call_attendant: slow_flash}}\n"
        "    - {name: green, register: 100, bit: 15, when: {bets_open: on}}\n"
        "  buttons:\n    - {name: deal, discrete_input: 8, action: close_bets, counter_register: 40}\n"
        "    - {name: void, input_register: 2, bit: 1, active_low: true, action: void_round, confirm: true}\n"
        "    - {name: ok, discrete_input: 9, action: confirm, max_hold_ms: 0}\n"
        "  switches:\n    - {name: cash_door, discrete_input: 10, active_low: true, door: cash_box}\n"
        "    - {name: reader, discrete_input: 11, reader_fault: true}\n");
    const auto& m = c.modbus;
    ASSERT_TRUE(m.enabled);
    EXPECT_EQ(m.modules[0].connection.transport, modbus::Transport::Rtu);
    EXPECT_EQ(m.modules[0].connection.device, "/etc/pitlink/tty/io");  // relative to the file
    EXPECT_EQ(m.modules[0].connection.baud, 9600);
    EXPECT_EQ(m.modules[0].connection.parity, 'E');
    EXPECT_EQ(m.modules[0].connection.unitId, 7);
    EXPECT_EQ(m.modules[0].connection.byteTimeout, std::chrono::milliseconds(20));
    EXPECT_EQ(m.modules[0].connection.retries, 2);
    EXPECT_EQ(m.modules[0].connection.rs485, modbus::Rs485::Rts);
    EXPECT_FALSE(m.modules[0].connection.rtsActiveHigh);
    EXPECT_EQ(m.modules[0].connection.rtsDelay, std::chrono::microseconds(500));
    EXPECT_EQ(m.modules[0].connection.frameGap, std::chrono::microseconds(2000));
    EXPECT_EQ(m.readBack, std::chrono::milliseconds(2000));
    EXPECT_FALSE(m.modules[0].identify);
    EXPECT_EQ(m.modules[0].atConnect, (std::vector<modbus::SetupWrite>{{false, 4096, {20}}, {true, 260, {1, 0}}}));
    EXPECT_EQ(m.modules[0].watchdog, std::chrono::milliseconds(2000));
    EXPECT_EQ(m.safeLit, (std::vector<bool>{true, false}));
    EXPECT_EQ(m.points.inputs[0].counter, std::optional<std::uint16_t>(40));
    EXPECT_EQ(m.buttons[2].maxHold, std::chrono::milliseconds(0));
    ASSERT_EQ(m.points.inputs.size(), 5U);  // the buttons, then the switches
    EXPECT_TRUE(m.points.inputs[3].activeLow);
    EXPECT_EQ(m.switches, (std::vector<modbus::SwitchSettings>{{"cash_box", modbus::SwitchRole::Door},
                                                               {"", modbus::SwitchRole::ReaderFault}}));
    EXPECT_EQ(m.poll, std::chrono::milliseconds(40));
    ASSERT_EQ(m.points.outputs.size(), 2U);
    EXPECT_EQ(m.points.outputs[1], (modbus::OutputPoint{"green", modbus::OutputKind::HoldingRegisterBit, 100, 15}));
    EXPECT_EQ(m.lamps[0].at(modbus::TableCondition::CallAttendant), modbus::LampState::SlowFlash);
    EXPECT_EQ(m.lamps[0].size(), 2U);
    EXPECT_EQ(m.points.inputs[1],
              (modbus::InputPoint{"void", modbus::InputKind::InputRegisterBit, 2, 1, true, std::nullopt}));
    EXPECT_EQ(m.buttons[1],
              (modbus::ButtonSettings{modbus::ButtonAction::VoidRound, true, std::chrono::milliseconds(10000)}));
    // Listed first as given, the rest after in the default order.
    ASSERT_EQ(m.priority.size(), modbus::kConditionCount);
    EXPECT_EQ(m.priority[0], modbus::TableCondition::CallAttendant);
    EXPECT_EQ(m.priority[1], modbus::TableCondition::Tilt);
    EXPECT_EQ(m.priority[2], modbus::TableCondition::Handpay);
}

TEST(Config, ModbusMistakesAreNamed) {
    const std::string device = "modbus:\n  device: {transport: tcp, port: 502}\n";
    EXPECT_EQ(errorOf("modbus:\n  device: {transport: udp}\n").key(), "modbus.device.transport");
    EXPECT_EQ(errorOf("modbus:\n  device: {transport: rtu}\n").key(), "modbus.device.serial_port");
    EXPECT_EQ(errorOf(device + "  lamps:\n    - {name: a, coil: 1, register: 2}\n").key(), "modbus.lamps[0]");
    EXPECT_EQ(errorOf(device + "  lamps:\n    - {name: a, coil: 1, when: {tilted: on}}\n").key(),
              "modbus.lamps[0].when.tilted");
    EXPECT_EQ(errorOf(device + "  lamps:\n    - {name: a, coil: 1, when: {tilt: blink}}\n").key(),
              "modbus.lamps[0].when.tilt");
    EXPECT_EQ(errorOf(device + "  lamps:\n    - {name: a, register: 1, bit: 16}\n").key(), "modbus.lamps[0].bit");
    EXPECT_EQ(errorOf(device + "  buttons:\n    - {name: b, discrete_input: 0, action: fly}\n").key(),
              "modbus.buttons[0].action");
    EXPECT_EQ(
        errorOf(device + "  buttons:\n    - {name: b, discrete_input: 0, action: confirm, confirm: true}\n").key(),
        "modbus.buttons[0].confirm");
    EXPECT_EQ(errorOf(device + "  priority: [tilt, tilt]\n").key(), "modbus.priority");
    EXPECT_EQ(errorOf(device).key(), "modbus.device");  // no lamps and no buttons
    const ConfigError twice = errorOf(device + "  lamps:\n    - {name: a, coil: 1}\n    - {name: b, coil: 1}\n");
    EXPECT_EQ(twice.key(), "modbus.lamps[1]");
    EXPECT_NE(std::string(twice.what()).find("b: coil 1 drives another lamp too"), std::string::npos) << twice.what();
    EXPECT_EQ(errorOf(device + "  lamps: []\n  reconnect_min_ms: 500\n  reconnect_max_ms: 100\n").key(),
              "modbus.reconnect_max_ms");
}

// Issue 21: the README's example is a configuration pitlinkd takes, and each entry of each lamp's
// rule can show: some set of active conditions (an open door comes with its tilt) lights it so.
TEST(Config, TheModbusReadmeExampleLoadsAndEveryLampEntryCanShow) {
    std::ifstream readme(test::sourceDir() / "protocols" / "modbus" / "README.md");
    std::stringstream text;
    text << readme.rdbuf();
    const std::string all = text.str();
    const std::size_t start = all.find("```yaml\nmodbus:\n  device:");
    ASSERT_NE(start, std::string::npos);
    const std::size_t from = start + std::string("```yaml\n").size();
    const std::string example = all.substr(from, all.find("```", from) - from);
    const Config c = load(example);
    const auto& m = c.modbus;
    ASSERT_EQ(m.lamps.size(), 5U);
    EXPECT_EQ(m.switches.size(), 2U);
    EXPECT_EQ(m.modules[0].watchdog, std::chrono::milliseconds(1000));
    for (std::size_t i = 0; i < m.lamps.size(); ++i) {
        for (const auto& [condition, state] : m.lamps[i]) {
            modbus::TableConditions active{};
            active.at(static_cast<std::size_t>(condition)) = true;
            if (condition == modbus::TableCondition::DoorOpen) {
                active.at(static_cast<std::size_t>(modbus::TableCondition::Tilt)) = true;
            }
            EXPECT_EQ(modbus::lampStateFor(m.lamps[i], m.priority, active), state)
                << m.points.outputs[i].name << ": " << modbus::tableConditionName(condition) << " can never show";
        }
    }
}

// Issue 21: several modules, TCP and RTU, two units on one RS-485 bus.
TEST(Config, SeveralModulesAndTheirPointsAreRead) {
    const Config c = load(
        "modbus:\n  modules:\n"
        "    - {name: tower, device: {transport: tcp, host: 10.0.0.5, port: 502}, watchdog_ms: 1000,\n"
        "       at_connect: [{register: 4096, value: 10}]}\n"
        "    - {name: left, device: {transport: rtu, serial_port: /dev/ttyS1, unit_id: 2, rs485: rts}}\n"
        "    - {name: right, device: {transport: rtu, serial_port: /dev/ttyS1, unit_id: 3, rs485: rts}}\n"
        "  lamps:\n    - {name: candle, module: tower, coil: 0, when: {tilt: on}}\n"
        "  buttons:\n    - {name: deal, module: left, discrete_input: 0, action: close_bets}\n"
        "    - {name: deal2, module: right, discrete_input: 0, action: close_bets}\n");
    const auto& m = c.modbus;
    ASSERT_EQ(m.modules.size(), 3U);
    EXPECT_EQ(m.modules[0].name, "tower");
    EXPECT_EQ(m.modules[0].watchdog, std::chrono::milliseconds(1000));
    EXPECT_EQ(m.modules[2].connection.unitId, 3);
    EXPECT_EQ(m.outputModule, (std::vector<std::size_t>{0}));
    EXPECT_EQ(m.inputModule, (std::vector<std::size_t>{1, 2}));
    EXPECT_EQ(modbus::pointsOf(m, 2).map.inputs.at(0).name, "deal2");  // the same input number, another unit
}

TEST(Config, ModulesThatCannotWorkTogetherAreRefused) {
    const auto key = [](const std::string& text) { return errorOf(text).key(); };
    const std::string lamp = "  lamps:\n    - {name: a, module: x, coil: 1}\n";
    const std::string x = "    - {name: x, device: {transport: tcp, port: 502}}\n";
    EXPECT_EQ(key("modbus:\n  device: {transport: tcp}\n  modules:\n" + x + lamp), "modbus.modules");
    EXPECT_EQ(key("modbus:\n  modules:\n" + x + "    - {name: x, device: {transport: tcp, port: 503}}\n" + lamp),
              "modbus.modules[1].name");
    EXPECT_EQ(key("modbus:\n  modules:\n" + x + "    - {name: y, device: {transport: tcp, port: 502}}\n" + lamp),
              "modbus.modules[1].device");  // the same module twice
    EXPECT_EQ(key("modbus:\n  modules:\n" + x +
                  "    - {name: y, device: {transport: tcp, port: 503}}\n"
                  "  lamps:\n    - {name: a, coil: 1}\n"),
              "modbus.lamps[0].module");  // which one?
    EXPECT_EQ(key("modbus:\n  modules:\n" + x + "  lamps:\n    - {name: a, module: z, coil: 1}\n"),
              "modbus.lamps[0].module");
    EXPECT_EQ(key("modbus:\n  modules:\n    - {name: x}\n" + lamp), "modbus.modules[0].device");
    EXPECT_EQ(key("modbus:\n  modules:\n"
                  "    - {name: x, device: {transport: rtu, serial_port: /dev/ttyS1, unit_id: 2, baud: 9600}}\n"
                  "    - {name: y, device: {transport: rtu, serial_port: /dev/ttyS1, unit_id: 3}}\n" +
                  lamp),
              "modbus.modules[1].device");  // one bus, two framings
    // Two lamps on coil 1 of different modules are fine; on the same module not.
    EXPECT_EQ(load("modbus:\n  modules:\n" + x +
                   "    - {name: y, device: {transport: tcp, port: 503}}\n"
                   "  lamps:\n    - {name: a, module: x, coil: 1}\n    - {name: b, module: y, coil: 1}\n")
                  .modbus.points.outputs.size(),
              2U);
    EXPECT_EQ(key("modbus:\n  modules:\n" + x +
                  "  lamps:\n    - {name: a, module: x, coil: 1}\n"
                  "    - {name: b, module: x, coil: 1}\n"),
              "modbus.lamps[1]");
    // On a shared RS-485 bus the watchdog must also outlast the other unit's cycle and each
    // retry's recovery: 2 * 50 + (2 tries + 1 recovery) * 200, for it and for the other = 1300 ms.
    const auto onBus = [&](int watchdogMs) {
        return "modbus:\n  modules:\n"
               "    - {name: x, device: {transport: rtu, serial_port: /dev/ttyS1, unit_id: 2}, "
               "at_connect: [{register: 1, value: 1}], watchdog_ms: " +
               std::to_string(watchdogMs) +
               "}\n"
               "    - {name: y, device: {transport: rtu, serial_port: /dev/ttyS1, unit_id: 3}}\n" +
               lamp;
    };
    EXPECT_EQ(key(onBus(1299)), "modbus.modules[0].watchdog_ms");
    EXPECT_EQ(load(onBus(1300)).modbus.modules[0].watchdog, std::chrono::milliseconds(1300));
}

// Issue 21: what cannot work is refused, each mistake named by its own key.
TEST(Config, ModbusSetUpsThatCannotWorkAreRefused) {
    const std::string device = "modbus:\n  device: {transport: tcp, port: 502}\n";
    const std::string lamp = "  lamps:\n    - {name: a, coil: 1}\n";
    const auto key = [&](const std::string& text) { return errorOf(device + text).key(); };
    EXPECT_EQ(key("  poll_ms: 100\n  fast_flash_ms: 60\n" + lamp), "modbus.fast_flash_ms");
    EXPECT_EQ(key("  poll_ms: 600\n" + lamp), "modbus.slow_flash_ms");  // the default 500 ms
    EXPECT_EQ(key("  buttons:\n    - {name: v, discrete_input: 0, action: void_round, confirm: true}\n"),
              "modbus.buttons[0].confirm");
    EXPECT_EQ(key("  buttons:\n    - {name: d, discrete_input: 3, action: close_bets}\n"
                  "    - {name: v, discrete_input: 3, action: new_shoe}\n"),
              "modbus.buttons[1]");
    EXPECT_EQ(key("  buttons:\n    - {name: d, discrete_input: 3, action: close_bets}\n"
                  "  switches:\n    - {name: s, discrete_input: 3, door: main}\n"),
              "modbus.switches[0]");
    EXPECT_EQ(key("  switches:\n    - {name: s, discrete_input: 3, door: main, reader_fault: true}\n"),
              "modbus.switches[0]");
    EXPECT_EQ(key("  buttons:\n    - {name: d, discrete_input: 3, action: close_bets, max_hold_ms: 40}\n"),
              "modbus.buttons[0].max_hold_ms");
    EXPECT_EQ(key("  lamps:\n    - {name: a, coil: 1, safe: blink}\n"), "modbus.lamps[0].safe");
    EXPECT_EQ(errorOf("modbus:\n  device: {transport: tcp, timeout_ms: 100, byte_timeout_ms: 200}\n" + lamp).key(),
              "modbus.device.byte_timeout_ms");
    EXPECT_EQ(errorOf("modbus:\n  device: {transport: tcp, rs485: rts}\n" + lamp).key(), "modbus.device.rs485");
    EXPECT_EQ(errorOf("modbus:\n  device: {transport: rtu, serial_port: /dev/ttyS1, rts: high}\n" + lamp).key(),
              "modbus.device.rts");
    EXPECT_EQ(key("  watchdog_ms: 1000\n" + lamp), "modbus.watchdog_ms");  // no at_connect writes arm it
    // Two 50 ms polls and two tries of 200 ms: 500 ms at least.
    EXPECT_EQ(key("  at_connect:\n    - {register: 4096, value: 4}\n  watchdog_ms: 400\n" + lamp),
              "modbus.watchdog_ms");
    EXPECT_EQ(load(device + "  at_connect:\n    - {register: 4096, value: 5}\n  watchdog_ms: 500\n" + lamp)
                  .modbus.modules[0]
                  .watchdog,
              std::chrono::milliseconds(500));
    EXPECT_EQ(key("  at_connect:\n    - {register: 4096}\n" + lamp), "modbus.at_connect[0]");
    EXPECT_EQ(key("  at_stop:\n    - {register: 4104, values: []}\n" + lamp), "modbus.at_stop[0].values");
    // An open door tilts the table: a lamp naming both shows door_open only if it ranks higher.
    const std::string candle = "  lamps:\n    - {name: c, coil: 0, when: {tilt: fast_flash, door_open: on}}\n";
    EXPECT_EQ(key(candle), "modbus.lamps[0].when.door_open");
    EXPECT_EQ(load(device + "  priority: [door_open, tilt]\n" + candle).modbus.lamps.size(), 1U);
    EXPECT_EQ(key("  at_connect:\n    - {coil: 4, value: 2}\n" + lamp), "modbus.at_connect[0].value");
}

// Found by fuzz_config (tests/fuzz/corpus/config/regression-sas-link-without-station.yaml): a SAS
// link that names no station was taken as station 0, outside the table.
TEST(Config, ASasLinkWithoutItsStationIsRefused) {
    const std::string sas =
        "table: {stations: 4}\nsas:\n  stations:\n    - {station: 1, address: 1, port: /dev/ttyS1}\n";
    EXPECT_EQ(load(sas).sas.links.size(), 1U);
    EXPECT_EQ(errorOf(sas + "    - {port: /dev/ttyS2}\n").key(), "sas.stations[1].station");
    EXPECT_EQ(errorOf(sas + "    - {station: 5, port: /dev/ttyS2}\n").key(), "sas.stations[1].station");
}

TEST(Config, LegacyBonusingIsOffUnlessTurnedOn) {
    EXPECT_FALSE(load("").sas.legacyBonus);
    EXPECT_FALSE(loadConfigFile(test::sourceDir() / "etc" / "pitlink.yaml").sas.legacyBonus);
    EXPECT_TRUE(load("sas:\n  legacy_bonus: true\n").sas.legacyBonus);
    EXPECT_EQ(errorOf("sas:\n  legacy_bonus: 1\n").key(), "sas.legacy_bonus");
}

}  // namespace
}  // namespace pitlink::config
