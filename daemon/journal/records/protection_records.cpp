#include "daemon/journal/records/protection_records.h"

#include "daemon/game/bet_type.h"
#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/round_records.h"

namespace pitlink::journal {

using nlohmann::json;

namespace {

// The widest edge a bet can have: a loss of the whole stake, or a win of the largest ratio
// (10^6 to one) every time.
constexpr std::int64_t kMostEdgePpm = 1'000'000'000'000;
constexpr std::int64_t kMostZHundredths = 1'000'000'000;

const std::string& sideBetName(const std::string& name, std::string_view what) {
    const auto type = game::parseBetType(name);
    if (!type || game::isMainBet(*type)) {
        throw BodyError(std::string(what) + " must name a side bet, not '" + name + "'");
    }
    return name;
}

}  // namespace

json toBody(const ShoeEdgeRecord& record) {
    json edges = json::object();
    for (const auto& [bet, ppm] : record.edges) {
        edges[bet] = ppm;
    }
    return json{{"shoe", record.shoe},
                {"round_in_shoe", record.roundInShoe},
                {"cards_known", record.cardsKnown},
                {"edges", std::move(edges)},
                {"closed", record.closed}};
}

ShoeEdgeRecord fromBody(const json& body, std::type_identity<ShoeEdgeRecord>) {
    ShoeEdgeRecord r;
    r.shoe = integerField(body, "shoe", 1, kMaxShoeNumber);
    r.roundInShoe = integerField(body, "round_in_shoe", 1, kMaxRoundInShoe);
    r.cardsKnown = integerField(body, "cards_known", 0, kMaxShoeCards);
    for (const auto& [bet, ppm] : objectField(body, "edges").items()) {
        sideBetName(bet, "a key of \"edges\"");
        r.edges[bet] = integerValue(ppm, "an edge", -kMostEdgePpm, kMostEdgePpm);
    }
    for (const json& bet : arrayField(body, "closed")) {
        const std::string& name = sideBetName(stringValue(bet, "a closed bet"), "a closed bet");
        if (!r.edges.contains(name)) {
            throw BodyError("closed bet '" + name + "' has no edge");
        }
        r.closed.push_back(name);
    }
    return r;
}

json toBody(const ProtectionAlertRecord& record) {
    return json{{"shoe", record.shoe},
                {"bet", record.bet},
                {"rounds", record.rounds},
                {"staked", record.staked},
                {"mean_edge_ppm", record.meanEdgePpm},
                {"staked_edge_ppm", record.stakedEdgePpm},
                {"z_hundredths", record.zHundredths}};
}

ProtectionAlertRecord fromBody(const json& body, std::type_identity<ProtectionAlertRecord>) {
    ProtectionAlertRecord r;
    r.shoe = integerField(body, "shoe", 1, kMaxShoeNumber);
    r.bet = sideBetName(stringField(body, "bet"), "\"bet\"");
    r.rounds = integerField(body, "rounds", 1, kMaxRoundInShoe);
    r.staked = integerField(body, "staked", 0, kMaxInt64);
    r.meanEdgePpm = integerField(body, "mean_edge_ppm", -kMostEdgePpm, kMostEdgePpm);
    r.stakedEdgePpm = integerField(body, "staked_edge_ppm", -kMostEdgePpm, kMostEdgePpm);
    r.zHundredths = integerField(body, "z_hundredths", -kMostZHundredths, kMostZHundredths);
    return r;
}

}  // namespace pitlink::journal
