#include "daemon/config/modbus_config.h"

#include <algorithm>
#include <set>

namespace pitlink::config {

namespace {

using modbus::InputKind;
using modbus::OutputKind;

void readDevice(YamlMap map, Config& c) {
    auto& d = c.modbus.connection;
    const std::string transport = map.string("transport", "tcp");
    if (transport != "tcp" && transport != "rtu") {
        throw map.error("transport", "expected tcp or rtu");
    }
    d.transport = transport == "tcp" ? modbus::Transport::Tcp : modbus::Transport::Rtu;
    if (d.transport == modbus::Transport::Tcp) {
        d.host = map.string("host", d.host);
        d.port = static_cast<std::uint16_t>(map.integer("port", d.port, 1, 65'535));
        d.unitId = static_cast<int>(map.integer("unit_id", d.unitId, 0, 255));
    } else {
        d.device = resolved(c, map.requiredString("serial_port")).string();
        d.baud = static_cast<int>(map.integer("baud", d.baud, 1'200, 230'400));
        const std::string parity = map.string("parity", "none");
        if (parity != "none" && parity != "even" && parity != "odd") {
            throw map.error("parity", "expected none, even or odd");
        }
        d.parity = parity == "none" ? 'N' : parity == "even" ? 'E' : 'O';
        d.dataBits = static_cast<int>(map.integer("data_bits", d.dataBits, 7, 8));
        d.stopBits = static_cast<int>(map.integer("stop_bits", d.stopBits, 1, 2));
        d.unitId = static_cast<int>(map.integer("unit_id", d.unitId, 1, 247));
    }
    d.responseTimeout = std::chrono::milliseconds(map.integer("timeout_ms", d.responseTimeout.count(), 10, 5'000));
    d.byteTimeout = std::chrono::milliseconds(
        map.integer("byte_timeout_ms", std::min(d.byteTimeout, d.responseTimeout).count(), 1, 5'000));
    if (d.byteTimeout > d.responseTimeout) {
        throw map.error("byte_timeout_ms",
                        "must not be above timeout_ms (" + std::to_string(d.responseTimeout.count()) + ")");
    }
    d.retries = static_cast<int>(map.integer("retries", d.retries, 0, 3));
    if (d.transport == modbus::Transport::Rtu) {
        const std::string rs485 = map.string("rs485", "none");
        if (rs485 != "none" && rs485 != "kernel" && rs485 != "rts") {
            throw map.error("rs485", "expected none, kernel (the serial driver switches the transceiver) or rts");
        }
        d.rs485 = rs485 == "none"     ? modbus::Rs485::None
                  : rs485 == "kernel" ? modbus::Rs485::Kernel
                                      : modbus::Rs485::Rts;
        if (map.has("rts") || map.has("rts_delay_us")) {
            if (d.rs485 != modbus::Rs485::Rts) {
                throw map.error(map.has("rts") ? "rts" : "rts_delay_us", "only with rs485: rts");
            }
            const std::string rts = map.string("rts", "high");
            if (rts != "high" && rts != "low") {
                throw map.error("rts", "expected high (RTS up while sending) or low");
            }
            d.rtsActiveHigh = rts == "high";
            d.rtsDelay = std::chrono::microseconds(map.integer("rts_delay_us", 0, 0, 100'000));
        }
        d.frameGap = std::chrono::microseconds(map.integer("frame_gap_us", 0, 0, 1'000'000));
    }
    map.rejectUnknownKeys();
    c.modbus.enabled = true;
}

// `coil: N` or `register: N, bit: B` (outputs); `discrete_input: N` or `input_register: N, bit: B`.
template <typename Kind>
std::pair<Kind, std::uint16_t> readAddress(YamlMap& map, const char* pointKey, const char* registerKey, Kind pointKind,
                                           Kind registerKind, std::uint8_t& bit) {
    const bool single = map.has(pointKey);
    if (single == map.has(registerKey)) {
        throw map.error("", std::string("give either ") + pointKey + " or " + registerKey + " (with bit)");
    }
    if (single) {
        return {pointKind, static_cast<std::uint16_t>(map.integer(pointKey, 0, 0, 65'535))};
    }
    bit = static_cast<std::uint8_t>(map.integer("bit", 0, 0, 15));
    return {registerKind, static_cast<std::uint16_t>(map.integer(registerKey, 0, 0, 65'535))};
}

void readLamp(YamlMap map, Config& c) {
    modbus::OutputPoint point;
    point.name = map.requiredString("name");
    std::tie(point.kind, point.address) =
        readAddress(map, "coil", "register", OutputKind::Coil, OutputKind::HoldingRegisterBit, point.bit);
    modbus::LampRule rule;
    YamlMap when = map.map("when");
    for (const std::string& key : when.keys()) {
        const auto condition = modbus::parseTableCondition(key);
        if (!condition) {
            throw when.error(key,
                             "not a table condition (tilt, handpay, door_open, call_attendant, bets_open, "
                             "last_bets, no_more_bets, dealing, idle)");
        }
        const auto state = modbus::parseLampState(when.string(key, ""));
        if (!state) {
            throw when.error(key, "expected off, on, slow_flash or fast_flash");
        }
        rule[*condition] = *state;
    }
    when.rejectUnknownKeys();
    const std::string safe = map.string("safe", "off");
    if (safe != "off" && safe != "on") {
        throw map.error("safe", "expected off or on (the lamp while pitlinkd is not running the table)");
    }
    map.rejectUnknownKeys();
    c.modbus.points.outputs.push_back(point);
    c.modbus.lamps.push_back(rule);
    c.modbus.safeLit.push_back(safe == "on");
}

void readButton(YamlMap map, Config& c) {
    modbus::InputPoint point;
    point.name = map.requiredString("name");
    std::tie(point.kind, point.address) = readAddress(map, "discrete_input", "input_register", InputKind::DiscreteInput,
                                                      InputKind::InputRegisterBit, point.bit);
    point.activeLow = map.boolean("active_low", false);
    modbus::ButtonSettings button;
    const auto action = modbus::parseButtonAction(map.requiredString("action"));
    if (!action) {
        throw map.error("action", "expected close_bets, new_shoe, void_round, attendant_key or confirm");
    }
    button.action = *action;
    button.needsConfirm = map.boolean("confirm", false);
    if (button.needsConfirm && button.action == modbus::ButtonAction::Confirm) {
        throw map.error("confirm", "the confirm button cannot need confirming");
    }
    if (map.has("counter_register")) {
        point.counter = static_cast<std::uint16_t>(map.integer("counter_register", 0, 0, 65'535));
    }
    button.maxHold = std::chrono::milliseconds(map.integer("max_hold_ms", button.maxHold.count(), 0, 3'600'000));
    if (button.maxHold.count() > 0 && button.maxHold <= c.modbus.debounce + c.modbus.poll) {
        throw map.error("max_hold_ms", "must be above debounce_ms + poll_ms (" +
                                           std::to_string((c.modbus.debounce + c.modbus.poll).count()) +
                                           "), or 0 for never");
    }
    map.rejectUnknownKeys();
    c.modbus.points.inputs.push_back(point);
    c.modbus.buttons.push_back(button);
}

// A switch: a level (door switch, card reader's fault output), not a press.
void readSwitch(YamlMap map, Config& c) {
    modbus::InputPoint point;
    point.name = map.requiredString("name");
    std::tie(point.kind, point.address) = readAddress(map, "discrete_input", "input_register", InputKind::DiscreteInput,
                                                      InputKind::InputRegisterBit, point.bit);
    point.activeLow = map.boolean("active_low", false);
    modbus::SwitchSettings sw;
    const bool door = map.has("door");
    if (door == map.has("reader_fault")) {
        throw map.error("", "give either door: NAME (a door switch) or reader_fault: true");
    }
    if (door) {
        sw.role = modbus::SwitchRole::Door;
        sw.door = map.requiredString("door");
        if (sw.door.empty() || sw.door.size() > 32) {
            throw map.error("door", "a door's name of 1 to 32 characters");
        }
    } else {
        sw.role = modbus::SwitchRole::ReaderFault;
        if (!map.boolean("reader_fault", true)) {
            throw map.error("reader_fault", "leave the switch out rather than set reader_fault: false");
        }
    }
    map.rejectUnknownKeys();
    c.modbus.points.inputs.push_back(point);
    c.modbus.switches.push_back(sw);
}

// `at_connect`: writes made after every connect, before the lamps (a module's watchdog);
// `at_stop`: after the safe image at a clean stop (the watchdog stopped, so the image stays).
void readSetupWrite(YamlMap map, std::vector<modbus::SetupWrite>& writes) {
    modbus::SetupWrite w;
    const bool coil = map.has("coil");
    if (coil == map.has("register")) {
        throw map.error("", "give either coil: N or register: N, with value (or values)");
    }
    w.coils = coil;
    w.address = static_cast<std::uint16_t>(map.integer(coil ? "coil" : "register", 0, 0, 65'535));
    const std::int64_t max = coil ? 1 : 65'535;
    if (map.has("value") == map.has("values")) {
        throw map.error("", "give either value: V or values: [V, ...]");
    }
    if (map.has("value")) {
        w.values.push_back(static_cast<std::uint16_t>(map.integer("value", 0, 0, max)));
    } else {
        const auto list = map.node("values");
        if (!list->IsSequence() || list->size() == 0 || list->size() > 100) {
            throw map.error(*list, "values", "expected a list of 1 to 100 values");
        }
        for (const auto& item : *list) {
            std::int64_t v = -1;
            try {
                v = item.as<std::int64_t>();
            } catch (const YAML::Exception&) {
            }
            if (v < 0 || v > max) {
                throw map.error(item, "values", "each value from 0 to " + std::to_string(max));
            }
            w.values.push_back(static_cast<std::uint16_t>(v));
        }
    }
    if (std::uint32_t{w.address} + w.values.size() > 65'536) {
        throw map.error("values", "run past address 65535");
    }
    map.rejectUnknownKeys();
    writes.push_back(w);
}

void readPriority(YamlMap& map, Config& c) {
    const auto list = map.node("priority");
    if (!list) {
        return;
    }
    if (!list->IsSequence()) {
        throw map.error(*list, "priority", "expected a list of table conditions, highest first");
    }
    std::vector<modbus::TableCondition> order;
    std::set<modbus::TableCondition> seen;
    for (const auto& item : *list) {
        const auto condition = item.IsScalar() ? modbus::parseTableCondition(item.Scalar()) : std::nullopt;
        if (!condition) {
            throw map.error(item, "priority", "not a table condition: " + (item.IsScalar() ? item.Scalar() : "?"));
        }
        if (!seen.insert(*condition).second) {
            throw map.error(item, "priority", item.Scalar() + " is listed twice");
        }
        order.push_back(*condition);
    }
    for (const modbus::TableCondition condition : modbus::defaultPriority()) {
        if (!seen.contains(condition)) {
            order.push_back(condition);  // not listed: ranked last, in the default order
        }
    }
    c.modbus.priority = order;
}

template <typename Read>
void readList(YamlMap& map, const char* key, Config& c, Read read) {
    const auto list = map.node(key);
    if (!list) {
        return;
    }
    if (!list->IsSequence()) {
        throw map.error(*list, key, "expected a list");
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        read(YamlMap((*list)[i], map.keyPath(key) + "[" + std::to_string(i) + "]", map.file()), c);
    }
}

}  // namespace

void readModbus(YamlMap map, Config& c) {
    auto& m = c.modbus;
    if (map.has("device")) {
        readDevice(map.map("device"), c);
    }
    m.poll = std::chrono::milliseconds(map.integer("poll_ms", m.poll.count(), 10, 1'000));
    m.debounce = std::chrono::milliseconds(map.integer("debounce_ms", m.debounce.count(), 0, 1'000));
    m.reconnectMin = std::chrono::milliseconds(map.integer("reconnect_min_ms", m.reconnectMin.count(), 10, 60'000));
    m.reconnectMax = std::chrono::milliseconds(map.integer("reconnect_max_ms", m.reconnectMax.count(), 10, 60'000));
    if (m.reconnectMax < m.reconnectMin) {
        throw map.error("reconnect_max_ms", "must not be below reconnect_min_ms");
    }
    m.offlineTilt = std::chrono::milliseconds(map.integer("offline_tilt_ms", m.offlineTilt.count(), 0, 600'000));
    m.confirmWindow = std::chrono::milliseconds(map.integer("confirm_window_ms", m.confirmWindow.count(), 500, 60'000));
    m.flash.slowHalfPeriod =
        std::chrono::milliseconds(map.integer("slow_flash_ms", m.flash.slowHalfPeriod.count(), 50, 5'000));
    m.flash.fastHalfPeriod =
        std::chrono::milliseconds(map.integer("fast_flash_ms", m.flash.fastHalfPeriod.count(), 20, 5'000));
    for (const auto& [key, half] :
         {std::pair{"slow_flash_ms", m.flash.slowHalfPeriod}, std::pair{"fast_flash_ms", m.flash.fastHalfPeriod}}) {
        if (half < m.poll) {
            throw map.error(key, "a half period of " + std::to_string(half.count()) + " ms is shorter than poll_ms (" +
                                     std::to_string(m.poll.count()) + "): the lamps are written once a poll");
        }
    }
    m.readBack = std::chrono::milliseconds(map.integer("read_back_ms", m.readBack.count(), 0, 600'000));
    if (m.readBack.count() > 0 && m.readBack < m.poll) {
        throw map.error("read_back_ms",
                        "below poll_ms (" + std::to_string(m.poll.count()) + "), or 0 for after a connect only");
    }
    m.identify = map.boolean("identify", m.identify);
    readPriority(map, c);
    readList(map, "lamps", c, readLamp);
    readList(map, "buttons", c, readButton);
    const std::size_t buttons = m.points.inputs.size();
    readList(map, "switches", c, readSwitch);
    readList(map, "at_connect", c, [](YamlMap item, Config& config) { readSetupWrite(item, config.modbus.atConnect); });
    readList(map, "at_stop", c, [](YamlMap item, Config& config) { readSetupWrite(item, config.modbus.atStop); });
    m.watchdog = std::chrono::milliseconds(map.integer("watchdog_ms", 0, 0, 600'000));
    if (m.watchdog.count() > 0) {
        if (m.atConnect.empty()) {
            throw map.error("watchdog_ms", "a watchdog is armed by at_connect writes: there are none");
        }
        // Polls keep the watchdog fed: it must outlast a poll period and a cycle's every try.
        const auto tries = m.connection.retries + 1;
        const auto needed = 2 * m.poll + tries * m.connection.responseTimeout;
        if (m.watchdog < needed) {
            throw map.error("watchdog_ms", "below " + std::to_string(needed.count()) +
                                               " ms (two polls and every try of a request): the module would drop "
                                               "its lamps while pitlinkd runs");
        }
    }
    for (const modbus::PointProblem& problem : modbus::pointMapProblems(m.points)) {
        using Where = modbus::PointProblem::Where;
        const bool isSwitch = problem.where == Where::Input && problem.index >= buttons;
        const std::string list = problem.where == Where::Output ? "lamps" : isSwitch ? "switches" : "buttons";
        if (problem.where == Where::Map) {
            throw map.error(m.points.inputs.empty() ? "lamps" : "buttons", problem.message);
        }
        const std::size_t index = isSwitch ? problem.index - buttons : problem.index;
        throw map.error(list + "[" + std::to_string(index) + "]", problem.message);
    }
    // An open door is a tilt too: a lamp that names both shows door_open only if it ranks higher.
    const auto rank = [&](modbus::TableCondition condition) {
        return std::find(m.priority.begin(), m.priority.end(), condition) - m.priority.begin();
    };
    for (std::size_t i = 0; i < m.lamps.size(); ++i) {
        const modbus::LampRule& rule = m.lamps[i];
        if (rule.contains(modbus::TableCondition::DoorOpen) && rule.contains(modbus::TableCondition::Tilt) &&
            rank(modbus::TableCondition::Tilt) < rank(modbus::TableCondition::DoorOpen)) {
            throw map.error("lamps[" + std::to_string(i) + "].when.door_open",
                            "can never show: an open door tilts the table, and tilt ranks above door_open (list "
                            "door_open before tilt in priority, or leave tilt out of this lamp)");
        }
    }
    const bool hasConfirm = std::any_of(m.buttons.begin(), m.buttons.end(),
                                        [](const auto& b) { return b.action == modbus::ButtonAction::Confirm; });
    for (std::size_t i = 0; i < m.buttons.size(); ++i) {
        if (m.buttons[i].needsConfirm && !hasConfirm) {
            throw map.error("buttons[" + std::to_string(i) + "].confirm",
                            "needs a button with action: confirm, and there is none");
        }
    }
    if (m.enabled && m.points.outputs.empty() && m.points.inputs.empty()) {
        throw map.error("device", "a device with no lamps, buttons or switches");
    }
    map.rejectUnknownKeys();
}

}  // namespace pitlink::config
