#pragma once
// The scoreboard of a shoe as one SVG picture a person can read: title with the shoe number,
// statistics, legend, bead plate, big road, the three derived roads and the probe, in the
// colours and marks of the seeds (Banker red, Player blue, Tie green; hollow circles on the big
// road and Big Eye Road, solid dots on the Small Road, slashes on the Cockroach Road).

#include <string>

#include "daemon/game/scoreboard.h"

namespace pitlink::ctl {

std::string scoreboardSvg(const game::Scoreboard& board, const std::string& tableName);

}  // namespace pitlink::ctl
