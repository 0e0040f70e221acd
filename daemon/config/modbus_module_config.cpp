#include "daemon/config/modbus_module_config.h"

#include <map>
#include <set>

namespace pitlink::config {

namespace {

void readDevice(YamlMap map, const Config& c, modbus::ConnectionSettings& d) {
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

// The keys of one module beside its `device`.
void readModuleKeys(YamlMap& map, const Config& c, modbus::ModuleSettings& m) {
    readDevice(map.map("device"), c, m.connection);
    forEachItem(map, "at_connect", [&](YamlMap item) { readSetupWrite(std::move(item), m.atConnect); });
    forEachItem(map, "at_stop", [&](YamlMap item) { readSetupWrite(std::move(item), m.atStop); });
    m.watchdog = std::chrono::milliseconds(map.integer("watchdog_ms", 0, 0, 600'000));
    if (m.watchdog.count() > 0 && m.atConnect.empty()) {
        throw map.error("watchdog_ms", "a watchdog is armed by at_connect writes: there are none");
    }
    m.identify = map.boolean("identify", m.identify);
}

}  // namespace

void readModules(YamlMap& map, Config& c) {
    auto& modules = c.modbus.modules;
    if (map.has("device") && map.has("modules")) {
        throw map.error("modules", "give either device (one module) or modules, not both");
    }
    if (map.has("device")) {
        modules.emplace_back();
        readModuleKeys(map, c, modules.back());
    }
    forEachItem(map, "modules", [&](YamlMap item) {
        if (modules.size() >= 16) {
            throw item.error("", "at most 16 modules");
        }
        modbus::ModuleSettings m;
        m.name = item.requiredString("name");
        if (m.name.empty() || m.name.size() > 32) {
            throw item.error("name", "a module's name of 1 to 32 characters");
        }
        for (const auto& other : modules) {
            if (other.name == m.name) {
                throw item.error("name", "'" + m.name + "' names another module too");
            }
        }
        if (!item.has("device")) {
            throw item.error("device", "missing: how to reach the module");
        }
        readModuleKeys(item, c, m);
        item.rejectUnknownKeys();
        modules.push_back(std::move(m));
    });
    if (map.node("modules") && modules.empty()) {
        throw map.error("modules", "an empty list (leave modbus out for no module)");
    }
    c.modbus.enabled = !modules.empty();
}

std::size_t moduleNamed(YamlMap& point, const Config& c) {
    const auto& modules = c.modbus.modules;
    if (!point.has("module")) {
        if (modules.size() > 1) {
            throw point.error("module", "missing: which module (there are " + std::to_string(modules.size()) + ")");
        }
        return 0;
    }
    const std::string name = point.requiredString("module");
    for (std::size_t i = 0; i < modules.size(); ++i) {
        if (modules[i].name == name) {
            return i;
        }
    }
    throw point.error("module", "no module is named '" + name + "'");
}

void checkModules(YamlMap& map, const Config& c) {
    const auto& m = c.modbus;
    std::map<std::string, const modbus::ModuleSettings*> serialPorts;
    std::set<std::string> endpoints;
    for (std::size_t i = 0; i < m.modules.size(); ++i) {
        const modbus::ModuleSettings& module = m.modules[i];
        const modbus::ConnectionSettings& d = module.connection;
        const bool listed = map.has("modules");
        const std::string key = listed ? "modules[" + std::to_string(i) + "].watchdog_ms" : "watchdog_ms";
        if (module.watchdog.count() > 0) {
            // Polls keep the watchdog fed: it must outlast a poll period and the longest silence
            // a cycle can make on its line: every try of a request (on RTU each retry waits a
            // time-out more to recover the line), and the other units' cycles on the same bus.
            const auto worstCycle = [](const modbus::ConnectionSettings& u) {
                const int tries = u.retries + 1;
                return tries * u.responseTimeout + (u.transport == modbus::Transport::Rtu
                                                        ? u.retries * u.responseTimeout
                                                        : std::chrono::milliseconds(0));
            };
            auto needed = 2 * m.poll + worstCycle(d);
            for (const modbus::ModuleSettings& other : m.modules) {
                if (&other != &module && d.transport == modbus::Transport::Rtu &&
                    other.connection.transport == modbus::Transport::Rtu && other.connection.device == d.device) {
                    needed += worstCycle(other.connection);
                }
            }
            if (module.watchdog < needed) {
                throw map.error(key, "below " + std::to_string(needed.count()) +
                                         " ms (two polls and the longest a cycle can keep its line silent): the "
                                         "module would drop its lamps while pitlinkd runs");
            }
        }
        const std::string where = listed ? "modules[" + std::to_string(i) + "].device" : "device";
        if (!endpoints.insert(modbus::describe(d)).second) {
            throw map.error(where, "the same module as another (" + modbus::describe(d) + ")");
        }
        if (d.transport != modbus::Transport::Rtu) {
            continue;
        }
        // Units on one serial port share its bus: one framing, one way of driving RS-485.
        const auto [it, first] = serialPorts.emplace(d.device, &module);
        if (!first) {
            const modbus::ConnectionSettings& o = it->second->connection;
            if (o.baud != d.baud || o.parity != d.parity || o.dataBits != d.dataBits || o.stopBits != d.stopBits ||
                o.rs485 != d.rs485 || o.rtsActiveHigh != d.rtsActiveHigh || o.rtsDelay != d.rtsDelay ||
                o.frameGap != d.frameGap) {
                throw map.error(where, "shares " + d.device + " with module '" + it->second->name +
                                           "': the framing and RS-485 settings must be the same");
            }
        }
    }
}

}  // namespace pitlink::config
