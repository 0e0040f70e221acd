#include "daemon/journal/records/settlement_records.h"

#include <map>
#include <stdexcept>

#include "daemon/game/settlement.h"
#include "daemon/journal/records/record_kinds.h"

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

StakeSettlement stakeSettlement(game::SettleRule rule, std::span<const RoundBet> bets, const game::SettledStake& stake,
                                const game::BetSettlement& settlement) {
    StakeSettlement settled{rule, {}, stake.bet, settlement};
    for (const std::size_t i : stake.covers) {
        settled.bets.push_back(bets[i].index);
    }
    return settled;
}

json stakeSettlementJson(const StakeSettlement& settled) {
    const game::BetSettlement& settlement = settled.settlement;
    json body{
        {"spot", game::betTypeName(settled.stake.type)},
        {"stake", settled.stake.stake},
        {"result", game::betResultName(settlement.result)},
        {"tier", settlement.tier},
        {"win", settlement.win},
        {"returned", settlement.returned},
        {"breakage", settlement.breakage.reduced().toString()},
    };
    if (settled.rule == game::SettleRule::PerBet) {
        body["bet"] = settled.bets.front();
    } else {
        body["bets"] = settled.bets;
    }
    return body;
}

json toBody(const BetAdjustedRecord& record) {
    json body = stakeSettlementJson(record.settled);
    body["previous_returned"] = record.previousReturned;
    body["delta"] = record.delta;
    return body;
}

json toBody(const RoundResettledRecord& record) {
    return json{{"step", record.step},
                {"reason", record.reason},
                {"operator", record.operatorName},
                {"player", handToJson(record.player)},
                {"banker", handToJson(record.banker)},
                {"outcome", outcomeToJson(record.outcome)},
                {"previous_outcome", record.previousOutcome},
                {"paytable", record.paytable},
                {"paytable_sha256", record.paytableSha}};
}

std::vector<game::Bet> gameBets(std::span<const RoundBet> bets) {
    std::vector<game::Bet> out;
    out.reserve(bets.size());
    for (const RoundBet& bet : bets) {
        out.push_back(game::Bet{static_cast<int>(bet.station), bet.spot, bet.stake});
    }
    return out;
}

game::RoundSettlement settleBets(const game::Coup& coup, std::span<const RoundBet> bets, const game::Paytable& paytable,
                                 game::SettleRule rule) {
    return game::settleCoup(coup, gameBets(bets), paytable, rule);
}

void addSettlement(JournalTransaction& tx, std::int64_t roundId, const game::Coup& coup, std::span<const RoundBet> bets,
                   const game::RoundSettlement& settled, const game::Paytable& paytable, std::string_view paytableSha,
                   SettlementDetail detail) {
    std::size_t covered = 0;
    for (const game::SettledStake& stake : settled.stakes) {
        covered += stake.covers.size();
    }
    if (covered != bets.size() || settled.stakes.size() != settled.bets.size()) {
        throw std::logic_error("addSettlement: the settlement is not of these bets");
    }
    json body{{"player", handToJson(coup.player)},
              {"banker", handToJson(coup.banker)},
              {"outcome", outcomeToJson(settled.outcome)},
              {"paytable", paytable.id},
              {"paytable_sha256", paytableSha}};
    if (detail.recovered) {
        body["recovered"] = true;
    }
    tx.add(kind::kRoundSettled, roundId, std::nullopt, std::move(body));
    for (std::size_t i = 0; i < settled.stakes.size(); ++i) {
        const game::SettledStake& stake = settled.stakes[i];
        tx.add(kind::kBetSettled, roundId, stake.bet.station,
               stakeSettlementJson(stakeSettlement(settled.rule, bets, stake, settled.bets[i])));
    }
    // What comes back of a stake that paid back no more than itself returns to the types the
    // stake took; whatever a win pays is cashable (credit_types.h).
    std::map<std::int64_t, PromoCredits> promos;
    std::map<std::int64_t, PromoParts> returnedPromo;
    for (std::size_t i = 0; i < settled.stakes.size(); ++i) {
        const game::SettledStake& stake = settled.stakes[i];
        const std::int64_t station = stake.bet.station;
        auto promo = promos.find(station);
        if (promo == promos.end()) {
            promo = promos.emplace(station, tx.promo(station)).first;
        }
        PromoParts taken;
        for (const std::size_t betAt : stake.covers) {
            const auto it = promo->second.stakes.find(StakeKey{roundId, bets[betAt].index});
            if (it != promo->second.stakes.end()) {
                taken += it->second;
            }
        }
        returnedPromo[station] += stakeReturned(taken, stake.bet.stake, settled.bets[i].returned);
    }
    for (const auto& [station, total] : settled.stations) {
        const auto denomination = detail.denominations.find(station);
        const auto promo = returnedPromo.find(station);
        tx.credit(station, total.returned, reason::kSettlement, roundId,
                  CreditDetail{.wagered = total.wagered,
                               .denomination = denomination == detail.denominations.end()
                                                   ? std::nullopt
                                                   : std::optional<game::Money>(denomination->second),
                               .promo = promo == returnedPromo.end() ? PromoParts{} : promo->second});
    }
}

void addVoid(JournalTransaction& tx, std::int64_t roundId, std::span<const RoundBet> bets, std::string_view why,
             VoidDetail detail) {
    tx.add(RoundVoidedRecord{std::string(why), std::move(detail.by), detail.recovered, detail.afterClose}, roundId);
    std::map<std::int64_t, game::Money> stakes;
    for (const RoundBet& bet : bets) {
        stakes[bet.station] += bet.stake;
    }
    for (const auto& [station, stake] : stakes) {
        tx.credit(station, stake, reason::kBetReturn, roundId);
    }
}

}  // namespace pitlink::journal
