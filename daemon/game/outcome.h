#pragma once
// The outcome of a coup: everything a bet or a scoreboard can be decided on (docs/rules.md "Outcome of a round").

#include <cstdint>
#include <string_view>

#include "daemon/game/hand.h"

namespace pitlink::game {

enum class Winner : std::uint8_t { Player, Banker, Tie };

// Nines among the four initial cards (seed 001, Lucky Nines); ordered from lowest to highest.
enum class NinesPattern : std::uint8_t {
    None,
    OneNine,
    OneNineOfDiamonds,
    TwoNines,
    TwoNinesSuited,
    ThreeNines,
    ThreeNinesSuited,
    FourNines,
};

struct Outcome {
    Winner winner = Winner::Tie;
    std::uint8_t playerTotal = 0;
    std::uint8_t bankerTotal = 0;
    std::uint8_t playerCards = 2;
    std::uint8_t bankerCards = 2;
    bool playerPair = false;  // first two Player cards of the same rank
    bool bankerPair = false;
    bool playerPerfectPair = false;  // same rank and suit
    bool bankerPerfectPair = false;
    NinesPattern nines = NinesPattern::None;

    [[nodiscard]] int cardCount() const { return playerCards + bankerCards; }
    [[nodiscard]] bool playerNatural() const { return playerCards == 2 && playerTotal >= 8; }
    [[nodiscard]] bool bankerNatural() const { return bankerCards == 2 && bankerTotal >= 8; }
    [[nodiscard]] bool natural() const { return playerNatural() || bankerNatural(); }
    [[nodiscard]] bool small() const { return cardCount() == 4; }
    [[nodiscard]] bool bankerWinsWithThreeCardSeven() const {
        return winner == Winner::Banker && bankerCards == 3 && bankerTotal == 7;
    }
    [[nodiscard]] bool playerWinsWithThreeCardEight() const {
        return winner == Winner::Player && playerCards == 3 && playerTotal == 8;
    }
    [[nodiscard]] bool playerThreeCardNine() const { return playerCards == 3 && playerTotal == 9; }
    [[nodiscard]] bool bankerThreeCardNine() const { return bankerCards == 3 && bankerTotal == 9; }

    friend bool operator==(const Outcome&, const Outcome&) = default;
};

[[nodiscard]] Winner winnerOf(int playerTotal, int bankerTotal);
[[nodiscard]] NinesPattern ninesPattern(Card p1, Card b1, Card p2, Card b2);
[[nodiscard]] Outcome evaluate(const Coup& coup);

[[nodiscard]] std::string_view winnerName(Winner winner);
[[nodiscard]] char winnerLetter(Winner winner);  // 'P', 'B', 'T'

}  // namespace pitlink::game
