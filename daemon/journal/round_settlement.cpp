#include "daemon/journal/round_settlement.h"

#include <map>

#include "daemon/game/settlement.h"
#include "daemon/journal/record_kinds.h"

namespace pitlink::journal {

using nlohmann::json;

json handToJson(const game::Hand& hand) {
    json cards = json::array();
    for (int i = 0; i < hand.size(); ++i) {
        cards.push_back(hand[i].toString());
    }
    return cards;
}

json outcomeToJson(const game::Outcome& outcome) {
    return {
        {"winner", game::winnerName(outcome.winner)},
        {"player_total", outcome.playerTotal},
        {"banker_total", outcome.bankerTotal},
        {"player_pair", outcome.playerPair},
        {"banker_pair", outcome.bankerPair},
        {"natural", outcome.natural()},
    };
}

json settledBetJson(const RoundBet& bet, const game::BetSettlement& settlement) {
    return {
        {"bet", bet.index},
        {"spot", game::betTypeName(bet.spot)},
        {"stake", bet.stake},
        {"result", game::betResultName(settlement.result)},
        {"tier", settlement.tier},
        {"win", settlement.win},
        {"returned", settlement.returned},
        {"breakage", settlement.breakage.reduced().toString()},
    };
}

std::vector<game::BetSettlement> addSettlement(JournalTransaction& tx, std::int64_t roundId, const game::Coup& coup,
                   std::span<const RoundBet> bets, const game::Paytable& paytable, std::string_view paytableSha,
                   json extra) {
    const game::Outcome outcome = game::evaluate(coup);
    extra["player"] = handToJson(coup.player);
    extra["banker"] = handToJson(coup.banker);
    extra["outcome"] = outcomeToJson(outcome);
    extra["paytable"] = paytable.id;
    extra["paytable_sha256"] = paytableSha;
    tx.add(kind::kRoundSettled, roundId, std::nullopt, std::move(extra));

    struct StationTotal {
        game::Money wagered = 0;
        game::Money returned = 0;
    };
    std::map<std::int64_t, StationTotal> totals;
    std::vector<game::BetSettlement> settled;
    settled.reserve(bets.size());
    for (const RoundBet& bet : bets) {
        const game::BetSettlement& settlement = settled.emplace_back(
            game::settleBet(game::Bet{static_cast<int>(bet.station), bet.spot, bet.stake}, outcome, paytable));
        tx.add(kind::kBetSettled, roundId, bet.station, settledBetJson(bet, settlement));
        totals[bet.station].wagered += bet.stake;
        totals[bet.station].returned += settlement.returned;
    }
    for (const auto& [station, total] : totals) {
        tx.credit(station, total.returned, reason::kSettlement, roundId, json{{"wagered", total.wagered}});
    }
    return settled;
}

void addVoid(JournalTransaction& tx, std::int64_t roundId, std::span<const RoundBet> bets, std::string_view why,
             json extra) {
    extra["reason"] = why;
    tx.add(kind::kRoundVoided, roundId, std::nullopt, std::move(extra));
    std::map<std::int64_t, game::Money> stakes;
    for (const RoundBet& bet : bets) {
        stakes[bet.station] += bet.stake;
    }
    for (const auto& [station, stake] : stakes) {
        tx.credit(station, stake, reason::kBetReturn, roundId);
    }
}

}  // namespace pitlink::journal
