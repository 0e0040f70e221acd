#include "daemon/journal/read/shoe_protection.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

#include "daemon/game/bet_type.h"
#include "daemon/journal/read/round_history.h"
#include "daemon/journal/records/typed_record.h"
#include "daemon/journal/resume_facts.h"

namespace pitlink::journal {

namespace {

// The records of `kind` naming shoe `shoe`, newest segments first, in journal order: a shoe's
// records lie in one segment or a few consecutive ones.
template <typename Visit>
void recordsOfShoe(SegmentedJournal& journal, std::string_view kind, std::int64_t shoe, Visit&& visit) {
    std::vector<std::vector<std::tuple<std::optional<std::int64_t>, nlohmann::json>>> parts;
    for (std::size_t i = journal.size(); i-- > 0;) {
        auto query = journal.segment(i).connection().prepare(
            "SELECT station, body FROM record WHERE kind = ? AND json_extract(body, '$.shoe') = ? ORDER BY seq");
        query.bind(1, kind);
        query.bind(2, shoe);
        std::vector<std::tuple<std::optional<std::int64_t>, nlohmann::json>> part;
        while (query.step()) {
            part.emplace_back(query.isNull(0) ? std::nullopt : std::optional(query.integer(0)),
                              nlohmann::json::parse(query.text(1)));
        }
        if (part.empty() && !parts.empty()) {
            break;
        }
        if (!part.empty()) {
            parts.push_back(std::move(part));
        }
    }
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
        for (const auto& [station, body] : *it) {
            visit(station, body);
        }
    }
}

}  // namespace

ShoeProtection shoeProtection(SegmentedJournal& journal, std::int64_t shoe) {
    ShoeProtection out;
    out.shoe = shoe;
    recordsOfShoe(journal, kind::kShoeEdge, shoe, [&](const std::optional<std::int64_t>&, const nlohmann::json& body) {
        out.edges.push_back(readBody<ShoeEdgeRecord>(body));
    });
    recordsOfShoe(journal, kind::kProtectionAlert, shoe,
                  [&](const std::optional<std::int64_t>& station, const nlohmann::json& body) {
                      out.alerts.emplace_back(station.value_or(0), readBody<ProtectionAlertRecord>(body));
                  });
    const std::vector<std::int64_t> rounds = roundsOfShoe(journal, shoe);
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
