#pragma once
// pitlink.yaml `modbus`: the table's I/O module (tower light, status lamps, dealer buttons), how
// to reach it, and what each lamp shows and each button does.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "protocols/modbus/connection_settings.h"
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
    bool needsConfirm = false;  // armed by the press, done by a confirm press within the window
    bool operator==(const ButtonSettings&) const = default;
};

struct TableIoSettings {
    bool enabled = false;  // no `modbus.device`: no Modbus
    ConnectionSettings connection;
    PointMap points;
    std::vector<LampRule> lamps;          // one per points.outputs
    std::vector<ButtonSettings> buttons;  // one per points.inputs
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

}  // namespace pitlink::modbus
