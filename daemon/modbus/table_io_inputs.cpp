// The inputs: dealer buttons counted or seen pressed, held buttons, and switches.
#include <spdlog/spdlog.h>

#include "daemon/modbus/table_io.h"

namespace pitlink::modbus {

namespace {

// More edges than this between two polls is not a hand on a button: the module's counter was
// reset (a restart, a latch cleared on read): a new baseline, not thousands of presses.
constexpr std::uint16_t kMostCountedPerPoll = 20;

}  // namespace

void TableIo::onInputs(std::size_t index, const CycleResult& result, std::int64_t now) {
    const Module& m = modules_[index];
    const std::vector<bool> pressed = decodeInputs(m.points.map, m.plan, result.discrete, result.registers);
    const std::vector<std::optional<std::uint16_t>> counts = decodeCounters(m.points.map, m.plan, result.registers);
    const std::size_t buttons = settings_.buttons.size();
    for (std::size_t k = 0; k < pressed.size(); ++k) {
        const std::size_t i = m.points.inputs[k];
        const bool edge = debouncers_[i].sample(pressed[k], now);
        if (i >= buttons) {
            switchLevel(i, debouncers_[i].pressed());
            continue;
        }
        if (counts[k]) {
            // The module counts the edges: every one since the last reading is a press, however
            // short; the first reading after a connect is the baseline.
            if (counts_[i]) {
                const std::uint16_t n = countedSince(*counts_[i], *counts[k]);
                if (n > kMostCountedPerPoll) {
                    ++counterResets_;
                    spdlog::warn("modbus: {}'s edge counter went from {} to {}: taken as reset, not as {} presses",
                                 settings_.points.inputs[i].name, *counts_[i], *counts[k], n);
                } else {
                    for (std::uint16_t left = n; left > 0; --left) {
                        ++counted_;
                        buttons_.pressed(i);
                    }
                }
            }
            counts_[i] = counts[k];
        } else if (edge) {
            buttons_.pressed(i);
        }
        checkHeld(i, now);
    }
}

void TableIo::checkHeld(std::size_t input, std::int64_t now) {
    const std::string& name = settings_.points.inputs[input].name;
    const auto maxHold = settings_.buttons[input].maxHold.count();
    const std::size_t module = input < settings_.inputModule.size() ? settings_.inputModule[input] : 0;
    if (!debouncers_[input].pressed()) {
        if (pressedSince_[input] >= 0 && faults_.contains(name)) {
            fault(module, name, "button_held", false, {std::nullopt, now - pressedSince_[input], std::nullopt});
        }
        pressedSince_[input] = -1;
        return;
    }
    if (pressedSince_[input] < 0) {
        pressedSince_[input] = now;
    }
    if (maxHold > 0 && now - pressedSince_[input] > maxHold && !faults_.contains(name)) {
        fault(module, name, "button_held", true, {std::nullopt, now - pressedSince_[input], maxHold});
    }
}

void TableIo::switchLevel(std::size_t input, bool active) {
    // A change is told to the table; the first reading only when active (an inactive reader
    // switch must not clear a fault the engine link reported).
    const bool first = !switchTold_[input].has_value();
    if (switchTold_[input] == active) {
        return;
    }
    switchTold_[input] = active;
    if (first && !active) {
        return;
    }
    const SwitchSettings& sw = settings_.switches.at(input - settings_.buttons.size());
    const std::string& name = settings_.points.inputs[input].name;
    spdlog::info("modbus: switch {} {}", name, active ? "active" : "inactive");
    table::Table& table = *games_.at(inputGameOf(settings_, input));
    if (sw.role == SwitchRole::Door) {
        if (active) {
            table.doorOpened(sw.door, [](const table::Reply&) {});
        } else {
            table.doorClosed(sw.door, [](const table::Reply&) {});
        }
        return;
    }
    table.readerStatus(!active, active ? "the card reader's fault output (" + name + ") is on" : "",
                       [](const table::Reply&) {});
}

}  // namespace pitlink::modbus
