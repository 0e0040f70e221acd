#include "daemon/game/card.h"

#include <gtest/gtest.h>

namespace pitlink::game {
namespace {

TEST(Card, PointsFollowBaccaratValues) {
    const std::array<int, 13> expected{1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0};
    for (int r = 1; r <= 13; ++r) {
        EXPECT_EQ(Card(static_cast<Rank>(r), Suit::Spades).points(), expected[static_cast<std::size_t>(r - 1)]) << r;
    }
}

TEST(Card, BurnCountIsFaceValueAndTenForZeroPointCards) {
    const std::array<int, 13> expected{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10};
    for (int r = 1; r <= 13; ++r) {
        EXPECT_EQ(Card(static_cast<Rank>(r), Suit::Hearts).burnCount(), expected[static_cast<std::size_t>(r - 1)]) << r;
    }
}

TEST(Card, IndexRoundTripsOverTheWholeDeck) {
    for (int i = 0; i < kCardsPerDeck; ++i) {
        EXPECT_EQ(Card::fromIndex(i).index(), i);
    }
    EXPECT_EQ(Card(Rank::Ace, Suit::Clubs).index(), 0);
    EXPECT_EQ(Card(Rank::King, Suit::Spades).index(), 51);
}

TEST(Card, ParsesAndFormats) {
    EXPECT_EQ(parseCard("9D"), Card(Rank::Nine, Suit::Diamonds));
    EXPECT_EQ(parseCard("10h"), Card(Rank::Ten, Suit::Hearts));
    EXPECT_EQ(parseCard("TH"), Card(Rank::Ten, Suit::Hearts));
    EXPECT_EQ(parseCard("as"), Card(Rank::Ace, Suit::Spades));
    EXPECT_EQ(parseCard("KC")->toString(), "KC");
    EXPECT_EQ(Card(Rank::Ten, Suit::Diamonds).toString(), "TD");
    for (int i = 0; i < kCardsPerDeck; ++i) {
        EXPECT_EQ(parseCard(Card::fromIndex(i).toString()), Card::fromIndex(i));
    }
}

TEST(Card, RefusesWhatIsNotACard) {
    for (const char* bad : {"", "9", "1D", "11D", "9X", "ZS", "9DD", "0S", " 9D", "10"}) {
        EXPECT_FALSE(parseCard(bad).has_value()) << bad;
    }
}

}  // namespace
}  // namespace pitlink::game
