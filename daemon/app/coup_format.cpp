#include "daemon/app/coup_format.h"

namespace pitlink::app {

std::string describeHand(const game::Hand& hand) {
    std::string s;
    for (int i = 0; i < hand.size(); ++i) {
        s += hand[i].toString() + " ";
    }
    return s + "(" + std::to_string(hand.total()) + ")";
}

std::string describeCoup(const game::Coup& coup, const game::Outcome& o) {
    std::string s = "Player " + describeHand(coup.player) + " | Banker " + describeHand(coup.banker) + " -> " +
                    std::string(game::winnerName(o.winner));
    if (o.natural()) {
        s += ", natural";
    }
    if (o.playerPair) {
        s += ", player pair";
    }
    if (o.bankerPair) {
        s += ", banker pair";
    }
    return s;
}

}  // namespace pitlink::app
