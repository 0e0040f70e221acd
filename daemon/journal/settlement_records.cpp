#include "daemon/journal/settlement_records.h"

#include <map>
#include <stdexcept>

#include "daemon/game/settlement.h"
#include "daemon/journal/record_kinds.h"

namespace pitlink::journal {

using nlohmann::json;

json handToJson(const game::Hand& hand) {
    return hand.cardNames();
}

json outcomeToJson(const game::Outcome& outcome) {
    return {
        {"winner", game::winnerName(outcome.winner)}, {"player_total", outcome.playerTotal},
        {"banker_total", outcome.bankerTotal},        {"player_pair", outcome.playerPair},
        {"banker_pair", outcome.bankerPair},          {"natural", outcome.natural()},
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

std::vector<game::Bet> gameBets(std::span<const RoundBet> bets) {
    std::vector<game::Bet> out;
    out.reserve(bets.size());
    for (const RoundBet& bet : bets) {
        out.push_back(game::Bet{static_cast<int>(bet.station), bet.spot, bet.stake});
    }
    return out;
}

void addSettlement(JournalTransaction& tx, std::int64_t roundId, const game::Coup& coup, std::span<const RoundBet> bets,
                   const game::RoundSettlement& settled, const game::Paytable& paytable, std::string_view paytableSha,
                   json extra) {
    if (settled.bets.size() != bets.size()) {
        throw std::logic_error("addSettlement: the settlement is not of these bets");
    }
    extra["player"] = handToJson(coup.player);
    extra["banker"] = handToJson(coup.banker);
    extra["outcome"] = outcomeToJson(settled.outcome);
    extra["paytable"] = paytable.id;
    extra["paytable_sha256"] = paytableSha;
    tx.add(kind::kRoundSettled, roundId, std::nullopt, std::move(extra));
    for (std::size_t i = 0; i < bets.size(); ++i) {
        tx.add(kind::kBetSettled, roundId, bets[i].station, settledBetJson(bets[i], settled.bets[i]));
    }
    for (const auto& [station, total] : settled.stations) {
        tx.credit(station, total.returned, reason::kSettlement, roundId, json{{"wagered", total.wagered}});
    }
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
