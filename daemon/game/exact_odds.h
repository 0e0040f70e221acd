#pragma once
// Exact probabilities of every bet event by enumeration over a shoe composition: every ordered
// sequence of the (up to six) cards of one coup, counted with its exact integer weight. No
// simulation, no floating point until the final division.

#include <array>
#include <cstdint>

#include "daemon/game/bet_tally.h"
#include "daemon/game/outcome.h"
#include "daemon/game/paytable.h"
#include "daemon/game/shoe_composition.h"

namespace pitlink::game {

struct OddsReport {
    // Every count below is a number of ordered 6-card sequences from the composition (a coup
    // that uses fewer cards stands for all the ways its unused cards can follow); they sum to
    // `sequences` = N (N-1) ... (N-5).
    std::uint64_t sequences = 0;
    std::array<std::uint64_t, 3> winners{};  // indexed by Winner
    std::array<BetTally, kBetTypes> bets{};  // every bet type, offered by the paytable or not

    [[nodiscard]] long double probability(std::uint64_t count) const {
        return static_cast<long double>(count) / static_cast<long double>(sequences);
    }
    [[nodiscard]] long double probability(Winner w) const { return probability(winners[static_cast<std::size_t>(w)]); }
    [[nodiscard]] const BetTally& tally(BetType t) const { return bets[static_cast<std::size_t>(t)]; }
};

// Precondition: composition.total() >= 6. The paytable only decides which tiers exist;
// the counts do not depend on what a tier pays (betReturn() applies the paytable).
[[nodiscard]] OddsReport exactOdds(const ShoeComposition& composition);

// exactOdds of a full shoe of `decks` decks (kMinDecks..kMaxDecks), enumerated once per process
// and kept: the daemon reports the base % from it at every start and every reload, and the
// enumeration takes tens of milliseconds. Safe from any thread.
[[nodiscard]] const OddsReport& fullShoeOdds(int decks);

}  // namespace pitlink::game
