#include "daemon/config/modbus_config.h"

#include <algorithm>
#include <set>

#include "daemon/config/modbus_module_config.h"

namespace pitlink::config {

namespace {

using modbus::InputKind;
using modbus::OutputKind;

// The game a point names with `game:` (a controller of several games; absent: the first).
std::size_t gameNamed(YamlMap& point, const Config& c) {
    if (!point.has("game")) {
        return 0;
    }
    const std::string name = point.requiredString("game");
    std::string names;
    for (std::size_t i = 0; i < c.games.size(); ++i) {
        if (c.games[i].name == name) {
            return i;
        }
        names += (names.empty() ? "" : ", ") + c.games[i].name;
    }
    throw point.error("game", "no game is named '" + name + "' (the games: " + names + ")");
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
    c.modbus.outputModule.push_back(moduleNamed(map, c));
    c.modbus.outputGame.push_back(gameNamed(map, c));
    map.rejectUnknownKeys();
    c.modbus.points.outputs.push_back(point);
    c.modbus.lamps.push_back(rule);
    c.modbus.safeLit.push_back(safe == "on");
}

// An input's name and point (`discrete_input: N` or `input_register: N, bit: B`), `active_low`.
modbus::InputPoint readInputPoint(YamlMap& map) {
    modbus::InputPoint point;
    point.name = map.requiredString("name");
    std::tie(point.kind, point.address) = readAddress(map, "discrete_input", "input_register", InputKind::DiscreteInput,
                                                      InputKind::InputRegisterBit, point.bit);
    point.activeLow = map.boolean("active_low", false);
    return point;
}

void readButton(YamlMap map, Config& c) {
    modbus::InputPoint point = readInputPoint(map);
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
    c.modbus.inputModule.push_back(moduleNamed(map, c));
    c.modbus.inputGame.push_back(gameNamed(map, c));
    map.rejectUnknownKeys();
    c.modbus.points.inputs.push_back(point);
    c.modbus.buttons.push_back(button);
}

// A switch: a level (door switch, card reader's fault output), not a press.
void readSwitch(YamlMap map, Config& c) {
    modbus::InputPoint point = readInputPoint(map);
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
    c.modbus.inputModule.push_back(moduleNamed(map, c));
    c.modbus.inputGame.push_back(gameNamed(map, c));
    map.rejectUnknownKeys();
    c.modbus.points.inputs.push_back(point);
    c.modbus.switches.push_back(sw);
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

// Each module's points fit together (pointMapProblems), and every name is used once; a mistake
// is reported against the lamp, button or switch that makes it.
void checkPoints(YamlMap& map, const Config& c, std::size_t buttons) {
    const auto& m = c.modbus;
    using Where = modbus::PointProblem::Where;
    const auto keyOf = [&](Where where, std::size_t index) {
        const bool isSwitch = where == Where::Input && index >= buttons;
        const std::string list = where == Where::Output ? "lamps" : isSwitch ? "switches" : "buttons";
        return list + "[" + std::to_string(isSwitch ? index - buttons : index) + "]";
    };
    std::set<std::string> names;
    for (std::size_t i = 0; i < m.points.outputs.size(); ++i) {
        if (!names.insert(m.points.outputs[i].name).second) {
            throw map.error(keyOf(Where::Output, i), "the name '" + m.points.outputs[i].name + "' is used twice");
        }
    }
    for (std::size_t i = 0; i < m.points.inputs.size(); ++i) {
        if (!names.insert(m.points.inputs[i].name).second) {
            throw map.error(keyOf(Where::Input, i), "the name '" + m.points.inputs[i].name + "' is used twice");
        }
    }
    for (std::size_t module = 0; module < m.modules.size(); ++module) {
        const modbus::ModulePoints points = modbus::pointsOf(m, module);
        for (const modbus::PointProblem& problem : modbus::pointMapProblems(points.map)) {
            if (problem.where == Where::Map) {
                throw map.error(
                    points.map.inputs.empty() ? "lamps" : "buttons",
                    (m.modules.size() > 1 ? "module " + m.modules[module].name + ": " : "") + problem.message);
            }
            const std::size_t index =
                problem.where == Where::Output ? points.outputs[problem.index] : points.inputs[problem.index];
            throw map.error(keyOf(problem.where, index), problem.message);
        }
    }
}

}  // namespace

void readModbus(YamlMap map, Config& c) {
    auto& m = c.modbus;
    readModules(map, c);
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
    readPriority(map, c);
    forEachItem(map, "lamps", [&](YamlMap item) { readLamp(std::move(item), c); });
    forEachItem(map, "buttons", [&](YamlMap item) { readButton(std::move(item), c); });
    const std::size_t buttons = m.points.inputs.size();
    forEachItem(map, "switches", [&](YamlMap item) { readSwitch(std::move(item), c); });
    checkModules(map, c);
    checkPoints(map, c, buttons);
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
    // A confirm press carries out what a button of its own game armed.
    const auto hasConfirm = [&](std::size_t game) {
        for (std::size_t i = 0; i < m.buttons.size(); ++i) {
            if (m.buttons[i].action == modbus::ButtonAction::Confirm && modbus::inputGameOf(m, i) == game) {
                return true;
            }
        }
        return false;
    };
    for (std::size_t i = 0; i < m.buttons.size(); ++i) {
        if (m.buttons[i].needsConfirm && !hasConfirm(modbus::inputGameOf(m, i))) {
            throw map.error("buttons[" + std::to_string(i) + "].confirm",
                            c.games.size() > 1 ? "needs a button with action: confirm in game " +
                                                     c.games[modbus::inputGameOf(m, i)].name + ", and there is none"
                                               : "needs a button with action: confirm, and there is none");
        }
    }
    if (m.enabled && m.points.outputs.empty() && m.points.inputs.empty()) {
        throw map.error(map.has("modules") ? "modules" : "device", "a module with no lamps, buttons or switches");
    }
    map.rejectUnknownKeys();
}

}  // namespace pitlink::config
