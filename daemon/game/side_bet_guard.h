#pragma once
// Game protection at one game (issue 38; docs/protection.md): what the table does with the exact
// edge of each side bet (side_bet_edge.h) for the next round, and how it watches each station's
// side-bet stakes against that edge through a shoe (counter_score.h). Pure: the table computes
// the edges on a worker and gives them here; this decides, round by round, which side bets are
// closed, which wait for their edge, and which station is to be reported.
//
// The edge of a round is the one computed from the composition the round opened with. Every
// change of that composition (a round ended, a new shoe, a burn) starts a new "edge key": an edge
// computed for an older key is stale and dropped, and until the edge of the current key is in, a
// side bet under a `close` rule is not open (edge_pending): no bet is taken on a side bet whose
// edge nobody has looked at.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "daemon/game/bet_rules.h"
#include "daemon/game/bet_type.h"
#include "daemon/game/counter_score.h"
#include "daemon/game/paytable.h"
#include "daemon/game/side_bet_edge.h"

namespace pitlink::game {

enum class EdgeAction : std::uint8_t {
    Alert,  // watched: the edge is journaled and shown to surveillance, the bet stays open
    Close,  // closed for the round when the player's edge is above the threshold
};

struct SideBetRule {
    BetType bet = BetType::Tie;
    EdgeAction action = EdgeAction::Alert;
    std::int64_t abovePpm = 0;  // the player's edge above this (ppm, exactly) closes or alerts
    bool operator==(const SideBetRule&) const = default;
};

// pitlink.yaml `protection` (etc/pitlink.yaml documents each key).
struct ProtectionRules {
    bool enabled = false;
    // The side bets watched, each with its rule; a bet the paytable does not offer is left out.
    // Empty: every side bet the paytable offers, `alert` above 0 ppm.
    std::vector<SideBetRule> sideBets;
    // A station whose stakes on a side bet score this many standard deviations or more above a
    // random bettor's (CounterScore::z) is reported, once per shoe and side bet...
    std::int64_t counterAlertZ = 4;
    // ... once it had at least this many rounds the bet could be made, and staked it in this many.
    std::int64_t counterMinRounds = 20;
    std::int64_t counterMinStakedRounds = 3;
    bool counterCallsAttendant = true;  // the report calls an attendant to the station too
    bool operator==(const ProtectionRules&) const = default;
};

[[nodiscard]] std::string_view edgeActionName(EdgeAction action);  // "alert", "close"

// One station reported for one side bet in one shoe.
struct CounterAlert {
    std::int64_t station = 0;
    BetType bet = BetType::Tie;
    CounterScore score;
};

class SideBetGuard {
public:
    // `rules` over `paytable`: the side bets watched are those of the rules the paytable offers.
    SideBetGuard(const ProtectionRules& rules, const Paytable& paytable);

    [[nodiscard]] const std::vector<SideBetRule>& watched() const { return watched_; }
    [[nodiscard]] const ProtectionRules& rules() const { return rules_; }

    // The composition changed (a round ended, a new shoe, a burn): the edge is unknown again.
    // Returns the new key, which the edge computed for it must bring back.
    std::uint64_t compositionChanged();
    [[nodiscard]] std::uint64_t key() const { return key_; }
    // A new shoe: the counters' figures start again.
    void newShoe();

    // The edges computed for `key` (sideBetEdges of the composition): taken when the key is
    // current (true), else stale and dropped (false). The closed set follows from them.
    bool take(std::uint64_t key, const std::vector<BetEdge>& edges);
    [[nodiscard]] bool known() const { return known_; }
    // The watched bets' edges in force (known() only), in the order watched.
    [[nodiscard]] const std::vector<BetEdge>& edges() const { return edges_; }
    // The side bets closed for the round (close rule, edge above its threshold); empty while the
    // edge is unknown.
    [[nodiscard]] const std::set<BetType>& closed() const { return closed_; }
    // A bet on `spot` now: refused side_bet_closed or side_bet_edge_pending, or open (nullopt).
    [[nodiscard]] std::optional<BetRefusal> refusal(BetType spot) const;
    [[nodiscard]] std::optional<BetRefusal> refusal(const BetSlip& add) const;  // the slip's first refused spot

    // A round settled with the edges in force: each seated station's stakes on each watched side
    // bet (absent: none) join its figures for the shoe (closed bets' rounds left out). Returns the
    // stations to report now: a score at or above the level, each (station, bet) once per shoe.
    // Nothing when the edge of the round was not known.
    std::vector<CounterAlert> roundSettled(const std::vector<std::int64_t>& seated,
                                           const std::map<std::int64_t, BetSlip>& stakes);
    // A station's score on `bet` so far in this shoe (nullopt: no rounds counted).
    [[nodiscard]] std::optional<CounterScore> score(std::int64_t station, BetType bet) const;
    [[nodiscard]] const std::vector<CounterAlert>& alerts() const { return alerts_; }  // this shoe's

private:
    struct Figures {
        std::vector<std::int64_t> edgePpm;
        std::vector<std::int64_t> stakes;
        std::int64_t stakedRounds = 0;
        bool reported = false;
    };

    ProtectionRules rules_;
    std::vector<SideBetRule> watched_;
    std::uint64_t key_ = 0;
    bool known_ = false;
    std::vector<BetEdge> edges_;
    std::set<BetType> closed_;
    std::map<std::pair<std::int64_t, BetType>, Figures> figures_;  // (station, bet), this shoe
    std::vector<CounterAlert> alerts_;
};

}  // namespace pitlink::game
