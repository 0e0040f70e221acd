#pragma once
// pitlink.yaml `modbus`: one I/O module (`device` and the keys beside it) or several
// (`modules`): how each is reached, what is written to it at connect and at a clean stop, its
// watchdog; and the checks that modules sharing a serial port can share it.
#include "daemon/config/config.h"
#include "daemon/config/yaml_map.h"

namespace pitlink::config {

// `modbus.device` with `at_connect`, `at_stop`, `watchdog_ms`, `identify` beside it, or each item
// of `modbus.modules`; into c.modbus.modules.
void readModules(YamlMap& map, Config& c);

// The module a point names with `module:` (the first when there is only one).
[[nodiscard]] std::size_t moduleNamed(YamlMap& point, const Config& c);

// Once the points are read: each module's watchdog against the poll, and modules that share a
// serial port.
void checkModules(YamlMap& map, const Config& c);

}  // namespace pitlink::config
