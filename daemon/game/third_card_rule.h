#pragma once
// The drawing rules of docs/rules.md ("Cards, shoe, dealing"): who receives the next card.

#include <optional>

#include "daemon/game/hand.h"

namespace pitlink::game {

// A two-card total of 8 or 9 in either hand: both stand.
constexpr bool isNatural(int twoCardTotal) {
    return twoCardTotal >= 8;
}

// Player draws on 0-5, stands on 6-7 (naturals are handled before).
constexpr bool playerDraws(int playerTwoCardTotal) {
    return playerTwoCardTotal <= 5;
}

// Banker's rule. playerThirdCardPoints is empty when the Player stood on two cards.
constexpr bool bankerDraws(int bankerTwoCardTotal, std::optional<int> playerThirdCardPoints) {
    if (!playerThirdCardPoints) {
        return bankerTwoCardTotal <= 5;
    }
    const int v = *playerThirdCardPoints;
    switch (bankerTwoCardTotal) {
        case 0:
        case 1:
        case 2:
            return true;
        case 3:
            return v != 8;
        case 4:
            return v >= 2 && v <= 7;
        case 5:
            return v >= 4 && v <= 7;
        case 6:
            return v == 6 || v == 7;
        default:
            return false;
    }
}

// Which hand the next card of a coup goes to, or nothing when the coup is complete.
std::optional<Side> nextCardFor(const Coup& coup);

// Deals a whole coup from a card source (any callable returning the next Card). The same rules
// as nextCardFor, written straight through because the simulator deals millions of coups a
// second; a test checks both agree on every sequence.
template <class DrawCard>
Coup dealCoup(DrawCard&& draw) {
    Coup coup;
    coup.player.add(draw());
    coup.banker.add(draw());
    coup.player.add(draw());
    coup.banker.add(draw());
    const int pt = coup.player.twoCardTotal();
    const int bt = coup.banker.twoCardTotal();
    if (isNatural(pt) || isNatural(bt)) {
        return coup;
    }
    if (playerDraws(pt)) {
        const Card third = draw();
        coup.player.add(third);
        if (bankerDraws(bt, third.points())) {
            coup.banker.add(draw());
        }
    } else if (bankerDraws(bt, std::nullopt)) {
        coup.banker.add(draw());
    }
    return coup;
}

}  // namespace pitlink::game
