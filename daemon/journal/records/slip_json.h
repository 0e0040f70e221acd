#pragma once
// A bet slip as the journal's records and the replies write it: {"banker": 500, ...}, the spots
// with a stake only, by their names in docs/rules.md.
#include <nlohmann/json.hpp>

#include "daemon/game/bet_rules.h"

namespace pitlink::journal {

[[nodiscard]] nlohmann::json slipJson(const game::BetSlip& slip);

}  // namespace pitlink::journal
