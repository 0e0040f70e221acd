#include "daemon/game/coup_validator.h"

#include "daemon/game/third_card_rule.h"

namespace pitlink::game {

namespace {
std::string ordinal(int n) {
    switch (n) {
        case 1:
            return "1st";
        case 2:
            return "2nd";
        case 3:
            return "3rd";
        default:
            return std::to_string(n) + "th";
    }
}

std::string handName(Side side) {
    return side == Side::Player ? "Player" : "Banker";
}

// Why no further card is due once the coup is complete.
std::string whyComplete(const Coup& coup) {
    const int pt = coup.player.twoCardTotal();
    const int bt = coup.banker.twoCardTotal();
    if (isNatural(pt) || isNatural(bt)) {
        const Side side = isNatural(pt) ? Side::Player : Side::Banker;
        return handName(side) + " has a natural " + std::to_string(isNatural(pt) ? pt : bt);
    }
    if (coup.banker.size() == 3) {
        return "both hands have drawn";
    }
    return "Banker stands on " + std::to_string(bt) +
           (coup.player.size() == 3 ? " against Player's third card " + std::to_string(coup.player[2].points())
                                    : std::string(" (Player stood on ") + std::to_string(pt) + ")");
}
}  // namespace

std::string describePosition(Side side, int cardOfHand) {
    return handName(side) + "'s " + ordinal(cardOfHand) + " card";
}

CoupValidator::CoupValidator(ShoeComposition remaining, int rescanAttempts)
    : remaining_(remaining), rescanAttempts_(rescanAttempts) {}

std::optional<Side> CoupValidator::due() const {
    return nextCardFor(coup_);
}

std::optional<CardRefusal> CoupValidator::offer(Card card) {
    const int position = coup_.cardCount() + 1;
    const auto side = due();
    if (!side) {
        return CardRefusal{position, "card " + std::to_string(position) + " (" + card.toString() +
                                         "): no card is due, the coup is complete: " + whyComplete(coup_)};
    }
    if (!remaining_.remove(card)) {
        return CardRefusal{position, "card " + std::to_string(position) + " (" + card.toString() + ", " +
                                         describePosition(*side, coup_.hand(*side).size() + 1) + "): no " +
                                         card.toString() + " is left in the shoe"};
    }
    coup_.hand(*side).add(card);
    rescans_ = 0;
    return std::nullopt;
}

RescanVerdict CoupValidator::unreadable() {
    if (rescans_ >= rescanAttempts_) {
        return RescanVerdict::VoidRound;
    }
    ++rescans_;
    return RescanVerdict::Rescan;
}

}  // namespace pitlink::game
