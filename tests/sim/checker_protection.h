#pragma once
// The checker's own following of game protection (issue 38; docs/protection.md), from the journal:
// - each game's known composition (full decks at shoe.started, less the burn's turned card: the
//   RNG shoe's burn_card, a reader's first burned card; less every card dealt), by its own count;
// - every shoe.edge is for the game's shoe and its next round (or the round just opened), names
//   as many known cards as that count, has a figure for each watched bet and closes the bets
//   their rules close; for one composition in eight, and wherever a decision lies within a part
//   per million of its threshold, its figures are those of the checker's composition
//   (game::sideBetEdges, brute-force tested in the unit tier) and the closures exact
//   (game::BetEdge::above);
// - a bet accepted on a side bet under `close` has the edge of its round journaled before it, not
//   closing it; a side_bet_closed refusal has that edge closing it; a side_bet_edge_pending
//   refusal has none journaled for its round since the shoe last moved or the daemon started.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "daemon/game/paytable.h"
#include "daemon/game/shoe_composition.h"
#include "daemon/game/side_bet_guard.h"
#include "tests/sim/checker_files.h"

namespace pitlink::sim {

// The simulation's protection (every game): pitlink.yaml's text and the rules it gives.
[[nodiscard]] std::string simProtectionYaml();
[[nodiscard]] std::vector<game::SideBetRule> simProtectionRules();

struct ProtectionCounts {
    std::int64_t edges = 0;            // shoe.edge records checked
    std::int64_t edgesRecomputed = 0;  // of them, whose figures the checker computed again
    std::int64_t closures = 0;         // shoe.edge records closing at least one bet
    std::int64_t acceptedGuarded = 0;  // bets accepted on a side bet under `close`
    std::int64_t refusedClosed = 0;
    std::int64_t refusedPending = 0;
    std::int64_t alerts = 0;
};

class ProtectionChecker {
public:
    using Problem = std::function<void(const std::string&)>;
    explicit ProtectionChecker(std::vector<game::SideBetRule> rules);

    // Every record, in order; `game` the game it belongs to.
    void feed(const CheckerRow& r, const std::string& game, const Problem& problem);
    [[nodiscard]] const ProtectionCounts& counts() const { return counts_; }

private:
    struct Game {
        std::int64_t shoe = 0;
        std::int64_t roundInShoe = 0;  // the last opened
        bool roundOpen = false;
        bool dealing = false;         // a card of the open round is out
        game::ShoeComposition known;  // now
        game::ShoeComposition base;   // when the shoe last moved on: what the next edge is of
        // The last shoe.edge's round of this shoe and what it closed, while the shoe has not moved
        // on since (nullopt: none).
        std::optional<std::int64_t> edgeRound;
        std::set<std::string> closed;
    };
    void edge(const CheckerRow& r, Game& g, const Problem& problem);
    void bet(const CheckerRow& r, const Game& g, const std::string& game, const Problem& problem);
    [[nodiscard]] const game::SideBetRule* closeRule(const std::string& spot) const;

    std::vector<game::SideBetRule> rules_;
    game::Paytable paytable_;
    std::map<std::string, Game> games_;
    ProtectionCounts counts_;
};

}  // namespace pitlink::sim
