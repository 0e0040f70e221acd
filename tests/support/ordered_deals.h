#pragma once
// Every ordered sequence of 6 physical cards of a small shoe, dealt as a coup through the game's
// own drawing rules (dealCoup) and evaluated: the brute force the exact enumeration's tests
// compare with (each coup that uses fewer cards stands for its unused cards in every order, as
// the enumeration counts it).
#include <cstddef>
#include <vector>

#include "daemon/game/card.h"
#include "daemon/game/outcome.h"
#include "daemon/game/third_card_rule.h"

namespace pitlink::test {

// Calls visit(outcome) once per ordered sequence of 6 distinct cards of `shoe`.
template <class Visit>
void forEveryOrderedDeal(const std::vector<game::Card>& shoe, Visit&& visit) {
    const std::size_t n = shoe.size();
    std::vector<std::size_t> pick(6);
    std::vector<bool> used(n, false);
    auto recurse = [&](auto&& self, std::size_t depth) -> void {
        if (depth == 6) {
            std::size_t next = 0;
            visit(game::evaluate(game::dealCoup([&] { return shoe[pick[next++]]; })));
            return;
        }
        for (std::size_t i = 0; i < n; ++i) {
            if (!used[i]) {
                used[i] = true;
                pick[depth] = i;
                self(self, depth + 1);
                used[i] = false;
            }
        }
    };
    recurse(recurse, 0);
}

}  // namespace pitlink::test
