#include "daemon/game/round_settlement.h"

namespace pitlink::game {

RoundSettlement settleCoup(const Coup& coup, std::span<const Bet> bets, const Paytable& table) {
    RoundSettlement round;
    round.outcome = evaluate(coup);
    round.bets.reserve(bets.size());
    std::map<std::int64_t, bool> evenWon;
    std::map<std::int64_t, bool> evenLost;
    for (const Bet& bet : bets) {
        const BetSettlement& settled = round.bets.emplace_back(settleBet(bet, round.outcome, table));
        StationSettlement& station = round.stations[bet.station];
        station.wagered += bet.stake;
        station.returned += settled.returned;
        station.win += settled.win;
        if (isMainBet(bet.type)) {
            station.evenMoneyStake += bet.stake;
            bool& won = evenWon.try_emplace(bet.station, false).first->second;
            won = won || settled.result == BetResult::Win;
            bool& lost = evenLost.try_emplace(bet.station, true).first->second;
            lost = lost && settled.result == BetResult::Loss;
        }
    }
    for (auto& [number, station] : round.stations) {
        if (station.evenMoneyStake > 0) {
            station.evenMoney = evenWon[number] ? BetResult::Win : evenLost[number] ? BetResult::Loss : BetResult::Push;
        }
    }
    return round;
}

}  // namespace pitlink::game
