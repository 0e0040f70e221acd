#include "daemon/journal/resettlement.h"

#include <map>
#include <stdexcept>

#include "daemon/game/outcome.h"
#include "daemon/game/settlement.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/settlement_records.h"

namespace pitlink::journal {

using nlohmann::json;

void addResettlement(JournalTransaction& tx, const RoundHistory& round, const game::Paytable& paytable,
                     const ResettlementRequest& request) {
    if (round.state != RoundState::Settled) {
        throw std::invalid_argument("round " + std::to_string(round.roundId) + " is " +
                                    std::string(roundStateName(round.state)) +
                                    ", only a settled round can be re-settled");
    }
    if (request.reason.empty() || request.operatorName.empty()) {
        throw std::invalid_argument("a re-settlement needs a reason and an operator");
    }
    std::vector<DealtCard> dealt;
    for (std::size_t i = 0; i < request.cards.size(); ++i) {
        dealt.push_back(DealtCard{static_cast<std::int64_t>(i) + 1, request.cards[i]});
    }
    std::string problem;
    const auto coup = completeCoup(dealt, problem);
    if (!coup) {
        throw std::invalid_argument("corrected cards: " + problem);
    }
    // Under the rule the round was opened with: a round settled per bet is re-settled per bet.
    const game::RoundSettlement settled = settleBets(*coup, round.bets, paytable, round.rule);
    const game::Outcome& outcome = settled.outcome;
    tx.add(kind::kRoundResettled, round.roundId, std::nullopt,
           json{{"step", round.resettlements + 1},
                {"reason", request.reason},
                {"operator", request.operatorName},
                {"player", handToJson(coup->player)},
                {"banker", handToJson(coup->banker)},
                {"outcome", outcomeToJson(outcome)},
                {"previous_outcome", round.settlement.value("outcome", json::object())},
                {"paytable", paytable.id},
                {"paytable_sha256", round.paytableSha}});
    std::map<std::int64_t, game::Money> deltas;
    for (std::size_t i = 0; i < settled.stakes.size(); ++i) {
        const game::SettledStake& stake = settled.stakes[i];
        const game::BetSettlement& settlement = settled.bets[i];
        const std::int64_t station = round.bets[stake.covers.front()].station;
        const auto previous = round.outcomes.find(round.bets[stake.covers.front()].index);
        const game::Money before = previous == round.outcomes.end() ? 0 : previous->second.returned;
        json body = settledStakeJson(round.rule, round.bets, stake, settlement);
        body["previous_returned"] = before;
        body["delta"] = settlement.returned - before;
        tx.add(kind::kBetAdjusted, round.roundId, station, std::move(body));
        deltas[station] += settlement.returned - before;
    }
    for (const auto& [station, due] : deltas) {
        if (due == 0) {
            continue;
        }
        const game::Money available = tx.balance(station);
        const game::Money moved = due < 0 && -due > available ? -available : due;
        json extra{{"due", due}};
        if (moved != due) {
            extra["shortfall"] = moved - due;
        }
        tx.credit(station, moved, reason::kResettlement, round.roundId, std::move(extra));
    }
}

}  // namespace pitlink::journal
