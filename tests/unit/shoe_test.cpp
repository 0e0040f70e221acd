#include "daemon/game/shoe.h"

#include <gtest/gtest.h>

#include <map>

#include "daemon/game/shoe_composition.h"
#include "daemon/platform/os_random_source.h"
#include "tests/unit/fixtures.h"

namespace pitlink::game {
namespace {

ShoeComposition compositionOf(const std::vector<Card>& cards) {
    ShoeComposition c;
    for (const Card card : cards) {
        c.add(card);
    }
    return c;
}

TEST(Shoe, ShuffleIsAPermutationOfEveryCard) {
    for (int decks = 1; decks <= 8; ++decks) {
        SeededRandom random(static_cast<std::uint64_t>(decks));
        const Shoe shoe(ShoeConfig{decks, 14}, random, 1);
        EXPECT_EQ(shoe.size(), decks * 52);
        EXPECT_EQ(compositionOf(shoe.order()), ShoeComposition::fullDecks(decks)) << decks;
    }
}

TEST(Shoe, OsRandomShuffleIsAPermutationAndDiffersBetweenShoes) {
    platform::OsRandomSource random;
    const Shoe a(ShoeConfig{}, random, 1);
    const Shoe b(ShoeConfig{}, random, 2);
    EXPECT_EQ(compositionOf(a.order()), ShoeComposition::fullDecks(8));
    EXPECT_NE(a.order(), b.order());  // 416! orders: equal only if the source were broken
}

// Fisher-Yates with an unbiased source: all 24 orders of 4 cards equally likely (chi-square,
// 23 degrees of freedom; 49.7 is the 0.1 % critical value).
TEST(Shoe, ShuffleIsUniformOverPermutations) {
    SeededRandom random(42);
    std::map<std::vector<int>, int> seen;
    const int trials = 240'000;
    for (int t = 0; t < trials; ++t) {
        std::vector<Card> cards{Card::fromIndex(0), Card::fromIndex(1), Card::fromIndex(2), Card::fromIndex(3)};
        shuffleCards(cards, random);
        std::vector<int> key;
        for (const Card c : cards) {
            key.push_back(c.index());
        }
        ++seen[key];
    }
    ASSERT_EQ(seen.size(), 24U);
    double chi2 = 0;
    const double expected = trials / 24.0;
    for (const auto& [order, n] : seen) {
        chi2 += (n - expected) * (n - expected) / expected;
    }
    EXPECT_LT(chi2, 49.7);
}

// With bound 3 * 2^62, `x % bound` on 64 random bits lands below 2^62 half of the time instead
// of a third: a biased implementation fails this by far (100,000 draws: sd about 150).
TEST(Shoe, UniformBelowHasNoModuloBias) {
    SeededRandom random(7);
    const std::uint64_t bound = 3ULL << 62;
    int low = 0;
    const int draws = 100'000;
    for (int i = 0; i < draws; ++i) {
        const std::uint64_t v = uniformBelow(random, bound);
        ASSERT_LT(v, bound);
        low += v < (1ULL << 62) ? 1 : 0;
    }
    EXPECT_NEAR(low, draws / 3.0, 1'000);
}

// A source that replays fixed 64-bit words.
class ReplaySource final : public RandomSource {
public:
    explicit ReplaySource(std::vector<std::uint64_t> words) : words_(std::move(words)) {}
    std::uint64_t next64() override { return words_.at(next_++); }
    [[nodiscard]] std::size_t used() const { return next_; }

private:
    std::vector<std::uint64_t> words_;
    std::size_t next_ = 0;
};

// Lemire's method must reject a draw that falls in the short interval and draw again:
// for bound 3, x = 0 gives a low product word 0 < 2^64 mod 3 = 1, so it is refused.
TEST(Shoe, UniformBelowRedrawsInTheRejectedInterval) {
    ReplaySource source({0, ~0ULL});
    EXPECT_EQ(uniformBelow(source, 3), 2U);  // from the second word: floor((2^64 - 1) * 3 / 2^64)
    EXPECT_EQ(source.used(), 2U);
    ReplaySource accepted({~0ULL});
    EXPECT_EQ(uniformBelow(accepted, 3), 2U);
    EXPECT_EQ(accepted.used(), 1U);
}

// The burn: the first card is turned and as many further cards as its value are discarded.
TEST(Shoe, BurnCountFollowsTheTurnedCard) {
    const std::map<Rank, int> expectedBurned{{Rank::Ace, 2},  {Rank::Five, 6},  {Rank::Nine, 10},
                                             {Rank::Ten, 11}, {Rank::Jack, 11}, {Rank::King, 11}};
    for (const auto& [rank, burned] : expectedBurned) {
        std::vector<Card> order;
        for (int i = 0; i < 52; ++i) {
            order.push_back(Card::fromIndex(i));
        }
        const auto first = std::find(order.begin(), order.end(), Card(rank, Suit::Hearts));
        std::iter_swap(order.begin(), first);
        Shoe shoe(ShoeConfig{1, 14}, order, 1);
        EXPECT_EQ(shoe.burnCard(), Card(rank, Suit::Hearts));
        EXPECT_EQ(shoe.burnedCount(), burned) << rankLetter(rank);
        EXPECT_EQ(shoe.remaining(), 52 - burned);
        EXPECT_EQ(shoe.draw(), order[static_cast<std::size_t>(burned)]);  // the first dealt card follows the burn
    }
}

TEST(Shoe, CutCardComesOutWithFourteenCardsLeft) {
    SeededRandom random(3);
    Shoe shoe(ShoeConfig{8, 14}, random, 5);
    EXPECT_EQ(shoe.number(), 5U);
    while (!shoe.cutCardOut()) {
        EXPECT_GT(shoe.remaining(), 14);
        (void)shoe.draw();
    }
    EXPECT_EQ(shoe.remaining(), 14);
    EXPECT_EQ(shoe.dealt(), 416 - 14 - shoe.burnedCount());
}

TEST(Shoe, RefusesUnusableConfigurations) {
    SeededRandom random(1);
    EXPECT_TRUE(shoeConfigProblem(ShoeConfig{0, 14}));
    EXPECT_TRUE(shoeConfigProblem(ShoeConfig{9, 14}));
    EXPECT_TRUE(shoeConfigProblem(ShoeConfig{8, 5}));   // a round could run out of cards
    EXPECT_TRUE(shoeConfigProblem(ShoeConfig{1, 40}));  // no room for the burn and a round
    EXPECT_FALSE(shoeConfigProblem(ShoeConfig{1, 35}));
    EXPECT_FALSE(shoeConfigProblem(ShoeConfig{8, 6}));
    EXPECT_THROW(Shoe(ShoeConfig{8, 2}, random, 1), std::invalid_argument);
    EXPECT_THROW(Shoe(ShoeConfig{1, 14}, std::vector<Card>(51), 1), std::invalid_argument);
}

TEST(ShoeComposition, RemoveRefusesWhatIsNotLeft) {
    ShoeComposition c = ShoeComposition::fullDecks(1);
    const Card as(Rank::Ace, Suit::Spades);
    EXPECT_TRUE(c.remove(as));
    EXPECT_FALSE(c.remove(as));
    EXPECT_EQ(c.total(), 51);
    EXPECT_EQ(c.rankCount(Rank::Ace), 3);
}

}  // namespace
}  // namespace pitlink::game
