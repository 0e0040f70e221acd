#include "daemon/journal/read/shoe_protection.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

#include "daemon/game/bet_type.h"
#include "daemon/journal/read/round_history.h"
#include "daemon/journal/records/typed_record.h"
#include "daemon/journal/resume_facts.h"

namespace pitlink::journal {

namespace {

// The records of `kind` naming shoe `shoe`, in journal order, from segments `first` to `last`.
template <typename Visit>
void recordsOfShoe(SegmentedJournal& journal, std::string_view kind, std::int64_t shoe, std::size_t first,
                   std::size_t last, Visit&& visit) {
    for (std::size_t i = first; i <= last && i < journal.size(); ++i) {
        auto query = journal.segment(i).connection().prepare(
            "SELECT station, body FROM record WHERE kind = ? AND json_extract(body, '$.shoe') = ? ORDER BY seq");
        query.bind(1, kind);
        query.bind(2, shoe);
        while (query.step()) {
            visit(query.isNull(0) ? std::nullopt : std::optional(query.integer(0)),
                  nlohmann::json::parse(query.text(1)));
        }
    }
}

}  // namespace

ShoeProtection shoeProtection(SegmentedJournal& journal, std::int64_t shoe) {
    ShoeProtection out;
    out.shoe = shoe;
    // The segments of its rounds, and the one after the last (the edge of the round after it, a
    // report in the settlement that ended it, may open the next segment); a shoe without a round
    // is looked for in the active segment, where a shoe just started is.
    const std::vector<std::int64_t> rounds = roundsOfShoe(journal, shoe);
    const std::size_t active = journal.size() - 1;
    const std::size_t first = rounds.empty() ? active : journal.segmentOfRound(rounds.front()).value_or(0);
    const std::size_t last = rounds.empty() ? active : journal.segmentOfRound(rounds.back()).value_or(active) + 1;
    recordsOfShoe(journal, kind::kShoeEdge, shoe, first, last,
                  [&](const std::optional<std::int64_t>&, const nlohmann::json& body) {
                      out.edges.push_back(readBody<ShoeEdgeRecord>(body));
                  });
    recordsOfShoe(journal, kind::kProtectionAlert, shoe, first, last,
                  [&](const std::optional<std::int64_t>& station, const nlohmann::json& body) {
                      out.alerts.emplace_back(station.value_or(0), readBody<ProtectionAlertRecord>(body));
                  });
    if (rounds.empty() && out.edges.empty()) {
        throw std::runtime_error("the journal has no round and no edge of shoe " + std::to_string(shoe));
    }
    out.rounds = static_cast<std::int64_t>(rounds.size());
    for (const std::int64_t id : rounds) {
        const RoundHistory round = reconstructRound(journal.recordsOfRound(id));
        out.game = round.gameName;
        for (const RoundBet& bet : round.bets) {
            if (!game::isMainBet(bet.spot)) {
                out.stakes[bet.station][round.roundInShoe][std::string(game::betTypeName(bet.spot))] += bet.stake;
            }
        }
    }
    return out;
}

}  // namespace pitlink::journal
