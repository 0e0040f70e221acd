#pragma once
// Game protection's records (issue 38; schema/README.md "Game protection"): the exact edge of each
// watched side bet for the next round of a shoe, and a station reported as a possible counter.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "daemon/journal/records/record_kinds.h"

namespace pitlink::journal {

// shoe.edge: for the round `round_in_shoe` of shoe `shoe`, dealt from `cards_known` cards (the shoe
// less every card shown: dealt cards, the burn's turned card), each watched side bet's edge for
// the player in ppm (rounded toward zero; what decided is the exact fraction), and the side bets
// closed for that round by their `close` rule.
struct ShoeEdgeRecord {
    static constexpr std::string_view kKind = kind::kShoeEdge;
    std::int64_t shoe = 0;
    std::int64_t roundInShoe = 0;  // the round this edge is for (1: the shoe's first)
    std::int64_t cardsKnown = 0;
    std::map<std::string, std::int64_t> edges;  // side bet -> ppm
    std::vector<std::string> closed;            // in bet order
    friend bool operator==(const ShoeEdgeRecord&, const ShoeEdgeRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const ShoeEdgeRecord& record);
[[nodiscard]] ShoeEdgeRecord fromBody(const nlohmann::json& body, std::type_identity<ShoeEdgeRecord>);

// protection.alert: a station's stakes on a side bet lined up with its edge through shoe `shoe`
// beyond the configured level (game::CounterScore). Figures in whole units (ppm) and hundredths
// of a standard deviation: the journal holds no floating point.
struct ProtectionAlertRecord {
    static constexpr std::string_view kKind = kind::kProtectionAlert;
    std::int64_t shoe = 0;
    std::string bet;
    std::int64_t rounds = 0;         // rounds the station could bet it
    std::int64_t staked = 0;         // its stakes on it, summed (minor units)
    std::int64_t meanEdgePpm = 0;    // the shoe's mean edge over those rounds
    std::int64_t stakedEdgePpm = 0;  // the station's stake-weighted mean edge
    std::int64_t zHundredths = 0;    // the score, in hundredths of a standard deviation
    friend bool operator==(const ProtectionAlertRecord&, const ProtectionAlertRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const ProtectionAlertRecord& record);
[[nodiscard]] ProtectionAlertRecord fromBody(const nlohmann::json& body, std::type_identity<ProtectionAlertRecord>);

}  // namespace pitlink::journal
