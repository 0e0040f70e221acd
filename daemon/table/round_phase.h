#pragma once
// Where the table is in its round (docs/rules.md "Rounds"): OPEN is split into the two betting windows
// of seed 002; SETTLED and VOIDED end a round and leave the table Idle.
#include <cstdint>
#include <string_view>

namespace pitlink::table {

enum class RoundPhase : std::uint8_t { Idle, BetsOpen, LastBets, Closed, Dealing };

[[nodiscard]] constexpr std::string_view roundPhaseName(RoundPhase phase) {
    switch (phase) {
        case RoundPhase::Idle:
            return "idle";
        case RoundPhase::BetsOpen:
            return "bets_open";
        case RoundPhase::LastBets:
            return "last_bets";
        case RoundPhase::Closed:
            return "closed";
        case RoundPhase::Dealing:
            return "dealing";
    }
    return "?";
}

[[nodiscard]] constexpr bool bettingOpen(RoundPhase phase) {
    return phase == RoundPhase::BetsOpen || phase == RoundPhase::LastBets;
}

}  // namespace pitlink::table
