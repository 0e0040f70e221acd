#include "daemon/game/side_bet_edge.h"

#include <numeric>
#include <stdexcept>
#include <string>

#include "daemon/game/exact_odds.h"

namespace pitlink::game {

std::int64_t BetEdge::ppm() const {
    return static_cast<std::int64_t>(num * 1'000'000 / den);  // C++ division rounds toward zero
}

bool BetEdge::above(std::int64_t ppmThreshold) const {
    // An edge lies within -10^6 ppm and 10^12 ppm (the largest ratio, 10^6 to one); a threshold
    // beyond 10^13 either way is decided without multiplying, which would leave 128 bits.
    constexpr std::int64_t kBeyondAnyEdge = 10'000'000'000'000;
    if (ppmThreshold >= kBeyondAnyEdge || ppmThreshold <= -kBeyondAnyEdge) {
        return ppmThreshold < 0;
    }
    return num * 1'000'000 > static_cast<Int128>(ppmThreshold) * den;
}

BetEdge betEdge(const Paytable& table, BetType type, const BetTally& tally) {
    // One denominator for every tier, the least common multiple of the ratios'. Bounded so that
    // the sums below stay inside 128 bits: counts below 2^53 (416^6), ratio terms up to 10^6,
    // and the 10^6 of ppm.
    constexpr std::int64_t kMostCommon = 1'000'000'000;
    const auto tiers = payTiers(type);
    std::int64_t common = 1;
    for (std::size_t t = 0; t < tiers.size(); ++t) {
        if (const Payout p = table.payout(type, static_cast<int>(t)); !p.push) {
            common = std::lcm(common, p.ratio.den);
            if (common > kMostCommon) {
                throw std::invalid_argument(std::string(betTypeName(type)) +
                                            ": the paytable's ratios have no common denominator up to 10^9");
            }
        }
    }
    BetEdge edge{type, -static_cast<Int128>(tally.losses) * common, static_cast<Int128>(tally.total()) * common};
    for (std::size_t t = 0; t < tiers.size(); ++t) {
        const Payout p = table.payout(type, static_cast<int>(t));
        if (!p.push) {
            edge.num += static_cast<Int128>(tally.wins[t]) * p.ratio.num * (common / p.ratio.den);
        }
    }
    if (edge.den == 0) {
        edge = BetEdge{type, 0, 1};  // nothing counted: no edge either way
    }
    return edge;
}

std::vector<BetEdge> sideBetEdges(const Paytable& table, const ShoeComposition& composition) {
    const OddsReport odds = exactOdds(composition);
    std::vector<BetEdge> edges;
    for (const BetType type : kAllBetTypes) {
        if (isSideBet(type) && table.offers(type)) {
            edges.push_back(betEdge(table, type, odds.tally(type)));
        }
    }
    return edges;
}

}  // namespace pitlink::game
