#pragma once
// Settlement of bets in integer minor units: a win is floor(stake * num / den), the dropped
// fraction is the bet's breakage and is reported, never lost (docs/rules.md "Money").

#include <cstdint>
#include <span>
#include <vector>

#include "daemon/game/bet_type.h"
#include "daemon/game/fraction.h"
#include "daemon/game/outcome.h"
#include "daemon/game/paytable.h"

namespace pitlink::game {

using Money = std::int64_t;  // minor units (cents)

struct Bet {
    int station = 0;
    BetType type = BetType::Player;
    Money stake = 0;
    friend bool operator==(const Bet&, const Bet&) = default;
};

enum class BetResult : std::uint8_t { Win, Push, Loss };

struct BetSettlement {
    Bet bet;
    BetResult result = BetResult::Loss;
    std::uint8_t tier = 0;    // pay tier that applied (wins and rule pushes)
    Money win = 0;            // amount won on top of the stake
    Money returned = 0;       // paid back to the station: stake + win, stake on a push, 0 on a loss
    Fraction breakage{0, 1};  // minor units dropped by the floor rounding, < 1
};

[[nodiscard]] BetSettlement settleBet(const Bet& bet, const Outcome& outcome, const Paytable& table);

// Settles every bet of a round into `out` (cleared first; no allocation once it has capacity).
void settleRound(std::span<const Bet> bets, const Outcome& outcome, const Paytable& table,
                 std::vector<BetSettlement>& out);

[[nodiscard]] std::string_view betResultName(BetResult result);

}  // namespace pitlink::game
