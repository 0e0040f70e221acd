#pragma once
// pitlink.yaml `modbus`: the table's I/O module, its point map, lamp rules and buttons.
#include "daemon/app/config.h"
#include "daemon/app/yaml_map.h"

namespace pitlink::app {

void readModbus(YamlMap map, Config& c);

}  // namespace pitlink::app
