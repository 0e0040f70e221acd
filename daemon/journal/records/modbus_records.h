#pragma once
// The Modbus table I/O's records (schema/README.md: `button.pressed`, `modbus.link`,
// `modbus.fault`, `modbus.lamp_test`). Typed records (typed_record.h): the table I/O fills the
// struct, the body's field names are written here only.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/journal/records/record_kinds.h"

namespace pitlink::journal {

// button.pressed: a dealer button's press, with what it did once the table answered.
struct ButtonPressedRecord {
    static constexpr std::string_view kKind = kind::kButtonPressed;
    std::string button;
    std::string action;                   // modbus::buttonActionName
    std::string outcome;                  // "done", "armed", "confirmed", "refused", "nothing to confirm"
    std::optional<std::string> error;     // refused: the rule
    std::optional<std::string> message;   // refused: the rule's words
    std::optional<std::string> confirms;  // a confirm button's press: the action it carried out
    std::optional<std::string> armedBy;   // ... and the button that armed it
};
[[nodiscard]] nlohmann::json toBody(const ButtonPressedRecord& record);

// modbus.link: an I/O module answering again, or no longer.
struct ModbusLinkRecord {
    static constexpr std::string_view kKind = kind::kModbusLink;
    bool up = false;
    std::string module;
    std::string device;
    std::optional<std::string> error;  // down: the outage's cause
    struct Outage {
        std::int64_t downMs = 0;
        std::uint64_t failedCycles = 0;
        std::set<std::string> errors;  // the distinct errors of the outage
    };
    std::optional<Outage> ended;  // up again after an outage (not the first connect)
};
[[nodiscard]] nlohmann::json toBody(const ModbusLinkRecord& record);

// modbus.fault: a stuck output or a button held too long, raised or cleared.
struct ModbusFaultRecord {
    static constexpr std::string_view kKind = kind::kModbusFault;
    std::string point;
    std::string fault;  // "stuck_output" or "button_held"
    bool active = false;
    std::string module;
    std::string device;
    // A stuck output, raised: the module holds the opposite of what was written to it.
    struct Stuck {
        bool holds = false;  // what the module holds ("on" / "off")
        std::uint16_t address = 0;
        std::string kind;  // "coil" or "holding_register_bit"
    };
    // What the fault is besides its point (none: a stuck output cleared).
    struct Detail {
        std::optional<Stuck> stuck;
        std::optional<std::int64_t> heldMs;     // a held button, raised or cleared
        std::optional<std::int64_t> maxHoldMs;  // a held button, raised
    };
    Detail detail;
};
[[nodiscard]] nlohmann::json toBody(const ModbusFaultRecord& record);

// modbus.lamp_test: a technician's lamp test, started or refused with its rule.
struct ModbusLampTestRecord {
    static constexpr std::string_view kKind = kind::kModbusLampTest;
    std::string by;
    std::int64_t stepMs = 0;
    std::vector<std::string> lamps;
    bool modulesUp = false;
    bool started = false;
    std::optional<std::string> error;  // refused: the rule
};
[[nodiscard]] nlohmann::json toBody(const ModbusLampTestRecord& record);

}  // namespace pitlink::journal
