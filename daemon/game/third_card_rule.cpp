#include "daemon/game/third_card_rule.h"

namespace pitlink::game {

std::optional<Side> nextCardFor(const Coup& coup) {
    const Hand& p = coup.player;
    const Hand& b = coup.banker;
    // The first four cards alternate P, B, P, B.
    if (p.size() + b.size() < 4) {
        return p.size() == b.size() ? Side::Player : Side::Banker;
    }
    const int pt = p.twoCardTotal();
    const int bt = b.twoCardTotal();
    if (isNatural(pt) || isNatural(bt)) {
        return std::nullopt;
    }
    if (p.size() == 2 && b.size() == 2) {
        if (playerDraws(pt)) {
            return Side::Player;
        }
        return bankerDraws(bt, std::nullopt) ? std::optional(Side::Banker) : std::nullopt;
    }
    if (p.size() == 3 && b.size() == 2) {
        return bankerDraws(bt, p[2].points()) ? std::optional(Side::Banker) : std::nullopt;
    }
    return std::nullopt;
}

}  // namespace pitlink::game
