#pragma once
// Checks cards reported by a physical shoe, one at a time, against the drawing rules and what
// is left in the shoe (docs/rules.md: no ninth ace of spades in an 8-deck shoe). A refused card is a
// misdeal: the table voids the round and returns every bet (seed 004).

#include <optional>
#include <string>

#include "daemon/game/hand.h"
#include "daemon/game/shoe_composition.h"

namespace pitlink::game {

struct CardRefusal {
    int position = 0;  // 1-based position of the card in the coup
    std::string reason;
};

enum class RescanVerdict : std::uint8_t { Rescan, VoidRound };

class CoupValidator {
public:
    static constexpr int kDefaultRescanAttempts = 3;

    // `remaining`: what the shoe still holds (full decks minus every card seen so far).
    explicit CoupValidator(ShoeComposition remaining, int rescanAttempts = kDefaultRescanAttempts);

    // The card the reader reported for the next position. nullopt: accepted and added.
    std::optional<CardRefusal> offer(Card card);

    // The reader could not read the next card. Rescan while attempts remain, then VoidRound.
    RescanVerdict unreadable();
    [[nodiscard]] int rescansUsed() const { return rescans_; }

    [[nodiscard]] std::optional<Side> due() const;  // the hand the next card goes to, if any
    [[nodiscard]] bool complete() const { return !due().has_value(); }
    [[nodiscard]] const Coup& coup() const { return coup_; }
    [[nodiscard]] const ShoeComposition& remaining() const { return remaining_; }

private:
    Coup coup_;
    ShoeComposition remaining_;
    int rescanAttempts_;
    int rescans_ = 0;
};

// "Player's 3rd card" style description of the next position of a coup.
[[nodiscard]] std::string describePosition(Side side, int cardOfHand);

}  // namespace pitlink::game
