#include "daemon/config/paytable_loader.h"

#include <fstream>

#include "daemon/config/yaml_map.h"

namespace pitlink::config {

namespace {
using game::BetType;
using game::Payout;

Payout readPayout(const YamlMap& parent, const YAML::Node& node, const std::string& key) {
    if (!node.IsScalar()) {
        throw parent.error(node, key, "expected a ratio like \"19/20\" or push");
    }
    if (node.Scalar() == "push") {
        return Payout::pushes();
    }
    const auto ratio = game::parseRatio(node.Scalar());
    if (!ratio) {
        throw parent.error(node, key,
                           "expected an exact ratio like \"19/20\" or \"8\" (terms 0.." +
                               std::to_string(game::kMaxRatioTerm) + ") or push, got '" + node.Scalar() + "'");
    }
    return Payout::pays(*ratio);
}

void readBet(game::Paytable& table, YamlMap& bets, BetType type) {
    const std::string name(game::betTypeName(type));
    const YAML::Node node = *bets.node(name);
    const auto tiers = game::payTiers(type);
    if (node.IsScalar()) {
        if (!tiers[0].optional && tiers.size() > 1 && !tiers[1].optional) {
            throw bets.error(node, name, "needs one line per pay tier (" + std::string(tiers[0].name) + ", ...)");
        }
        table.set(type, 0, readPayout(bets, node, name));
        return;
    }
    YamlMap lines(node, bets.keyPath(name), bets.file());
    for (std::size_t t = 0; t < tiers.size(); ++t) {
        const std::string tier(tiers[t].name);
        if (lines.has(tier)) {
            table.set(type, static_cast<int>(t), readPayout(lines, *lines.node(tier), tier));
        } else if (!tiers[t].optional) {
            throw lines.error(tier, "missing pay line");
        }
    }
    lines.rejectUnknownKeys();
}
}  // namespace

game::Paytable loadPaytable(std::istream& in, const std::string& sourceName) {
    YamlMap top(parseYaml(in, sourceName), "", sourceName);
    game::Paytable table;
    table.id = top.requiredString("id");
    table.name = top.string("name", table.id);
    YamlMap bets = top.map("bets");
    for (const BetType type : game::kAllBetTypes) {
        if (bets.has(std::string(game::betTypeName(type)))) {
            readBet(table, bets, type);
        }
    }
    bets.rejectUnknownKeys();
    top.rejectUnknownKeys();
    if (const auto problem = game::paytableProblem(table)) {
        throw bets.error("", *problem);
    }
    return table;
}

game::Paytable loadPaytableFile(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) {
        throw ConfigError(path.string(), 0, 0, "", "cannot open paytable file");
    }
    return loadPaytable(in, path.string());
}

}  // namespace pitlink::config
