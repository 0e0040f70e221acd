// Re-settlement of a finished round (SPEC.md, seed 004) on the table's journal, so that the
// credits it moves reach the stations' committed credits and their events like any other.
#include "daemon/journal/record_kinds.h"
#include "daemon/journal/resettlement.h"
#include "daemon/table/table.h"

namespace pitlink::table {

using nlohmann::json;

void Table::resettle(const journal::RoundHistory& round, const game::Paytable& paytable,
                     const std::vector<game::Card>& cards, const std::string& reason, const std::string& who,
                     Respond respond) {
    const json detail{{"round", round.roundId}, {"reason", reason}, {"by", who}};
    if (round.roundId == roundId_ && phase_ != RoundPhase::Idle) {
        refuse("resettle", std::nullopt, respond,
               Reply::refused("round_in_progress", "round " + std::to_string(round.roundId) +
                                                       " is still in progress; it can be re-settled once settled"),
               detail);
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    try {
        journal::addResettlement(tx, round, paytable, journal::ResettlementRequest{round.roundId, cards, reason, who});
    } catch (const std::exception& error) {
        refuse("resettle", std::nullopt, respond, Reply::refused("cannot_resettle", error.what()), detail);
        return;
    }
    json adjusted = json::array();
    json moved = json::object();
    for (const journal::Fact& fact : tx.facts()) {
        if (fact.kind == journal::kind::kBetAdjusted) {
            json bet = fact.body;
            bet["station"] = fact.station.value_or(0);
            adjusted.push_back(std::move(bet));
        } else if (fact.kind == journal::kind::kCredit && fact.station) {
            moved[std::to_string(*fact.station)] = fact.body;
        } else if (fact.kind == journal::kind::kRoundResettled) {
            adjusted.push_back(json{{"outcome", fact.body.at("outcome")},
                                    {"previous_outcome", fact.body.at("previous_outcome")},
                                    {"step", fact.body.at("step")}});
        }
    }
    std::vector<std::int64_t> stations;
    for (const auto& [station, body] : moved.items()) {
        stations.push_back(std::stoll(station));
    }
    commit(std::move(tx), std::move(respond), Reply::accepted(ResettleAnswer{round.roundId, adjusted, moved}),
           [this, stations, roundId = round.roundId] {
               for (const std::int64_t number : stations) {
                   publish(CreditsChanged{number, journal_.committed().credits(number), roundId});
               }
           });
}

}  // namespace pitlink::table
