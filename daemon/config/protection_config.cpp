#include "daemon/config/protection_config.h"

#include <string>

namespace pitlink::config {

namespace {

// The widest threshold a rule may name: a loss of the whole stake below, ten times the stake above.
constexpr std::int64_t kMostThresholdPpm = 10'000'000;

}  // namespace

void readProtection(YamlMap map, game::ProtectionRules& rules) {
    rules.enabled = map.boolean("enabled", rules.enabled);
    if (const auto bets = map.node("side_bets")) {
        YamlMap list(*bets, map.keyPath("side_bets"), map.file());
        rules.sideBets.clear();
        for (const std::string& key : list.keys()) {
            const auto bet = game::parseBetType(key);
            if (!bet || !game::isSideBet(*bet)) {
                throw list.error(key, "not a side bet (tie, player_pair, banker_pair, gold_7, lucky_nines, ...)");
            }
            YamlMap rule = list.map(key);
            game::SideBetRule read{*bet, game::EdgeAction::Alert, 0};
            const std::string action = rule.string("action", "alert");
            if (action != "alert" && action != "close") {
                throw rule.error("action", "expected alert or close");
            }
            read.action = action == "close" ? game::EdgeAction::Close : game::EdgeAction::Alert;
            read.abovePpm = rule.integer("above_ppm", 0, -kMostThresholdPpm, kMostThresholdPpm);
            rule.rejectUnknownKeys();
            rules.sideBets.push_back(read);
        }
    }
    YamlMap counter = map.map("counter");
    rules.counterAlertZ = counter.integer("alert_z", rules.counterAlertZ, 2, 100);
    rules.counterMinRounds = counter.integer("min_rounds", rules.counterMinRounds, 2, 1000);
    rules.counterMinStakedRounds = counter.integer("min_staked_rounds", rules.counterMinStakedRounds, 1, 1000);
    rules.counterCallsAttendant = counter.boolean("call_attendant", rules.counterCallsAttendant);
    counter.rejectUnknownKeys();
    map.rejectUnknownKeys();
}

}  // namespace pitlink::config
