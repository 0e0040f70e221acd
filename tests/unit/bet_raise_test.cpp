// Seed 000 "Raise bet": the chip on every spot in the order the bets were placed, until the
// credits run out; a spot at its maximum is left as it stands (README "Bet rules").
#include "daemon/game/bet_raise.h"

#include <gtest/gtest.h>

#include "tests/unit/fixtures.h"

namespace pitlink::game {
namespace {

class BetRaiseTest : public ::testing::Test {
protected:
    Paytable standard = test::shippedPaytable("standard");
    BetRulesConfig rules;
    StationBetContext ctx{true, 1, 0, 100, {}, 1, {}};

    BetSlip slip(std::initializer_list<std::pair<BetType, Money>> bets) const {
        BetSlip s;
        for (const auto& [type, stake] : bets) {
            s[type] = stake;
        }
        return s;
    }
};

TEST_F(BetRaiseTest, EverySpotGetsTheChipWhenTheCreditsCoverIt) {
    ctx.credits = 10'000;  // before this round's bets: 1,500 placed, 8,500 left
    const BetSlip current = slip({{BetType::Banker, 1000}, {BetType::Tie, 500}});
    const std::vector<BetType> order{BetType::Tie, BetType::Banker};
    const RaisePlan plan = planRaise(order, current, 500, ctx, standard, rules);
    EXPECT_EQ(plan.add[BetType::Banker], 500);
    EXPECT_EQ(plan.add[BetType::Tie], 500);
    EXPECT_TRUE(plan.skipped.empty());
}

TEST_F(BetRaiseTest, InTheOrderPlacedUntilTheCreditsRunOut) {
    // 3 spots of 1,000 placed (pair first, then tie, then banker); 4,700 credits in all: 1,700
    // left. A chip of 800 raises the pair (900 left), then the tie (100 left); the banker's
    // would need 800 more: the raise ends there.
    ctx.credits = 4'700;
    const BetSlip current = slip({{BetType::Banker, 1000}, {BetType::Tie, 1000}, {BetType::PlayerPair, 1000}});
    const std::vector<BetType> order{BetType::PlayerPair, BetType::Tie, BetType::Banker};
    const RaisePlan plan = planRaise(order, current, 800, ctx, standard, rules);
    EXPECT_EQ(plan.add[BetType::PlayerPair], 800);
    EXPECT_EQ(plan.add[BetType::Tie], 800);
    EXPECT_EQ(plan.add[BetType::Banker], 0);
    ASSERT_EQ(plan.skipped.size(), 1U);
    EXPECT_EQ(plan.skipped[0].rule, BetRule::InsufficientCredits);
    EXPECT_EQ(plan.skipped[0].spot, BetType::Banker);
}

TEST_F(BetRaiseTest, ASpotAtItsMaximumStaysAndTheNextIsRaised) {
    rules.limits.levels.front().main = StakeRange{100, 2000};
    rules.limits.spots[static_cast<std::size_t>(BetType::Tie)] = StakeRange{100, 1000};
    ctx.credits = 100'000;
    const BetSlip current = slip({{BetType::Banker, 1500}, {BetType::Tie, 1000}});
    const std::vector<BetType> order{BetType::Tie, BetType::Banker};
    const RaisePlan plan = planRaise(order, current, 500, ctx, standard, rules);
    EXPECT_EQ(plan.add[BetType::Tie], 0);
    EXPECT_EQ(plan.add[BetType::Banker], 500);  // 2,000: its maximum exactly
    ASSERT_EQ(plan.skipped.size(), 1U);
    EXPECT_EQ(plan.skipped[0].rule, BetRule::AboveMaximum);
    // Raised again: nothing can move, each spot says why.
    const RaisePlan again =
        planRaise(order, slip({{BetType::Banker, 2000}, {BetType::Tie, 1000}}), 500, ctx, standard, rules);
    EXPECT_EQ(again.add.total(), 0);
    ASSERT_EQ(again.skipped.size(), 2U);
    EXPECT_EQ(again.skipped[1].rule, BetRule::AboveMaximum);
}

TEST_F(BetRaiseTest, AChipThatIsNotWholeCreditsRaisesNothing) {
    ctx.credits = 100'000;
    const RaisePlan plan =
        planRaise(std::vector<BetType>{BetType::Player}, slip({{BetType::Player, 1000}}), 150, ctx, standard, rules);
    EXPECT_EQ(plan.add.total(), 0);
    ASSERT_EQ(plan.skipped.size(), 1U);
    EXPECT_EQ(plan.skipped[0].rule, BetRule::NotWholeCredits);
}

}  // namespace
}  // namespace pitlink::game
