#pragma once
// A baccarat hand (Player or Banker): two or three cards, and the coup holding both hands.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "daemon/game/card.h"

namespace pitlink::game {

class Hand {
public:
    static constexpr int kMaxCards = 3;

    void add(Card card) { cards_[static_cast<std::size_t>(size_++)] = card; }
    [[nodiscard]] int size() const { return size_; }
    [[nodiscard]] Card operator[](int i) const { return cards_[static_cast<std::size_t>(i)]; }

    // Sum of points mod 10 over the cards held.
    [[nodiscard]] int total() const {
        int sum = 0;
        for (int i = 0; i < size_; ++i) {
            sum += cards_[static_cast<std::size_t>(i)].points();
        }
        return sum % 10;
    }
    // Total of the first two cards (what the drawing rules look at).
    [[nodiscard]] int twoCardTotal() const { return (cards_[0].points() + cards_[1].points()) % 10; }
    // The cards as they are written everywhere (journal, engine link, logs): "9S", "TH", ...
    [[nodiscard]] std::vector<std::string> cardNames() const {
        std::vector<std::string> names;
        names.reserve(static_cast<std::size_t>(size_));
        for (int i = 0; i < size_; ++i) {
            names.push_back(cards_[static_cast<std::size_t>(i)].toString());
        }
        return names;
    }

private:
    std::array<Card, kMaxCards> cards_{};
    int size_ = 0;
};

inline constexpr int kMaxCardsPerCoup = 2 * Hand::kMaxCards;

enum class Side : std::uint8_t { Player, Banker };

// The cards of one round. Deal order: Player, Banker, Player, Banker, then third cards.
struct Coup {
    Hand player;
    Hand banker;

    [[nodiscard]] int cardCount() const { return player.size() + banker.size(); }
    Hand& hand(Side side) { return side == Side::Player ? player : banker; }
    [[nodiscard]] const Hand& hand(Side side) const { return side == Side::Player ? player : banker; }
};

}  // namespace pitlink::game
