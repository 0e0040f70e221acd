#pragma once
// pitlink.yaml `modbus`: the table's I/O module (tower light, status lamps, dealer buttons), how
// to reach it, and what each lamp shows and each button does.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocols/modbus/connection_settings.h"
#include "protocols/modbus/io_cycle.h"
#include "protocols/modbus/lamp_rules.h"
#include "protocols/modbus/point_map.h"

namespace pitlink::modbus {

enum class ButtonAction : std::uint8_t {
    CloseBets,  // "deal": closes betting (or opens a round on an idle reader table)
    NewShoe,
    VoidRound,
    AttendantKey,  // clears every attendant call
    Confirm,       // carries out the armed action of a button that needs confirming
};

[[nodiscard]] std::optional<ButtonAction> parseButtonAction(std::string_view name);
[[nodiscard]] std::string_view buttonActionName(ButtonAction action);

struct ButtonSettings {
    ButtonAction action = ButtonAction::CloseBets;
    bool needsConfirm = false;                  // armed by the press, done by a confirm press within the window
    std::chrono::milliseconds maxHold{10'000};  // held longer: a fault (0: never)
    bool operator==(const ButtonSettings&) const = default;
};

// A switch is a level, not a press: a door switch (active: the door is open) or the card
// reader's fault output (active: the reader has failed).
enum class SwitchRole : std::uint8_t { Door, ReaderFault };

struct SwitchSettings {
    std::string door;  // SwitchRole::Door: the door's name, as in the journal's door.opened
    SwitchRole role = SwitchRole::Door;
    bool operator==(const SwitchSettings&) const = default;
};

// One I/O module: how to reach it (modules on one serial port share the RS-485 bus, each with
// its unit id), what is written at connect and at a clean stop, its watchdog.
struct ModuleSettings {
    std::string name = "io";
    ConnectionSettings connection;
    std::vector<SetupWrite> atConnect;      // after every connect, before the lamps
    std::vector<SetupWrite> atStop;         // at a clean stop, after the safe image (e.g. the watchdog stopped)
    std::chrono::milliseconds watchdog{0};  // what the at_connect writes arm on the module (0: none)
    bool identify = true;                   // read the module's identity (43/14) after a connect
    bool operator==(const ModuleSettings&) const = default;
};

// A module's own points, and where each is in the table's lists.
struct ModulePoints {
    PointMap map;
    std::vector<std::size_t> outputs;  // map.outputs[i] is the table's output outputs[i]
    std::vector<std::size_t> inputs;
};

struct TableIoSettings {
    bool enabled = false;  // no `modbus.device` or `modbus.modules`: no Modbus
    std::vector<ModuleSettings> modules;
    PointMap points;                        // every module's lamps and inputs
    std::vector<std::size_t> outputModule;  // per points.outputs: its module (absent: the first)
    std::vector<std::size_t> inputModule;   // per points.inputs
    // On a controller of several games (pitlink.yaml `games`), the game each lamp shows and each
    // button or switch acts on: an index into the games (absent: the first, as with one game).
    std::vector<std::size_t> outputGame;        // per points.outputs
    std::vector<std::size_t> inputGame;         // per points.inputs
    std::vector<LampRule> lamps;                // one per points.outputs
    std::vector<bool> safeLit;                  // one per points.outputs: the lamp in the safe image
    std::vector<ButtonSettings> buttons;        // one per points.inputs, from the first
    std::vector<SwitchSettings> switches;       // one per points.inputs after the buttons
    std::chrono::milliseconds readBack{1'000};  // the outputs read back this often (0: after a connect only)
    std::vector<TableCondition> priority = defaultPriority();
    FlashTiming flash;
    std::chrono::milliseconds poll{50};
    std::chrono::milliseconds debounce{30};
    std::chrono::milliseconds reconnectMin{250};
    std::chrono::milliseconds reconnectMax{5'000};
    std::chrono::milliseconds offlineTilt{0};  // 0: a lost device never tilts the table
    std::chrono::milliseconds confirmWindow{5'000};
    bool operator==(const TableIoSettings&) const = default;
};

[[nodiscard]] ModulePoints pointsOf(const TableIoSettings& settings, std::size_t module);
// The game (an index into the controller's games) that output `i` shows, input `i` acts on.
[[nodiscard]] std::size_t outputGameOf(const TableIoSettings& settings, std::size_t i);
[[nodiscard]] std::size_t inputGameOf(const TableIoSettings& settings, std::size_t i);

}  // namespace pitlink::modbus
