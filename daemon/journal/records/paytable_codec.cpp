#include "daemon/journal/records/paytable_codec.h"

#include <stdexcept>

#include "daemon/journal/store/chain_hasher.h"
#include "daemon/journal/store/record.h"

namespace pitlink::journal {

using nlohmann::json;

json paytableToJson(const game::Paytable& table) {
    json bets = json::object();
    for (const game::BetType type : game::kAllBetTypes) {
        if (!table.offers(type)) {
            continue;
        }
        const auto tiers = game::payTiers(type);
        const auto& lines = table.bets[static_cast<std::size_t>(type)]->tiers;
        json entry = json::object();
        for (std::size_t t = 0; t < tiers.size(); ++t) {
            if (lines[t]) {
                entry[std::string(tiers[t].name)] = lines[t]->push ? std::string("push") : lines[t]->ratio.toString();
            }
        }
        bets[std::string(game::betTypeName(type))] = std::move(entry);
    }
    return {{"id", table.id}, {"name", table.name}, {"bets", std::move(bets)}};
}

game::Paytable paytableFromJson(const json& in) {
    game::Paytable table;
    try {
        table.id = in.at("id").get<std::string>();
        table.name = in.at("name").get<std::string>();
        for (const auto& [betName, lines] : in.at("bets").items()) {
            const auto type = game::parseBetType(betName);
            if (!type) {
                throw std::invalid_argument("unknown bet " + betName);
            }
            const auto tiers = game::payTiers(*type);
            for (const auto& [tierName, value] : lines.items()) {
                int tier = -1;
                for (std::size_t t = 0; t < tiers.size(); ++t) {
                    if (tiers[t].name == tierName) {
                        tier = static_cast<int>(t);
                    }
                }
                if (tier < 0) {
                    throw std::invalid_argument(std::string(betName).append(" has no pay line ").append(tierName));
                }
                const auto text = value.get<std::string>();
                if (text == "push") {
                    table.set(*type, tier, game::Payout::pushes());
                } else if (const auto ratio = game::parseRatio(text)) {
                    table.set(*type, tier, game::Payout::pays(*ratio));
                } else {
                    throw std::invalid_argument(
                        std::string(betName).append(".").append(tierName).append(" is not a ratio: ").append(text));
                }
            }
        }
    } catch (const json::exception& error) {
        throw std::invalid_argument(std::string("malformed journaled paytable: ") + error.what());
    }
    if (const auto problem = game::paytableProblem(table)) {
        throw std::invalid_argument("journaled paytable " + table.id + ": " + *problem);
    }
    return table;
}

std::string paytableSha256(const game::Paytable& table) {
    return toHex(sha256(canonicalJson(paytableToJson(table))));
}

}  // namespace pitlink::journal
