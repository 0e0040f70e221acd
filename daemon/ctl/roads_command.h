#pragma once
// pitlinkctl roads: the scoreboards of a shoe as text, JSON or an SVG picture. Until the
// journal exists the shoe comes from a result string (--results BPPTB...).

#include <ostream>
#include <string>
#include <vector>

#include "daemon/game/scoreboard.h"

namespace pitlink::ctl {

int runRoads(const std::vector<std::string>& args, std::ostream& out);

// Text rendering for terminals: statistics, bead plate, big road and derived roads as letters.
void printRoads(std::ostream& out, const game::Scoreboard& board);

}  // namespace pitlink::ctl
