#pragma once
// A playing card of a 52-card deck and its baccarat values.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pitlink::game {

enum class Rank : std::uint8_t { Ace = 1, Two, Three, Four, Five, Six, Seven, Eight, Nine, Ten, Jack, Queen, King };
enum class Suit : std::uint8_t { Clubs, Diamonds, Hearts, Spades };

inline constexpr int kRanks = 13;
inline constexpr int kSuits = 4;
inline constexpr int kCardsPerDeck = kRanks * kSuits;

class Card {
public:
    constexpr Card() = default;
    constexpr Card(Rank rank, Suit suit) : rank_(rank), suit_(suit) {}

    // Index 0..51, rank-major: (rank - 1) * 4 + suit. Used for composition counts.
    static constexpr Card fromIndex(int index) {
        return Card(static_cast<Rank>(index / kSuits + 1), static_cast<Suit>(index % kSuits));
    }
    [[nodiscard]] constexpr int index() const {
        return (static_cast<int>(rank_) - 1) * kSuits + static_cast<int>(suit_);
    }

    [[nodiscard]] constexpr Rank rank() const { return rank_; }
    [[nodiscard]] constexpr Suit suit() const { return suit_; }

    // Baccarat points: A=1, 2-9 face value, 10/J/Q/K=0.
    [[nodiscard]] constexpr int points() const { return pointsOf(rank_); }
    static constexpr int pointsOf(Rank rank) {
        const int r = static_cast<int>(rank);
        return r >= 10 ? 0 : r;
    }

    // How many cards are burned after this card is turned at the start of a shoe:
    // A=1, 2-9 face value, 10/J/Q/K=10 (docs/rules.md "Cards, shoe, dealing").
    [[nodiscard]] constexpr int burnCount() const {
        const int r = static_cast<int>(rank_);
        return r >= 10 ? 10 : r;
    }

    // "AS", "TD", "9H", "KC": rank letter/digit then suit letter.
    [[nodiscard]] std::string toString() const;

    friend constexpr bool operator==(Card a, Card b) { return a.rank_ == b.rank_ && a.suit_ == b.suit_; }

private:
    Rank rank_ = Rank::Ace;
    Suit suit_ = Suit::Clubs;
};

// Accepts "9D", "10D", "TD", "qs", "Ah" (rank then suit, case-insensitive). nullopt otherwise.
[[nodiscard]] std::optional<Card> parseCard(std::string_view text);

[[nodiscard]] char rankLetter(Rank rank);
[[nodiscard]] char suitLetter(Suit suit);

}  // namespace pitlink::game
