#include "daemon/game/side_bet_guard.h"

#include <algorithm>
#include <string>

namespace pitlink::game {

std::string_view edgeActionName(EdgeAction action) {
    return action == EdgeAction::Close ? "close" : "alert";
}

SideBetGuard::SideBetGuard(const ProtectionRules& rules, const Paytable& paytable) : rules_(rules) {
    if (rules.sideBets.empty()) {
        for (const BetType type : kAllBetTypes) {
            if (isSideBet(type) && paytable.offers(type)) {
                watched_.push_back(SideBetRule{type, EdgeAction::Alert, 0});
            }
        }
        return;
    }
    for (const SideBetRule& rule : rules.sideBets) {
        if (isSideBet(rule.bet) && paytable.offers(rule.bet)) {
            watched_.push_back(rule);
        }
    }
}

std::uint64_t SideBetGuard::compositionChanged() {
    known_ = false;
    edges_.clear();
    closed_.clear();
    return ++key_;
}

void SideBetGuard::newShoe() {
    figures_.clear();
    alerts_.clear();
}

bool SideBetGuard::take(std::uint64_t key, const std::vector<BetEdge>& edges) {
    if (key != key_) {
        return false;
    }
    edges_.clear();
    closed_.clear();
    for (const SideBetRule& rule : watched_) {
        const auto it = std::find_if(edges.begin(), edges.end(), [&](const BetEdge& e) { return e.bet == rule.bet; });
        if (it == edges.end()) {
            continue;  // not offered by the paytable the edges were computed with
        }
        edges_.push_back(*it);
        if (rule.action == EdgeAction::Close && it->above(rule.abovePpm)) {
            closed_.insert(rule.bet);
        }
    }
    known_ = true;
    return true;
}

std::optional<BetRefusal> SideBetGuard::refusal(BetType spot) const {
    const auto rule =
        std::find_if(watched_.begin(), watched_.end(), [&](const SideBetRule& r) { return r.bet == spot; });
    if (rule == watched_.end() || rule->action != EdgeAction::Close) {
        return std::nullopt;
    }
    const std::string name(betTypeName(spot));
    if (!known_) {
        return BetRefusal{BetRule::SideBetEdgePending, spot,
                          name + ": closed until the edge of this round's shoe is known; try again in a moment"};
    }
    if (closed_.contains(spot)) {
        return BetRefusal{BetRule::SideBetClosed, spot, name + ": closed for this round"};
    }
    return std::nullopt;
}

std::optional<BetRefusal> SideBetGuard::refusal(const BetSlip& add) const {
    for (const BetType type : kAllBetTypes) {
        if (add.has(type)) {
            if (auto refused = refusal(type)) {
                return refused;
            }
        }
    }
    return std::nullopt;
}

std::vector<CounterAlert> SideBetGuard::roundSettled(const std::vector<std::int64_t>& seated,
                                                     const std::map<std::int64_t, BetSlip>& stakes) {
    std::vector<CounterAlert> raised;
    if (!known_) {
        return raised;
    }
    for (const BetEdge& edge : edges_) {
        if (closed_.contains(edge.bet)) {
            continue;  // nobody could bet it: no round for the figures
        }
        for (const std::int64_t station : seated) {
            const auto slip = stakes.find(station);
            const Money stake = slip == stakes.end() ? 0 : slip->second[edge.bet];
            Figures& f = figures_[{station, edge.bet}];
            f.edgePpm.push_back(edge.ppm());
            f.stakes.push_back(stake);
            f.stakedRounds += stake > 0 ? 1 : 0;
            if (f.reported || static_cast<std::int64_t>(f.edgePpm.size()) < rules_.counterMinRounds ||
                f.stakedRounds < rules_.counterMinStakedRounds) {
                continue;
            }
            const CounterScore score = counterScore(f.edgePpm, f.stakes);
            if (score.z >= static_cast<double>(rules_.counterAlertZ)) {
                f.reported = true;
                raised.push_back(CounterAlert{station, edge.bet, score});
                alerts_.push_back(raised.back());
            }
        }
    }
    return raised;
}

std::optional<CounterScore> SideBetGuard::score(std::int64_t station, BetType bet) const {
    const auto it = figures_.find({station, bet});
    if (it == figures_.end()) {
        return std::nullopt;
    }
    return counterScore(it->second.edgePpm, it->second.stakes);
}

}  // namespace pitlink::game
