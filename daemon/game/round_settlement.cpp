#include "daemon/game/round_settlement.h"

#include <utility>

namespace pitlink::game {

std::string_view settleRuleName(SettleRule rule) {
    return rule == SettleRule::PerSpot ? "spot" : "bet";
}

std::optional<SettleRule> parseSettleRule(std::string_view name) {
    if (name == "spot") {
        return SettleRule::PerSpot;
    }
    if (name == "bet") {
        return SettleRule::PerBet;
    }
    return std::nullopt;
}

std::vector<SettledStake> stakesToSettle(std::span<const Bet> bets, SettleRule rule) {
    std::vector<SettledStake> stakes;
    stakes.reserve(bets.size());
    std::map<std::pair<int, BetType>, std::size_t> spots;  // (station, spot) -> its place in `stakes`
    for (std::size_t i = 0; i < bets.size(); ++i) {
        const Bet& bet = bets[i];
        if (rule == SettleRule::PerSpot) {
            const auto [it, first] = spots.try_emplace({bet.station, bet.type}, stakes.size());
            if (!first) {
                SettledStake& spot = stakes[it->second];
                spot.bet.stake += bet.stake;
                spot.covers.push_back(i);
                continue;
            }
        }
        stakes.push_back(SettledStake{bet, {i}});
    }
    return stakes;
}

RoundSettlement settleCoup(const Coup& coup, std::span<const Bet> bets, const Paytable& table, SettleRule rule) {
    RoundSettlement round;
    round.outcome = evaluate(coup);
    round.rule = rule;
    round.stakes = stakesToSettle(bets, rule);
    round.bets.reserve(round.stakes.size());
    struct EvenMoney {
        bool anyWon = false;
        bool allLost = true;
    };
    std::map<std::int64_t, EvenMoney> even;  // stations with an even-money bet
    for (const SettledStake& stake : round.stakes) {
        const Bet& bet = stake.bet;
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
