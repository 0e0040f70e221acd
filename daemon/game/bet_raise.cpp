#include "daemon/game/bet_raise.h"

namespace pitlink::game {

RaisePlan planRaise(std::span<const BetType> order, const BetSlip& current, Money chip,
                    const StationBetContext& context, const Paytable& table, const BetRulesConfig& rules) {
    RaisePlan plan;
    BetSlip after = current;
    for (const BetType spot : order) {
        if (!current.has(spot)) {
            continue;
        }
        BetSlip candidate = after;
        candidate[spot] += chip;
        if (auto refusal = checkSlip(candidate, context, table, rules)) {
            const bool outOfCredit = refusal->rule == BetRule::InsufficientCredits;
            refusal->spot = spot;
            plan.skipped.push_back(std::move(*refusal));
            if (outOfCredit) {
                break;
            }
            continue;
        }
        after = candidate;
        plan.add[spot] += chip;
    }
    return plan;
}

}  // namespace pitlink::game
