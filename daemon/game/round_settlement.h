#pragma once
// A whole round's settlement, the game rule computed once: the coup's outcome, every bet
// settled, and per station what it wagered, got back and won, and how its even-money (Player /
// Banker) bets went for the anti-doubling streak. The table, recovery and the journal's records
// all take this one result; nobody evaluates the coup again.
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "daemon/game/hand.h"
#include "daemon/game/outcome.h"
#include "daemon/game/paytable.h"
#include "daemon/game/settlement.h"

namespace pitlink::game {

struct StationSettlement {
    Money wagered = 0;
    Money returned = 0;  // stake + win on wins, stake on pushes
    Money win = 0;       // on top of the stakes
    Money evenMoneyStake = 0;
    // Win if any even-money bet won, loss if all of them lost, else push (also with none).
    BetResult evenMoney = BetResult::Push;
};

struct RoundSettlement {
    Outcome outcome;
    std::vector<BetSettlement> bets;                     // in the order of the bets given
    std::map<std::int64_t, StationSettlement> stations;  // every station with a bet
};

[[nodiscard]] RoundSettlement settleCoup(const Coup& coup, std::span<const Bet> bets, const Paytable& table);

}  // namespace pitlink::game
