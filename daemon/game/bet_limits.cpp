#include "daemon/game/bet_limits.h"

#include <algorithm>

namespace pitlink::game {

StakeRange spotRange(const TableLimits& limits, int level, BetType spot, const PersonalLimits& personal) {
    const std::size_t index =
        static_cast<std::size_t>(std::clamp(level, 1, static_cast<int>(limits.levels.size()))) - 1;
    const LimitLevel& at = limits.levels[index];
    const auto own = static_cast<std::size_t>(spot);
    StakeRange range = at.main;
    if (at.spots[own]) {
        range = *at.spots[own];
    } else if (limits.spots[own]) {
        range = *limits.spots[own];
    }
    if (personal.min) {
        range.min = std::max(range.min, *personal.min);
    }
    if (personal.max) {
        range.max = std::min(range.max, *personal.max);
    }
    return range;
}

Money highestMaximum(const TableLimits& limits) {
    Money highest = 0;
    for (int level = 1; level <= static_cast<int>(limits.levels.size()); ++level) {
        for (const BetType spot : kAllBetTypes) {
            highest = std::max(highest, spotRange(limits, level, spot).max);
        }
    }
    return highest;
}

}  // namespace pitlink::game
