// libFuzzer target: pitlink.yaml. Any input is either a configuration whose parts fit (each Modbus
// module's point map passes its own check, every point on a module that exists, one rule and one
// safe state per lamp and one setting per button or switch, the priority
// ranks every condition once, SAS links on distinct stations) or a ConfigError with a message;
// no other exception escapes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>

#include "daemon/config/config.h"
#include "daemon/config/config_error.h"

using namespace pitlink;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        const config::Config c = config::loadConfig(in, "/etc/pitlink/pitlink.yaml");
        const auto& m = c.modbus;
        if (m.lamps.size() != m.points.outputs.size() || m.safeLit.size() != m.points.outputs.size() ||
            m.buttons.size() + m.switches.size() != m.points.inputs.size() ||
            m.outputModule.size() != m.points.outputs.size() || m.inputModule.size() != m.points.inputs.size() ||
            m.enabled != !m.modules.empty()) {
            std::abort();
        }
        for (std::size_t i = 0; i < m.modules.size(); ++i) {
            if (!modbus::pointMapProblems(modbus::pointsOf(m, i).map).empty()) {
                std::abort();
            }
        }
        for (const std::size_t module : m.outputModule) {
            if (module >= m.modules.size()) {
                std::abort();
            }
        }
        for (const std::size_t module : m.inputModule) {
            if (module >= m.modules.size()) {
                std::abort();
            }
        }
        std::set<modbus::TableCondition> ranked(m.priority.begin(), m.priority.end());
        if (ranked.size() != modbus::kConditionCount || m.priority.size() != modbus::kConditionCount) {
            std::abort();
        }
        std::set<std::int64_t> stations;
        for (const auto& link : c.sas.links) {
            if (!stations.insert(link.station).second || link.station < 1 || link.station > c.table.stations) {
                std::abort();
            }
        }
    } catch (const config::ConfigError& e) {
        if (std::string(e.what()).empty()) {
            std::abort();
        }
    }
    return 0;
}
