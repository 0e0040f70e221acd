#pragma once
// The Modbus table I/O's records (schema/README.md: `modbus.link`, `modbus.lamp_test`), typed: the
// table I/O fills the struct, the body's field names are written here only.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pitlink::journal {

// modbus.link: an I/O module answering again, or no longer.
struct ModbusLinkRecord {
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
[[nodiscard]] nlohmann::json modbusLinkJson(const ModbusLinkRecord& record);

// modbus.lamp_test: a technician's lamp test, started or refused with its rule.
struct ModbusLampTestRecord {
    std::string by;
    std::int64_t stepMs = 0;
    std::vector<std::string> lamps;
    bool modulesUp = false;
    bool started = false;
    std::optional<std::string> error;  // refused: the rule
};
[[nodiscard]] nlohmann::json modbusLampTestJson(const ModbusLampTestRecord& record);

}  // namespace pitlink::journal
