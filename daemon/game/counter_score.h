#pragma once
// How a station's side-bet stakes line up with the bet's edge through a shoe (issue 38, counter
// detection). A card counter bets a side bet when the shoe turns it in the player's favour and
// little or nothing otherwise; a random bettor's stakes have nothing to do with the edge. The
// score compares the station's stake-weighted mean edge with the shoe's mean edge, and says how
// far that is from what a bettor gets who puts the same stakes on the same rounds in a random
// order: a z-score with the exact variance of such a shuffle. Not money: a figure for an alert.
#include <cstdint>
#include <span>

namespace pitlink::game {

struct CounterScore {
    std::int64_t rounds = 0;   // rounds the bet could be made
    std::int64_t staked = 0;   // the station's stakes on it, summed
    double meanEdgePpm = 0;    // the shoe's mean edge over those rounds
    double stakedEdgePpm = 0;  // the station's stake-weighted mean edge (its mean edge when it staked nothing)
    // (stakes times edges, summed, less what a random order of the same stakes gives on average)
    // over its standard deviation over every order. 0 when every stake or every edge is the same.
    double z = 0;
};

// `edgePpm[i]`: the player's edge of the bet in round i (ppm); `stakes[i]`: the station's stake on
// it in that round (0: none). The same length; rounds where the bet was closed are left out.
[[nodiscard]] CounterScore counterScore(std::span<const std::int64_t> edgePpm, std::span<const std::int64_t> stakes);

}  // namespace pitlink::game
