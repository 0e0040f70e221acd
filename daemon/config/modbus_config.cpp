#include "daemon/config/modbus_config.h"

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
    map.rejectUnknownKeys();
    c.modbus.points.outputs.push_back(point);
    c.modbus.lamps.push_back(rule);
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
    map.rejectUnknownKeys();
    c.modbus.points.inputs.push_back(point);
    c.modbus.buttons.push_back(button);
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
    readPriority(map, c);
    readList(map, "lamps", c, readLamp);
    readList(map, "buttons", c, readButton);
    if (const auto problems = modbus::pointMapProblems(m.points); !problems.empty()) {
        throw map.error(m.points.outputs.empty() ? "buttons" : "lamps", problems.front());
    }
    if (m.enabled && m.points.outputs.empty() && m.points.inputs.empty()) {
        throw map.error("device", "a device with no lamps and no buttons");
    }
    map.rejectUnknownKeys();
}

}  // namespace pitlink::config
