#pragma once
// The simulation checker's own baccarat (docs/rules.md), on card names such as "9S", "TD", "KH",
// and its own payouts of the standard paytable: nothing of daemon/game.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pitlink::sim {

struct Coup {
    std::vector<std::string> player;
    std::vector<std::string> banker;
};

// Cards in deal order -> hands by the drawing rules; nullopt when they are not a complete coup.
[[nodiscard]] std::optional<Coup> handsOf(const std::vector<std::string>& cards);

// Cards in deal order that make exactly one complete coup by the drawing rules.
[[nodiscard]] bool isCompleteCoup(const std::vector<std::string>& cards);

// What a bet of `stake` on `spot` returns (stake + win, the stake alone on a push, 0 when lost)
// under the standard paytable (etc/paytables/standard.yaml); nullopt for a spot it does not know.
[[nodiscard]] std::optional<std::int64_t> returned(const std::string& spot, std::int64_t stake, const Coup& c);

}  // namespace pitlink::sim
