#pragma once
// The scoreboard of a shoe as JSON, for table displays and `pitlinkctl roads --json`.

#include <nlohmann/json.hpp>

#include "daemon/game/scoreboard.h"

namespace pitlink::ctl {

nlohmann::json scoreboardJson(const game::Scoreboard& board);

}  // namespace pitlink::ctl
