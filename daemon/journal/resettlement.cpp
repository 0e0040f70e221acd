#include "daemon/journal/resettlement.h"

#include <map>
#include <stdexcept>

#include "daemon/game/outcome.h"
#include "daemon/game/settlement.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/settlement_records.h"

namespace pitlink::journal {

using nlohmann::json;

Resettlement addResettlement(JournalTransaction& tx, const RoundHistory& round, const game::Paytable& paytable,
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
    Resettlement added{RoundResettledRecord{round.resettlements + 1, request.reason, request.operatorName, coup->player,
                                            coup->banker, outcome, round.settlement.value("outcome", json::object()),
                                            paytable.id, round.paytableSha},
                       {},
                       {}};
    tx.add(added.round, round.roundId);
    std::map<std::int64_t, game::Money> deltas;
    for (std::size_t i = 0; i < settled.stakes.size(); ++i) {
        const game::SettledStake& stake = settled.stakes[i];
        const game::BetSettlement& settlement = settled.bets[i];
        const std::int64_t station = round.bets[stake.covers.front()].station;
        const auto previous = round.outcomes.find(round.bets[stake.covers.front()].index);
        const game::Money before = previous == round.outcomes.end() ? 0 : previous->second.returned;
        const AdjustedStake& adjusted = added.stakes.emplace_back(
            AdjustedStake{station, BetAdjustedRecord{stakeSettlement(round.rule, round.bets, stake, settlement), before,
                                                     settlement.returned - before}});
        tx.add(adjusted.adjusted, round.roundId, station);
        deltas[station] += settlement.returned - before;
    }
    for (const auto& [station, due] : deltas) {
        if (due == 0) {
            continue;
        }
        // Credits taken back are cashable (a re-settlement's adjustment is; credit_types.h).
        const game::Money available = tx.balance(station) - tx.promo(station).held.total();
        const game::Money moved = due < 0 && -due > available ? -available : due;
        CreditDetail detail{.due = due};
        if (moved != due) {
            detail.shortfall = moved - due;
        }
        tx.credit(station, moved, reason::kResettlement, round.roundId, std::move(detail));
        added.credits[station] = *recordOf<CreditRecord>(tx.facts().back());
    }
    return added;
}

}  // namespace pitlink::journal
