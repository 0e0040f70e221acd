#include "daemon/game/shoe_composition.h"

namespace pitlink::game {

ShoeComposition ShoeComposition::fullDecks(int decks) {
    ShoeComposition c;
    for (int i = 0; i < kCardsPerDeck; ++i) {
        c.add(Card::fromIndex(i), decks);
    }
    return c;
}

int ShoeComposition::rankCount(Rank rank) const {
    int n = 0;
    for (int s = 0; s < kSuits; ++s) {
        n += count(Card(rank, static_cast<Suit>(s)));
    }
    return n;
}

void ShoeComposition::add(Card card, int n) {
    counts_[static_cast<std::size_t>(card.index())] = static_cast<std::int16_t>(count(card) + n);
    total_ += n;
}

bool ShoeComposition::remove(Card card) {
    auto& c = counts_[static_cast<std::size_t>(card.index())];
    if (c == 0) {
        return false;
    }
    --c;
    --total_;
    return true;
}

}  // namespace pitlink::game
