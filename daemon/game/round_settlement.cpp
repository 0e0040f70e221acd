#include "daemon/game/round_settlement.h"

namespace pitlink::game {

RoundSettlement settleCoup(const Coup& coup, std::span<const Bet> bets, const Paytable& table) {
    RoundSettlement round;
    round.outcome = evaluate(coup);
    round.bets.reserve(bets.size());
    struct EvenMoney {
        bool anyWon = false;
        bool allLost = true;
    };
    std::map<std::int64_t, EvenMoney> even;  // stations with an even-money bet
    for (const Bet& bet : bets) {
        const BetSettlement& settled = round.bets.emplace_back(settleBet(bet, round.outcome, table));
        StationSettlement& station = round.stations[bet.station];
        station.wagered += bet.stake;
        station.returned += settled.returned;
        station.win += settled.win;
        if (isMainBet(bet.type)) {
            station.evenMoneyStake += bet.stake;
            EvenMoney& e = even[bet.station];
            e.anyWon = e.anyWon || settled.result == BetResult::Win;
            e.allLost = e.allLost && settled.result == BetResult::Loss;
        }
    }
    for (const auto& [number, e] : even) {
        round.stations[number].evenMoney = e.anyWon ? BetResult::Win : e.allLost ? BetResult::Loss : BetResult::Push;
    }
    return round;
}

}  // namespace pitlink::game
