#pragma once
// A whole round's settlement, the game rule computed once: the coup's outcome, every stake
// settled, and per station what it wagered, got back and won, and how its even-money (Player /
// Banker) bets went for the anti-doubling streak. The table, recovery and the journal's records
// all take this one result; nobody evaluates the coup again.
//
// What one settlement covers is the round's rule (docs: "Settlement by spot"): a spot is one bet,
// however many requests built its stake, so the paytable, its floor rounding and the jackpot limit
// apply to the spot's whole stake (banker 1,010 raised by 10 wins floor(1,020 x 19/20) = 969, not
// 959 + 9). Rounds journaled before that rule settled each addition on its own and are
// re-settled, recalled and audited under the rule they were opened with.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "daemon/game/hand.h"
#include "daemon/game/outcome.h"
#include "daemon/game/paytable.h"
#include "daemon/game/settlement.h"

namespace pitlink::game {

enum class SettleRule : std::uint8_t {
    PerBet,   // each addition on its own (rounds opened before settlement by spot)
    PerSpot,  // each station's spot on its whole stake
};
[[nodiscard]] std::string_view settleRuleName(SettleRule rule);  // "bet", "spot"
[[nodiscard]] std::optional<SettleRule> parseSettleRule(std::string_view name);

// One stake as the rule settles it: the bets it sums (positions in the bets given, ascending).
struct SettledStake {
    Bet bet;  // the station, the spot and the summed stake
    std::vector<std::size_t> covers;
};

// The stakes the rule settles, in the order their first bet was given: per bet, one for each;
// per spot, one for each station's spot.
[[nodiscard]] std::vector<SettledStake> stakesToSettle(std::span<const Bet> bets, SettleRule rule);

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
    SettleRule rule = SettleRule::PerSpot;
    std::vector<SettledStake> stakes;                    // what was settled (stakesToSettle)
    std::vector<BetSettlement> bets;                     // the settlement of each of `stakes`
    std::map<std::int64_t, StationSettlement> stations;  // every station with a bet
};

[[nodiscard]] RoundSettlement settleCoup(const Coup& coup, std::span<const Bet> bets, const Paytable& table,
                                         SettleRule rule);

}  // namespace pitlink::game
