#pragma once
// pitlink.yaml `modbus`: the table's I/O module, its point map, lamp rules and buttons.
#include "daemon/config/config.h"
#include "daemon/config/yaml_map.h"

namespace pitlink::config {

void readModbus(YamlMap map, Config& c);

}  // namespace pitlink::config
