#include "daemon/game/paytable.h"

namespace pitlink::game {

void Paytable::set(BetType type, int tier, Payout payout) {
    auto& bet = bets[static_cast<std::size_t>(type)];
    if (!bet) {
        bet.emplace();
    }
    bet->tiers[static_cast<std::size_t>(tier)] = payout;
}

Payout Paytable::payout(BetType type, int tier) const {
    const auto& bet = *bets[static_cast<std::size_t>(type)];
    const auto& line = bet.tiers[static_cast<std::size_t>(tier)];
    return line ? *line : *bet.tiers[0];
}

Fraction Paytable::highestRatio(BetType type) const {
    Fraction best{0, 1};
    const auto tiers = payTiers(type);
    for (std::size_t t = 0; t < tiers.size(); ++t) {
        const Payout p = payout(type, static_cast<int>(t));
        if (!p.push && best < p.ratio) {
            best = p.ratio;
        }
    }
    return best;
}

std::optional<std::string> paytableProblem(const Paytable& table) {
    bool any = false;
    for (const BetType type : kAllBetTypes) {
        const auto& bet = table.bets[static_cast<std::size_t>(type)];
        if (!bet) {
            continue;
        }
        any = true;
        const auto tiers = payTiers(type);
        for (std::size_t t = 0; t < bet->tiers.size(); ++t) {
            const bool known = t < tiers.size();
            if (!known && bet->tiers[t]) {
                return std::string(betTypeName(type)) + ": has no pay tier number " + std::to_string(t);
            }
            if (known && !tiers[t].optional && !bet->tiers[t]) {
                return std::string(betTypeName(type)) + ": missing pay line '" + std::string(tiers[t].name) + "'";
            }
        }
    }
    if (!any) {
        return std::string("the paytable offers no bet");
    }
    return std::nullopt;
}

}  // namespace pitlink::game
