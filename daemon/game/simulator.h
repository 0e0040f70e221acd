#pragma once
// Monte Carlo play of real shoes (shuffle, cut card, burn, shoe ends) with every bet of a
// paytable placed on every round; checks the exact odds against play, and play against them.

#include <array>
#include <cstdint>

#include "daemon/game/bet_tally.h"
#include "daemon/game/paytable.h"
#include "daemon/game/random_source.h"
#include "daemon/game/shoe.h"

namespace pitlink::game {

struct SimulationReport {
    std::uint64_t rounds = 0;
    std::uint64_t shoes = 0;
    std::array<std::uint64_t, 3> winners{};  // indexed by Winner
    std::uint64_t playerPairs = 0;
    std::uint64_t bankerPairs = 0;
    std::uint64_t naturals = 0;
    std::array<BetTally, kBetTypes> bets{};

    [[nodiscard]] const BetTally& tally(BetType t) const { return bets[static_cast<std::size_t>(t)]; }
};

// Plays `rounds` rounds from consecutive shoes numbered from 1.
[[nodiscard]] SimulationReport simulate(const ShoeConfig& shoe, std::uint64_t rounds, RandomSource& random);

}  // namespace pitlink::game
