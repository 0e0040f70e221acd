#pragma once
// station.state: what a station keeps from one round to the next and across a restart (issue
// 20): the last round's slip (repeat), the anti-doubling streak (seed 002), the limit level its
// player chose (seed 002), the player's own limits (seed 004) and auto-repeat (seeds 000, 001). Written whole whenever
// one of them changes (a settlement of the station's bets, a level chosen, limits set); the start-up takes each
// station's last one, and a segment carries them over (segment.carried).
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "daemon/game/bet_rules.h"

namespace pitlink::journal {

struct StationState {
    game::BetSlip lastSlip;
    game::LosingStreak streak;
    int limitLevel = 1;
    game::PersonalLimits personal;
    // Seeds 000/001 "auto repeat": the last slip is placed again at every round's opening until
    // the player turns it off or a repeat is refused. Written only when on (bodies before it
    // have none).
    bool autoRepeat = false;
    // Seed 000 "Keep Bets On" (RNG tables): the last slip is placed again at every opening, but
    // does not start the round (with start: deal). Never on together with auto-repeat.
    bool keepBets = false;
    // Seed 000's Denomination button: the value of one credit the player chose (minor units);
    // absent: the table's first denomination.
    std::optional<game::Money> denomination;
};

// `by`: the operator who set the player's limits, when that is what changed.
[[nodiscard]] nlohmann::json stationStateJson(const StationState& state, const std::string& by = {});
// {"min": n, "max": n}, each only when set: as station.state and the replies write them.
[[nodiscard]] nlohmann::json personalLimitsJson(const game::PersonalLimits& personal);
// BodyError when a field does not fit.
[[nodiscard]] StationState stationStateFact(const nlohmann::json& body);

}  // namespace pitlink::journal
