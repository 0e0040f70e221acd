#pragma once
// "Raise bet" (seed 000): every bet on the layout raised by the selected chip, in the order the
// bets were placed, "until there is not enough credit to continue raising". Where the seed is
// silent (a choice of this project, docs/rules.md "Station functions"): a spot the chip would
// take past a rule other than the credits (its maximum, the payout limit, anti-doubling) is left
// as it stands and raising goes on with the next spot; the first spot the credits cannot cover
// ends the raise.
#include <span>
#include <vector>

#include "daemon/game/bet_rules.h"

namespace pitlink::game {

struct RaisePlan {
    BetSlip add;                      // the chip on each spot raised (nothing raised: all zero)
    std::vector<BetRefusal> skipped;  // the spots left as they stood, each with its rule
};

// `order`: the spots of `current` in the order they were first bet (each once).
[[nodiscard]] RaisePlan planRaise(std::span<const BetType> order, const BetSlip& current, Money chip,
                                  const StationBetContext& context, const Paytable& table, const BetRulesConfig& rules);

}  // namespace pitlink::game
