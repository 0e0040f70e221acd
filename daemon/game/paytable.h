#pragma once
// A paytable: which bets a table offers and what each pay tier pays. Plain data; the YAML
// loader that fills it lives outside daemon/game (daemon/config/paytable_loader).

#include <array>
#include <optional>
#include <string>

#include "daemon/game/bet_type.h"
#include "daemon/game/fraction.h"

namespace pitlink::game {

// One line of a paytable: pays `ratio` to one, or returns the stake (push).
struct Payout {
    Fraction ratio{0, 1};
    bool push = false;

    static Payout pays(Fraction ratio) { return {ratio, false}; }
    static Payout pushes() { return {{0, 1}, true}; }
    friend bool operator==(const Payout&, const Payout&) = default;
};

struct BetPaytable {
    std::array<std::optional<Payout>, kMaxPayTiers> tiers{};
};

struct Paytable {
    std::string id;
    std::string name;
    std::array<std::optional<BetPaytable>, kBetTypes> bets{};

    [[nodiscard]] bool offers(BetType type) const { return bets[static_cast<std::size_t>(type)].has_value(); }
    void set(BetType type, int tier, Payout payout);

    // The payout of a tier; an optional tier that is absent falls back to tier 0.
    // Precondition: the bet is offered and the paytable passed validatePaytable().
    [[nodiscard]] Payout payout(BetType type, int tier) const;

    // Highest ratio any tier of the bet pays: the worst case the maximum-payout rule checks.
    [[nodiscard]] Fraction highestRatio(BetType type) const;
};

// Why a paytable cannot be used (a required tier missing, a tier the bet does not have),
// or nullopt when it is complete.
[[nodiscard]] std::optional<std::string> paytableProblem(const Paytable& table);

}  // namespace pitlink::game
