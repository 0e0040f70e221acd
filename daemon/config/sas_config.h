#pragma once
// pitlink.yaml `sas`: one SAS link per player station (port, address, transport) and how the
// stations validate and redeem tickets.
#include "daemon/config/config.h"
#include "daemon/config/yaml_map.h"

namespace pitlink::config {

void readSas(YamlMap map, Config& c);

}  // namespace pitlink::config
