#pragma once
// The player's edge of each side bet for a shoe composition, exact (issue 38, game protection):
// side bets that depend on few card values (Gold 7, Jade 8, Ruby 9, Lucky Nines, the pairs) turn
// in the player's favour late in some shoes, which card counters exploit. Computed from the
// composition a player could know (the shoe less every card shown) over every ordered sequence of
// the next coup's cards (exactOdds), as a fraction of integers: no floating point decides whether
// a bet is open. The first step of issue 38: the per-round record, the protective rules and the
// counter detection are to build on it. It takes about exactOdds' time (3 ms for 8 decks, RESULTS.md's first table).
#include <cstdint>
#include <vector>

#include "daemon/game/bet_tally.h"
#include "daemon/game/bet_type.h"
#include "daemon/game/paytable.h"
#include "daemon/game/shoe_composition.h"
#include "daemon/game/wide_int.h"

namespace pitlink::game {

// The player's expected net per unit staked, num / den (den > 0): negative is the house's edge.
struct BetEdge {
    BetType bet = BetType::Tie;
    Int128 num = 0;
    Int128 den = 1;

    // In parts per million, rounded toward zero (what is journaled and shown).
    [[nodiscard]] std::int64_t ppm() const;
    // The player's edge is above `ppm` parts per million (exactly, not its rounded figure).
    [[nodiscard]] bool above(std::int64_t ppmThreshold) const;
};

// The edge a tally gives under the paytable: each tier's wins times what the tier pays, less the
// losses, over every counted sequence. Precondition: the paytable offers the bet.
[[nodiscard]] BetEdge betEdge(const Paytable& table, BetType type, const BetTally& tally);

// The side bets: every bet but Player and Banker (isMainBet), Tie among them.
[[nodiscard]] constexpr bool isSideBet(BetType type) {
    return !isMainBet(type);
}

// The edge of every side bet the paytable offers, in kAllBetTypes order, for the next coup dealt
// from `composition` (at least 6 cards).
[[nodiscard]] std::vector<BetEdge> sideBetEdges(const Paytable& table, const ShoeComposition& composition);

}  // namespace pitlink::game
