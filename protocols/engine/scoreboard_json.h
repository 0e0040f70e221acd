#pragma once
// The scoreboard of a shoe as JSON: the engine link's live roads (event and op `roads`,
// README.md beside this file) and `pitlinkctl roads --json`.

#include <nlohmann/json.hpp>

#include "daemon/game/scoreboard.h"

namespace pitlink::engine {

// `naturalsOnBigRoad` false (seed 000: a casino's setting): no big-road cell is marked natural;
// the bead plate and the statistics keep them.
[[nodiscard]] nlohmann::json scoreboardJson(const game::Scoreboard& board, bool naturalsOnBigRoad = true);

}  // namespace pitlink::engine
