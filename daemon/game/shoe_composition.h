#pragma once
// How many of each of the 52 cards a shoe holds: the basis of card validation and exact odds.

#include <array>
#include <cstdint>

#include "daemon/game/card.h"

namespace pitlink::game {

inline constexpr int kMinDecks = 1;
inline constexpr int kMaxDecks = 8;

class ShoeComposition {
public:
    ShoeComposition() = default;
    static ShoeComposition fullDecks(int decks);

    [[nodiscard]] int count(Card card) const { return counts_[static_cast<std::size_t>(card.index())]; }
    [[nodiscard]] int count(int cardIndex) const { return counts_[static_cast<std::size_t>(cardIndex)]; }
    [[nodiscard]] int rankCount(Rank rank) const;
    [[nodiscard]] int total() const { return total_; }

    void add(Card card, int n = 1);
    // Removes one card; false (and no change) when none is left.
    bool remove(Card card);

    friend bool operator==(const ShoeComposition&, const ShoeComposition&) = default;

private:
    std::array<std::int16_t, kCardsPerDeck> counts_{};
    int total_ = 0;
};

}  // namespace pitlink::game
