// Re-settlement of a finished round (docs/rules.md, seed 004) on the table's journal, so that the
// credits it moves reach the stations' committed credits and their events like any other. An
// operator re-settles directly (pitlinkctl resettle) or as the decision on a player's dispute.
#include "daemon/journal/resettlement.h"
#include "daemon/table/table.h"

namespace pitlink::table {

std::variant<ResettleAnswer, Reply> Table::addResettlement(journal::JournalTransaction& tx,
                                                           const journal::RoundHistory& round,
                                                           const game::Paytable& paytable,
                                                           const std::vector<game::Card>& cards,
                                                           const std::string& reason, const std::string& who) const {
    if (round.roundId == roundId_ && phase_ != RoundPhase::Idle) {
        return Reply::refused("round_in_progress", "round " + std::to_string(round.roundId) +
                                                       " is still in progress; it can be re-settled once settled");
    }
    try {
        return ResettleAnswer{
            round.roundId, journal::addResettlement(tx, round, paytable,
                                                    journal::ResettlementRequest{round.roundId, cards, reason, who})};
    } catch (const std::exception& error) {
        return Reply::refused("cannot_resettle", error.what());
    }
}

void Table::publishResettledCredits(const ResettleAnswer& answer) {
    for (const auto& [number, credit] : answer.records.credits) {
        publish(CreditsChanged{number, journal_.committed().credits(number), answer.round, std::nullopt, {}});
    }
}

void Table::resettle(const journal::RoundHistory& round, const game::Paytable& paytable,
                     const std::vector<game::Card>& cards, const std::string& reason, const std::string& who,
                     Respond respond) {
    journal::JournalTransaction tx = journal_.begin();
    auto result = addResettlement(tx, round, paytable, cards, reason, who);
    if (auto* refusal = std::get_if<Reply>(&result)) {
        refuse("resettle", std::nullopt, respond, std::move(*refusal),
               journal::RefusedRequest{.round = round.roundId, .by = who, .reason = reason});
        return;
    }
    ResettleAnswer answer = std::get<ResettleAnswer>(std::move(result));
    commit(std::move(tx), std::move(respond), Reply::accepted(answer),
           [this, answer] { publishResettledCredits(answer); });
}

}  // namespace pitlink::table
