#pragma once
// pitlinkctl odds: exact probabilities and house edge of every bet of a paytable.

#include <ostream>
#include <string>
#include <vector>

#include "daemon/game/exact_odds.h"
#include "daemon/game/paytable.h"

namespace pitlink::ctl {

int runOdds(const std::vector<std::string>& args, std::ostream& out);

void printOdds(std::ostream& out, const game::Paytable& table, int decks, const game::OddsReport& report);
void printOddsJson(std::ostream& out, const game::Paytable& table, int decks, const game::OddsReport& report);

}  // namespace pitlink::ctl
