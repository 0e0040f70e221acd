// A player's dispute of a deal (seed 000 "Dispute", live games only): journaled, held for an
// operator, resolved by the operator (upheld or rejected, optionally by re-settling the round with
// corrected cards), and the station told at each step. While a dispute is open the table opens no
// round: the floor settles the question before the next deal (README "Disputes").
#include "daemon/journal/records/round_records.h"
#include "daemon/table/table.h"

namespace pitlink::table {

void Table::dispute(std::int64_t number, std::int64_t round, const std::string& text, Respond respond) {
    const journal::RefusedRequest detail{.round = round};
    if (number < 1 || number > stationCount()) {
        refuse("dispute", number, respond, *stationProblem(number), detail);
        return;
    }
    if (settings_.source == CardSource::Rng) {
        refuse("dispute", number, respond,
               Reply::refused("live_only", "disputes are for live games: this table deals from its own RNG shoe"),
               detail);
        return;
    }
    // The deal in progress, or the last one: the round before it while a round is open.
    const bool current = round == roundId_ && round >= 1;
    const bool last = phase_ != RoundPhase::Idle && round == previousRoundId_ && round >= 1;
    if (!current && !last) {
        refuse("dispute", number, respond,
               Reply::refused("not_current_or_last", "only the current deal (" + std::to_string(roundId_) +
                                                         ") or the last one can be disputed"),
               detail);
        return;
    }
    Station& s = stationAt(number);
    if (s.dispute) {
        refuse("dispute", number, respond,
               Reply::refused("dispute_open", "station " + std::to_string(number) + " has a dispute of round " +
                                                  std::to_string(s.dispute->round) +
                                                  " open until an operator resolves it"),
               detail);
        return;
    }
    s.dispute = journal::DisputeFact{round, text.substr(0, 500)};
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::DisputeRaisedRecord{s.dispute->text, true}, round, number);
    commit(std::move(tx), std::move(respond), Reply::accepted(RoundAnswer{round}),
           [this, event = DisputeChanged{number, round, true, s.dispute->text, false, false, {}}] { publish(event); });
}

void Table::resolveDispute(const DisputeDecision& decision, const CorrectedRound& correction, Respond respond) {
    const journal::RefusedRequest detail{.decision = decision.upheld ? "upheld" : "rejected", .by = decision.who};
    const std::int64_t number = decision.station;
    if (number < 1 || number > stationCount() || !station(number).dispute ||
        (decision.round && *decision.round != station(number).dispute->round)) {
        refuse("dispute_resolve", number, respond,
               Reply::refused("no_dispute", "station " + std::to_string(number) + " has no open dispute" +
                                                (decision.round ? " of round " + std::to_string(*decision.round) : "")),
               detail);
        return;
    }
    Station& s = stationAt(number);
    const std::int64_t round = s.dispute->round;
    journal::JournalTransaction tx = journal_.begin();
    std::optional<ResettleAnswer> resettled;
    if (correction.round != nullptr) {
        if (!decision.upheld || correction.round->roundId != round || correction.paytable == nullptr) {
            refuse("dispute_resolve", number, respond,
                   Reply::refused("bad_request", "only an upheld dispute re-settles, and only its own round"), detail);
            return;
        }
        auto result =
            addResettlement(tx, *correction.round, *correction.paytable, correction.cards,
                            "dispute of station " + std::to_string(number) + ": " + decision.reason, decision.who);
        if (auto* refusal = std::get_if<Reply>(&result)) {
            refuse("dispute_resolve", number, respond, std::move(*refusal), detail);
            return;
        }
        resettled = std::get<ResettleAnswer>(std::move(result));
    }
    s.dispute.reset();
    // In the re-settlement's transaction: the decision and the money it moved commit together.
    tx.add(journal::DisputeResolvedRecord{decision.upheld, decision.reason, decision.who, resettled.has_value()}, round,
           number);
    const DisputeChanged event{number,      round, false, decision.reason, decision.upheld, resettled.has_value(),
                               decision.who};
    commit(std::move(tx), std::move(respond),
           Reply::accepted(DisputeResolvedAnswer{number, round, decision.upheld, resettled}), [this, event, resettled] {
               if (resettled) {
                   publishResettledCredits(*resettled);
               }
               publish(event);
           });
    scheduleNextRound();  // an RNG table's cycle waits for no one else (a reader's engine opens rounds)
}

}  // namespace pitlink::table
