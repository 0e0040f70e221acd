#include "tests/sim/checker_protection.h"

#include <array>
#include <sstream>

#include "daemon/config/config.h"
#include "daemon/config/paytable_loader.h"
#include "daemon/game/card.h"
#include "daemon/game/side_bet_edge.h"

namespace pitlink::sim {

namespace {

// The edges of a composition, computed once per process: a check after a crash feeds the journal
// again from its start, and the daemon computes the same compositions again after each restart.
const std::vector<game::BetEdge>& edgesOf(const game::Paytable& paytable, const game::ShoeComposition& composition) {
    static std::map<std::array<int, game::kCardsPerDeck>, std::vector<game::BetEdge>> cache;
    std::array<int, game::kCardsPerDeck> key{};
    for (int i = 0; i < game::kCardsPerDeck; ++i) {
        key[static_cast<std::size_t>(i)] = composition.count(i);
    }
    if (cache.size() > 200'000) {
        cache.clear();
    }
    auto [it, fresh] = cache.try_emplace(key);
    if (fresh) {
        it->second = game::sideBetEdges(paytable, composition);
    }
    return it->second;
}

}  // namespace

std::string simProtectionYaml() {
    // Thresholds a one-deck shoe crosses often (about one round in five for each): Player Pair
    // closes above -26 %, Tie above -13.5 %, Small above 0; the other pairs and Big watched.
    // Counters reported early, without calling an attendant.
    return "protection:\n"
           "  enabled: true\n"
           "  side_bets:\n"
           "    player_pair: {action: close, above_ppm: -260000}\n"
           "    tie: {action: close, above_ppm: -135000}\n"
           "    small: {action: close, above_ppm: 0}\n"
           "    banker_pair: {action: alert}\n"
           "    big: {action: alert, above_ppm: 0}\n"
           "  counter: {alert_z: 3, min_rounds: 10, min_staked_rounds: 2, call_attendant: false}\n";
}

std::vector<game::SideBetRule> simProtectionRules() {
    // Read from the very text pitlinkd is given, as pitlinkd reads it.
    std::istringstream text(simProtectionYaml());
    return config::loadConfig(text, "simProtectionYaml").protection.sideBets;
}

ProtectionChecker::ProtectionChecker(std::vector<game::SideBetRule> rules)
    : rules_(std::move(rules)),
      paytable_(config::loadPaytableFile(PITLINK_SOURCE_DIR "/etc/paytables/standard.yaml")) {}

const game::SideBetRule* ProtectionChecker::closeRule(const std::string& spot) const {
    for (const game::SideBetRule& rule : rules_) {
        if (rule.action == game::EdgeAction::Close && game::betTypeName(rule.bet) == spot) {
            return &rule;
        }
    }
    return nullptr;
}

void ProtectionChecker::feed(const CheckerRow& r, const std::string& game, const Problem& problem) {
    const std::string_view k = r.kind;
    const nlohmann::json& body = *r.body;
    const auto card = [](const nlohmann::json& name) { return *game::parseCard(name.get<std::string>()); };
    if (k == "daemon.started") {
        for (auto& [name, g] : games_) {
            g.edgeRound.reset();  // a new process knows no edge until it has computed one
        }
        return;
    }
    Game& g = games_[game];
    if (k == "shoe.started") {
        g = Game{};
        g.shoe = body.at("shoe").get<std::int64_t>();
        g.known = game::ShoeComposition::fullDecks(body.at("decks").get<int>());
        if (body.contains("burn_card")) {
            g.known.remove(card(body.at("burn_card")));  // the RNG burn's turned card is shown
        }
        g.base = g.known;
    } else if (k == "shoe.burned") {
        g.known.remove(card(body.at("cards").at(0)));  // the rest are burned face down
        g.base = g.known;
        g.edgeRound.reset();
    } else if (k == "round.opened") {
        g.roundInShoe = body.at("round_in_shoe").get<std::int64_t>();
        g.roundOpen = true;
    } else if (k == "card.dealt") {
        g.known.remove(card(body.at("card")));
    } else if (k == "round.settled" || k == "round.voided") {
        g.roundOpen = false;
        g.base = g.known;
    } else if (k == "shoe.edge") {
        edge(r, g, problem);
    } else if (k == "bet.accepted" || k == "bet.refused") {
        bet(r, g, game, problem);
    } else if (k == "protection.alert") {
        ++counts_.alerts;
    }
}

void ProtectionChecker::edge(const CheckerRow& r, Game& g, const Problem& problem) {
    const nlohmann::json& body = *r.body;
    const std::string at = "record " + std::to_string(r.seq) + " (shoe.edge)";
    ++counts_.edges;
    const std::int64_t round = g.roundOpen ? g.roundInShoe : g.roundInShoe + 1;
    if (body.at("shoe") != g.shoe || body.at("round_in_shoe") != round) {
        problem(at + ": for round " + body.at("round_in_shoe").dump() + " of shoe " + body.at("shoe").dump() +
                ", but the next round is " + std::to_string(round) + " of shoe " + std::to_string(g.shoe));
        return;
    }
    if (body.at("cards_known") != g.base.total()) {
        problem(at + ": " + body.at("cards_known").dump() + " cards known, by the checker's count " +
                std::to_string(g.base.total()));
        return;
    }
    // Each edge figure is recomputed for one composition in eight (by the composition itself, so
    // that the same ones every time) and wherever a rule's decision lies within a part per million
    // of its threshold; elsewhere the figure decides (a ppm rounded toward zero at least 2 above
    // the threshold is above it, one at most 1 below it is not).
    const bool sampled = (g.base.total() * 31 + g.base.count(0) * 7 + g.base.count(25) + g.shoe) % 8 == 0;
    const nlohmann::json& figures = body.at("edges");
    std::set<std::string> closed;
    bool exact = sampled;
    for (const game::SideBetRule& rule : rules_) {
        const std::string name(game::betTypeName(rule.bet));
        if (!figures.contains(name) || !figures.at(name).is_number_integer()) {
            problem(at + ": no edge for " + name);
            return;
        }
        const std::int64_t ppm = figures.at(name).get<std::int64_t>();
        if (rule.action == game::EdgeAction::Close) {
            if (ppm >= rule.abovePpm + 2) {
                closed.insert(name);
            } else if (ppm > rule.abovePpm - 1) {
                exact = true;
            }
        }
    }
    if (exact) {
        ++counts_.edgesRecomputed;
        closed.clear();
        for (const game::BetEdge& e : edgesOf(paytable_, g.base)) {
            const std::string name(game::betTypeName(e.bet));
            const game::SideBetRule* rule = nullptr;
            for (const game::SideBetRule& candidate : rules_) {
                rule = candidate.bet == e.bet ? &candidate : rule;
            }
            if (rule == nullptr) {
                continue;
            }
            if (figures.at(name) != e.ppm()) {
                problem(at + ": " + name + "'s edge " + figures.at(name).dump() +
                        " ppm, by the checker's composition " + std::to_string(e.ppm()));
            }
            if (rule->action == game::EdgeAction::Close && e.above(rule->abovePpm)) {
                closed.insert(name);
            }
        }
    }
    if (body.at("closed").get<std::set<std::string>>() != closed) {
        problem(at + ": closed " + body.at("closed").dump() + ", by the rules " + nlohmann::json(closed).dump());
    }
    counts_.closures += closed.empty() ? 0 : 1;
    g.edgeRound = round;
    g.closed = std::move(closed);
}

void ProtectionChecker::bet(const CheckerRow& r, const Game& g, const std::string& game, const Problem& problem) {
    const nlohmann::json& body = *r.body;
    const std::string at = "record " + std::to_string(r.seq) + " (" + r.kind + ", station " +
                           std::to_string(r.station.value_or(0)) + (game.empty() ? "" : ", " + game) + ")";
    const bool known = g.roundOpen && g.edgeRound == g.roundInShoe;
    if (r.kind == "bet.accepted") {
        const std::string spot = body.at("spot").get<std::string>();
        if (closeRule(spot) == nullptr) {
            return;
        }
        ++counts_.acceptedGuarded;
        if (!known) {
            problem(at + ": " + spot + " taken before the edge of round " + std::to_string(g.roundInShoe) +
                    " was journaled");
        } else if (g.closed.contains(spot)) {
            problem(at + ": " + spot + " taken though its edge closed it");
        }
        return;
    }
    const std::string rule = body.at("rule").get<std::string>();
    if (rule != "side_bet_closed" && rule != "side_bet_edge_pending") {
        return;
    }
    bool guarded = false;
    bool closedSpot = false;
    for (const auto& [spot, stake] : body.at("slip").items()) {
        guarded = guarded || closeRule(spot) != nullptr;
        closedSpot = closedSpot || g.closed.contains(spot);
    }
    if (rule == "side_bet_closed") {
        ++counts_.refusedClosed;
        if (!known || !closedSpot) {
            problem(at + ": refused side_bet_closed, but no edge of round " + std::to_string(g.roundInShoe) +
                    " closed a bet of " + body.at("slip").dump());
        }
    } else {
        ++counts_.refusedPending;
        if (known || !guarded) {
            problem(at + ": refused side_bet_edge_pending, but " +
                    (guarded ? "the edge of round " + std::to_string(g.roundInShoe) + " was journaled"
                             : "no bet of " + body.at("slip").dump() + " waits for an edge"));
        }
    }
}

}  // namespace pitlink::sim
