#include "daemon/game/exact_odds.h"

#include <gtest/gtest.h>

#include <numeric>

#include "daemon/game/third_card_rule.h"
#include "tests/support/ordered_deals.h"
#include "tests/unit/fixtures.h"

namespace pitlink::game {
namespace {

double edgePercent(const Paytable& table, BetType type, const OddsReport& r) {
    return static_cast<double>(100 * betReturn(table, type, r.tally(type)).houseEdge());
}

class ExactOddsEightDecks : public ::testing::Test {
protected:
    static void SetUpTestSuite() { sharedReport = new OddsReport(exactOdds(ShoeComposition::fullDecks(8))); }
    static void TearDownTestSuite() { delete sharedReport; }
    static OddsReport* sharedReport;
};
OddsReport* ExactOddsEightDecks::sharedReport = nullptr;

// The figures issue #2 requires (they agree with the Wizard of Odds 8-deck tables).
TEST_F(ExactOddsEightDecks, MainGameProbabilitiesAndEdges) {
    const OddsReport& r = *sharedReport;
    EXPECT_EQ(r.sequences, 416ULL * 415 * 414 * 413 * 412 * 411);
    EXPECT_NEAR(static_cast<double>(r.probability(Winner::Banker)), 0.458597, 5e-7);
    EXPECT_NEAR(static_cast<double>(r.probability(Winner::Player)), 0.446247, 5e-7);
    EXPECT_NEAR(static_cast<double>(r.probability(Winner::Tie)), 0.095156, 5e-7);
    const Paytable standard = test::shippedPaytable("standard");
    EXPECT_NEAR(edgePercent(standard, BetType::Banker, r), 1.0579, 5e-5);
    EXPECT_NEAR(edgePercent(standard, BetType::Player, r), 1.2351, 5e-5);
    EXPECT_NEAR(edgePercent(standard, BetType::Tie, r), 14.3596, 5e-5);
}

// Side bets against independently published 8-deck house edges (Wizard of Odds: "Baccarat",
// "EZ Baccarat"): pairs at 11 10.36 %, either pair at 5 13.71 %, Dragon 7 (Gold 7) at 40 7.61 %, Panda 8 (Jade 8) at
// 25 10.19 %, EZ Banker 1.02 %, no-commission Banker paying half on 6: 1.46 %.
TEST_F(ExactOddsEightDecks, SideBetsMatchPublishedEdges) {
    const OddsReport& r = *sharedReport;
    const Paytable standard = test::shippedPaytable("standard");
    const Paytable ruyi = test::shippedPaytable("ruyi");
    const Paytable noCommission = test::shippedPaytable("no_commission");
    EXPECT_NEAR(edgePercent(standard, BetType::PlayerPair, r), 10.36, 0.005);
    EXPECT_NEAR(edgePercent(standard, BetType::BankerPair, r), 10.36, 0.005);
    EXPECT_NEAR(edgePercent(standard, BetType::AnyPair, r), 13.71, 0.005);
    EXPECT_NEAR(edgePercent(ruyi, BetType::Gold7, r), 7.61, 0.005);
    EXPECT_NEAR(edgePercent(ruyi, BetType::Jade8, r), 10.19, 0.005);
    EXPECT_NEAR(edgePercent(ruyi, BetType::Banker, r), 1.02, 0.005);
    EXPECT_NEAR(edgePercent(noCommission, BetType::Banker, r), 1.46, 0.005);
}

TEST_F(ExactOddsEightDecks, EveryBetTallyCoversEverySequence) {
    for (const BetType t : kAllBetTypes) {
        EXPECT_EQ(sharedReport->tally(t).total(), sharedReport->sequences) << betTypeName(t);
    }
    // Big and Small are complementary; Player and Banker bets push exactly on ties.
    EXPECT_EQ(sharedReport->tally(BetType::Big).wins[0], sharedReport->tally(BetType::Small).losses);
    EXPECT_EQ(sharedReport->tally(BetType::Player).pushes,
              sharedReport->winners[static_cast<std::size_t>(Winner::Tie)]);
}

// Independent check: deal every ordered sequence of 6 physical cards of a small shoe through
// dealCoup/evaluate/classifyBet and count; the enumeration must give the same integers.
OddsReport bruteForce(const std::vector<Card>& shoe) {
    OddsReport r;
    test::forEveryOrderedDeal(shoe, [&](const Outcome& o) {
        ++r.sequences;
        ++r.winners[static_cast<std::size_t>(o.winner)];
        for (const BetType t : kAllBetTypes) {
            r.bets[static_cast<std::size_t>(t)].add(classifyBet(t, o));
        }
    });
    return r;
}

void expectSameCounts(const std::string& shoeText) {
    const auto shoe = test::cards(shoeText);
    ShoeComposition composition;
    for (const Card c : shoe) {
        composition.add(c);
    }
    const OddsReport fast = exactOdds(composition);
    const OddsReport slow = bruteForce(shoe);
    EXPECT_EQ(fast.sequences, slow.sequences);
    EXPECT_EQ(fast.winners, slow.winners);
    for (const BetType t : kAllBetTypes) {
        const auto& a = fast.tally(t);
        const auto& b = slow.tally(t);
        EXPECT_EQ(a.wins, b.wins) << betTypeName(t) << " in " << shoeText;
        EXPECT_EQ(a.pushes, b.pushes) << betTypeName(t);
        EXPECT_EQ(a.losses, b.losses) << betTypeName(t);
    }
}

TEST(ExactOdds, EqualsBruteForceDealingOnSmallShoes) {
    // Nines of every suit, a duplicated nine of diamonds, suited duplicates for perfect pairs,
    // zero-point cards of several ranks.
    expectSameCounts("9D 9D 9S 9H KS KS 5C 5C 3H 2D AS 7C");
    expectSameCounts("9C 9C 9C QH QD TS 4H 4H 6S 8D 2C 3C");
    expectSameCounts("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS");
}

// The kept odds of a full shoe: the enumeration's own figures, computed once and handed out again.
TEST(ExactOdds, FullShoeOddsAreKeptPerDeckCount) {
    const OddsReport& one = fullShoeOdds(1);
    EXPECT_EQ(one.sequences, 52ULL * 51 * 50 * 49 * 48 * 47);
    const OddsReport fresh = exactOdds(ShoeComposition::fullDecks(1));
    EXPECT_EQ(one.winners, fresh.winners);
    EXPECT_EQ(&fullShoeOdds(1), &one);
    EXPECT_EQ(fullShoeOdds(8).sequences, 416ULL * 415 * 414 * 413 * 412 * 411);
    EXPECT_THROW((void)fullShoeOdds(kMinDecks - 1), std::invalid_argument);
    EXPECT_THROW((void)fullShoeOdds(kMaxDecks + 1), std::invalid_argument);
}

TEST(ExactOdds, RefusesAShoeTooSmallForACoup) {
    EXPECT_THROW((void)exactOdds(ShoeComposition()), std::invalid_argument);
}

}  // namespace
}  // namespace pitlink::game
