#include "daemon/game/outcome.h"

#include <gtest/gtest.h>

#include "tests/unit/fixtures.h"

namespace pitlink::game {
namespace {

TEST(Outcome, TotalsWinnerAndCardCounts) {
    const Outcome o = evaluate(test::coupFromDeal("2S 3H 3D 2C 4S 3C"));
    EXPECT_EQ(o.winner, Winner::Player);
    EXPECT_EQ(o.playerTotal, 9);
    EXPECT_EQ(o.bankerTotal, 8);
    EXPECT_EQ(o.cardCount(), 6);
    EXPECT_FALSE(o.small());
    EXPECT_TRUE(o.playerThreeCardNine());
    EXPECT_FALSE(o.bankerThreeCardNine());
    EXPECT_FALSE(o.natural());
}

TEST(Outcome, TieWithNaturals) {
    const Outcome o = evaluate(test::coupFromDeal("4H 5D 4S 3C"));  // P 8, B 8
    EXPECT_EQ(o.winner, Winner::Tie);
    EXPECT_TRUE(o.playerNatural());
    EXPECT_TRUE(o.bankerNatural());
    EXPECT_TRUE(o.small());
}

TEST(Outcome, PairsNeedTheSameRankNotTheSameValue) {
    EXPECT_TRUE(evaluate(test::coupFromDeal("KS 2H KD 6C")).playerPair);   // K-K
    EXPECT_FALSE(evaluate(test::coupFromDeal("KS 2H QD 6C")).playerPair);  // K-Q: same value, not a pair
    EXPECT_TRUE(evaluate(test::coupFromDeal("TS 2H TD 6C")).playerPair);   // 10-10
    const Outcome banker = evaluate(test::coupFromDeal("2H 4S 5D 4C"));    // Banker 4-4, natural 8 v Player 7
    EXPECT_TRUE(banker.bankerPair);
    EXPECT_FALSE(banker.bankerPerfectPair);
    EXPECT_FALSE(banker.playerPair);
}

TEST(Outcome, PerfectPairNeedsTheSameSuitToo) {
    const Outcome o = evaluate(test::coupFromDeal("QS 4H QS 4H"));  // both hands suited pairs (multi-deck shoe)
    EXPECT_TRUE(o.playerPerfectPair);
    EXPECT_TRUE(o.bankerPerfectPair);
    EXPECT_FALSE(evaluate(test::coupFromDeal("QS 4H QD 4C")).playerPerfectPair);
}

TEST(Outcome, ThreeCardSevenAndEightFlags) {
    // Player 4+6=0 draws 2 -> 2; Banker 2+2=4 draws on a 2, gets 3 -> 7: wins with three cards.
    const Outcome gold = evaluate(test::coupFromDeal("4H 2S 6D 2C 2D 3H"));
    EXPECT_TRUE(gold.bankerWinsWithThreeCardSeven());
    EXPECT_EQ(gold.bankerCards, 3);
    // Player A+4=5 draws 3 -> 8; Banker K+7=7 stands.
    const Outcome jade = evaluate(test::coupFromDeal("AH KS 4D 7C 3S"));
    EXPECT_TRUE(jade.playerWinsWithThreeCardEight());
    EXPECT_FALSE(jade.bankerWinsWithThreeCardSeven());
}

TEST(Outcome, NinesPatternsOfTheFourInitialCards) {
    auto pattern = [](const char* p1, const char* b1, const char* p2, const char* b2) {
        const auto c = test::cards(std::string(p1) + " " + b1 + " " + p2 + " " + b2);
        return ninesPattern(c[0], c[1], c[2], c[3]);
    };
    EXPECT_EQ(pattern("2S", "3S", "4S", "5S"), NinesPattern::None);
    EXPECT_EQ(pattern("9S", "3S", "4S", "5S"), NinesPattern::OneNine);
    EXPECT_EQ(pattern("2S", "9D", "4S", "5S"), NinesPattern::OneNineOfDiamonds);
    EXPECT_EQ(pattern("9S", "9H", "4S", "5S"), NinesPattern::TwoNines);
    EXPECT_EQ(pattern("9H", "2C", "9H", "5S"), NinesPattern::TwoNinesSuited);
    EXPECT_EQ(pattern("9D", "9D", "9C", "5S"), NinesPattern::ThreeNines);
    EXPECT_EQ(pattern("9C", "9C", "9C", "5S"), NinesPattern::ThreeNinesSuited);
    EXPECT_EQ(pattern("9C", "9D", "9H", "9S"), NinesPattern::FourNines);
    EXPECT_EQ(pattern("9D", "9D", "9D", "9D"), NinesPattern::FourNines);
}

}  // namespace
}  // namespace pitlink::game
