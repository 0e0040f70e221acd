#pragma once
// pitlink.yaml `protection` (game protection, docs/protection.md): each watched side bet's rule and
// the counters' alert level, for every game of the controller.
#include "daemon/config/yaml_map.h"
#include "daemon/game/side_bet_guard.h"

namespace pitlink::config {

// Reads `protection` over `rules` (absent: protection off).
void readProtection(YamlMap map, game::ProtectionRules& rules);

}  // namespace pitlink::config
