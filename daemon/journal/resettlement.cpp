#include "daemon/journal/resettlement.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "daemon/game/outcome.h"
#include "daemon/game/settlement.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/settlement_records.h"
#include "daemon/journal/records/typed_record.h"

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
    // Each bet's promotional parts, from its bet credit ("bet N"): a stake that comes back
    // returns to them, before and after the correction (credit_types.h).
    std::map<std::int64_t, PromoParts> betPromo;
    for (const JournalRecord& r : round.records) {
        if (r.kind != kind::kCredit || !r.station) {
            continue;
        }
        const json body = json::parse(r.body, nullptr, false);
        if (!body.is_object() || body.value("reason", std::string()) != reason::kBet) {
            continue;
        }
        const CreditRecord bet = readBody<CreditRecord>(body);
        if (const auto index = betOfRef(bet.ref)) {
            betPromo[*index] = bet.promo.negated();
        }
    }
    std::map<std::int64_t, game::Money> deltas;
    std::map<std::int64_t, PromoParts> promoDeltas;
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
        PromoParts taken;
        for (const std::size_t at : stake.covers) {
            const auto it = betPromo.find(round.bets[at].index);
            if (it != betPromo.end()) {
                taken += it->second;
            }
        }
        promoDeltas[station] += stakeReturned(taken, stake.bet.stake, settlement.returned);
        promoDeltas[station] += stakeReturned(taken, stake.bet.stake, before).negated();
    }
    for (const auto& [station, due] : deltas) {
        if (due == 0) {
            continue;
        }
        // Credits taken back are cashable (a re-settlement's adjustment is; credit_types.h).
        // Each type moves its own difference; what is taken back is taken from that type, as far
        // as the station still holds it (the rest is the shortfall, journaled).
        const PromoParts held = tx.promo(station).held;
        const PromoParts promo = promoDeltas[station];
        const auto takeBack = [](Money delta, Money have) { return delta >= 0 ? delta : -std::min(-delta, have); };
        const PromoParts promoMoved{takeBack(promo.restricted, held.restricted),
                                    takeBack(promo.nonrestricted, held.nonrestricted)};
        const game::Money cashableHeld = tx.balance(station) - held.total();
        const game::Money moved = takeBack(due - promo.total(), cashableHeld) + promoMoved.total();
        CreditDetail detail{.due = due, .promo = promoMoved};
        if (moved != due) {
            detail.shortfall = moved - due;
        }
        tx.credit(station, moved, reason::kResettlement, round.roundId, std::move(detail));
        added.credits[station] = *recordOf<CreditRecord>(tx.facts().back());
    }
    return added;
}

}  // namespace pitlink::journal
