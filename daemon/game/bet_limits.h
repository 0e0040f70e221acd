#pragma once
// Bet limits per spot (docs/rules.md "Bet rules"; seed 002's seven selectable tables, seed 004's
// personal limits). A table offers limit levels; a station plays at the level its player chose;
// each spot's range at a level is the spot's own range at that level, else its own range at
// every level, else the level's range (which is the main bets', Player and Banker). A player's
// personal limits narrow every range ("the combined range of the table's playtype bet limit and
// the player's personal bet limit", seed 004): what lies outside either is refused.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "daemon/game/bet_type.h"
#include "daemon/game/settlement.h"

namespace pitlink::game {

// Inclusive stakes in minor units.
struct StakeRange {
    Money min = 0;
    Money max = 0;
    bool operator==(const StakeRange&) const = default;
};

// A spot's own range, where it has one (nullopt: the level's).
using SpotRanges = std::array<std::optional<StakeRange>, kBetTypes>;

struct LimitLevel {
    StakeRange main{100, 500'000};  // Player and Banker, and every spot without a range of its own
    SpotRanges spots{};             // this level's own ranges for some spots
    bool operator==(const LimitLevel&) const = default;
};

// A player's own limits within the table's (an operator sets them); either side may be open.
struct PersonalLimits {
    std::optional<Money> min;
    std::optional<Money> max;
    bool operator==(const PersonalLimits&) const = default;
    [[nodiscard]] bool empty() const { return !min && !max; }
};

struct TableLimits {
    std::vector<LimitLevel> levels{LimitLevel{}};  // level 1 first; never empty
    SpotRanges spots{};                            // ranges of some spots at every level without its own
    bool operator==(const TableLimits&) const = default;
};

// The stakes a spot takes at `level` (1-based, clamped to the levels there are) for a player
// with `personal` limits. An empty result (min > max) takes no stake at all.
[[nodiscard]] StakeRange spotRange(const TableLimits& limits, int level, BetType spot,
                                   const PersonalLimits& personal = {});

// The largest stake any spot takes at any level (what SAS reports as the maximum bet).
[[nodiscard]] Money highestMaximum(const TableLimits& limits);

}  // namespace pitlink::game
