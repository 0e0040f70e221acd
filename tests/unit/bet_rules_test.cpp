#include "daemon/game/bet_rules.h"

#include <gtest/gtest.h>

#include "tests/unit/fixtures.h"

namespace pitlink::game {
namespace {

class BetRulesTest : public ::testing::Test {
protected:
    Paytable standard = test::shippedPaytable("standard");
    Paytable ruyi = test::shippedPaytable("ruyi");
    BetRulesConfig rules;  // defaults of docs/rules.md
    StationBetContext ctx{true, 1, 1'000'000, 100, {}, 1, {}};

    std::optional<BetRule> refusal(const BetSlip& slip, const Paytable& table) const {
        const auto r = checkSlip(slip, ctx, table, rules);
        return r ? std::optional(r->rule) : std::nullopt;
    }
    static BetSlip slip(std::initializer_list<std::pair<BetType, Money>> bets) {
        BetSlip s;
        for (const auto& [type, stake] : bets) {
            s[type] = stake;
        }
        return s;
    }
};

TEST_F(BetRulesTest, AcceptsAnOrdinarySlip) {
    EXPECT_EQ(refusal(slip({{BetType::Banker, 1000}, {BetType::Tie, 200}, {BetType::PlayerPair, 100}}), standard),
              std::nullopt);
}

TEST_F(BetRulesTest, BettingClosed) {
    ctx.bettingOpen = false;
    EXPECT_EQ(refusal(slip({{BetType::Banker, 1000}}), standard), BetRule::BettingClosed);
    EXPECT_EQ(refusal(BetSlip{}, standard), std::nullopt);  // nothing placed: nothing to refuse
}

TEST_F(BetRulesTest, SpotNotOfferedByThePaytable) {
    EXPECT_EQ(refusal(slip({{BetType::Gold7, 1000}}), standard), BetRule::NotOffered);
    EXPECT_EQ(refusal(slip({{BetType::Gold7, 1000}}), ruyi), std::nullopt);
}

TEST_F(BetRulesTest, NegativeStake) {
    EXPECT_EQ(refusal(slip({{BetType::Player, -100}}), standard), BetRule::NotPositive);
}

TEST_F(BetRulesTest, StakeMustBeWholeCredits) {
    EXPECT_EQ(refusal(slip({{BetType::Player, 150}}), standard), BetRule::NotWholeCredits);  // denomination 100
    EXPECT_EQ(refusal(slip({{BetType::Player, 200}}), standard), std::nullopt);
}

TEST_F(BetRulesTest, TableMinimumAndMaximumPerSpot) {
    rules.limits.levels.front().main = StakeRange{500, 2000};
    EXPECT_EQ(refusal(slip({{BetType::Player, 400}}), standard), BetRule::BelowMinimum);
    EXPECT_EQ(refusal(slip({{BetType::Player, 500}}), standard), std::nullopt);
    EXPECT_EQ(refusal(slip({{BetType::Player, 2000}}), standard), std::nullopt);
    EXPECT_EQ(refusal(slip({{BetType::Player, 2100}}), standard), BetRule::AboveMaximum);
}

// Seed 002's levels: the station plays at the level its player chose; a spot's own range wins
// over the level's; the player's own limits narrow every range (seed 004).
TEST_F(BetRulesTest, LimitsFollowTheStationsLevelTheSpotsOwnRangeAndThePlayersLimits) {
    rules.limits.levels = {LimitLevel{{200, 4100}, {}}, LimitLevel{{500, 10200}, {}}};
    rules.limits.spots[static_cast<std::size_t>(BetType::Tie)] = StakeRange{100, 600};
    rules.limits.levels[1].spots[static_cast<std::size_t>(BetType::Tie)] = StakeRange{300, 1200};
    ctx.level = 1;
    EXPECT_EQ(refusal(slip({{BetType::Banker, 4100}}), standard), std::nullopt);
    EXPECT_EQ(refusal(slip({{BetType::Banker, 4200}}), standard), BetRule::AboveMaximum);
    EXPECT_EQ(refusal(slip({{BetType::Banker, 200}, {BetType::Tie, 100}}), standard), std::nullopt);
    EXPECT_EQ(refusal(slip({{BetType::Banker, 200}, {BetType::Tie, 700}}), standard), BetRule::AboveMaximum);
    ctx.level = 2;
    EXPECT_EQ(refusal(slip({{BetType::Banker, 400}}), standard), BetRule::BelowMinimum);
    EXPECT_EQ(refusal(slip({{BetType::Banker, 10200}, {BetType::Tie, 1200}}), standard), std::nullopt);
    EXPECT_EQ(refusal(slip({{BetType::Banker, 600}, {BetType::Tie, 200}}), standard), BetRule::BelowMinimum);
    // A pair has no range of its own: the level's.
    EXPECT_EQ(refusal(slip({{BetType::Banker, 600}, {BetType::PlayerPair, 400}}), standard), BetRule::BelowMinimum);
    ctx.personal = PersonalLimits{1000, 3000};
    EXPECT_EQ(refusal(slip({{BetType::Banker, 900}}), standard), BetRule::BelowMinimum);
    EXPECT_EQ(refusal(slip({{BetType::Banker, 3000}}), standard), std::nullopt);
    const auto above = checkSlip(slip({{BetType::Banker, 3100}}), ctx, standard, rules);
    ASSERT_TRUE(above);
    EXPECT_EQ(above->rule, BetRule::AboveMaximum);
    EXPECT_NE(above->message.find("above the maximum 3000 at limit level 2 (with the player's own limits)"),
              std::string::npos)
        << above->message;
    // A level past the last is the last; the largest maximum anywhere is what SAS reports.
    EXPECT_EQ(spotRange(rules.limits, 9, BetType::Player), (StakeRange{500, 10200}));
    EXPECT_EQ(highestMaximum(rules.limits), 10200);
}

TEST_F(BetRulesTest, MaximumPayoutPerSpotUsesTheHighestLine) {
    rules.maxPayout = 100'000;
    // Lucky Nines tops at 500:1: 200 could win 100,000 (allowed), 300 could win 150,000.
    EXPECT_EQ(refusal(slip({{BetType::Player, 200}, {BetType::LuckyNines, 200}}), standard), std::nullopt);
    EXPECT_EQ(refusal(slip({{BetType::Player, 200}, {BetType::LuckyNines, 300}}), standard), BetRule::AbovePayoutLimit);
}

TEST_F(BetRulesTest, SlipMustNotExceedCredits) {
    ctx.credits = 1000;
    EXPECT_EQ(refusal(slip({{BetType::Player, 600}, {BetType::Tie, 400}}), standard), std::nullopt);
    const auto r = checkSlip(slip({{BetType::Player, 600}, {BetType::Tie, 500}}), ctx, standard, rules);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->rule, BetRule::InsufficientCredits);
    EXPECT_NE(r->message.find("1100"), std::string::npos) << r->message;
}

TEST_F(BetRulesTest, TieOnlyWithAMainBetWhenConfigured) {
    EXPECT_EQ(refusal(slip({{BetType::Tie, 100}}), standard), std::nullopt);  // default off
    rules.tieNeedsMainBet = true;
    EXPECT_EQ(refusal(slip({{BetType::Tie, 100}}), standard), BetRule::TieWithoutMainBet);
    EXPECT_EQ(refusal(slip({{BetType::Tie, 100}, {BetType::Player, 100}}), standard), std::nullopt);
}

TEST_F(BetRulesTest, NeverPlayerAndBankerTogetherByDefault) {
    EXPECT_EQ(refusal(slip({{BetType::Player, 100}, {BetType::Banker, 100}}), standard), BetRule::PlayerAndBanker);
    rules.forbidPlayerAndBanker = false;
    EXPECT_EQ(refusal(slip({{BetType::Player, 100}, {BetType::Banker, 100}}), standard), std::nullopt);
}

TEST_F(BetRulesTest, BigSmallRefusedAfterRound31) {
    ctx.roundInShoe = 31;
    EXPECT_EQ(refusal(slip({{BetType::Big, 100}}), standard), std::nullopt);
    ctx.roundInShoe = 32;
    EXPECT_EQ(refusal(slip({{BetType::Big, 100}}), standard), BetRule::BigSmallTooLate);
    EXPECT_EQ(refusal(slip({{BetType::Small, 100}}), standard), BetRule::BigSmallTooLate);
    EXPECT_EQ(refusal(slip({{BetType::Player, 100}}), standard), std::nullopt);
}

TEST_F(BetRulesTest, LuckyNinesOnlyWithAMainBet) {
    EXPECT_EQ(refusal(slip({{BetType::LuckyNines, 100}}), standard), BetRule::LuckyNinesWithoutMainBet);
    EXPECT_EQ(refusal(slip({{BetType::LuckyNines, 100}, {BetType::Tie, 100}}), standard),
              BetRule::LuckyNinesWithoutMainBet);
    EXPECT_EQ(refusal(slip({{BetType::LuckyNines, 100}, {BetType::Banker, 100}}), standard), std::nullopt);
}

TEST_F(BetRulesTest, AntiDoublingLimitsTheFourthLosingEvenMoneyBet) {
    rules.antiDoubling = true;
    LosingStreak streak;
    streak.record(100, BetResult::Loss);
    streak.record(200, BetResult::Loss);
    streak.record(0, BetResult::Loss);    // a round without an even-money bet changes nothing
    streak.record(200, BetResult::Push);  // a tie neither grows nor breaks the streak
    ctx.streak = streak;
    EXPECT_EQ(refusal(slip({{BetType::Banker, 800}}), standard), std::nullopt);  // only 2 losses so far
    streak.record(400, BetResult::Loss);
    ctx.streak = streak;
    EXPECT_EQ(streak.losses, 3);
    EXPECT_EQ(refusal(slip({{BetType::Banker, 600}}), standard), std::nullopt);  // 400 + 50 %
    EXPECT_EQ(refusal(slip({{BetType::Banker, 700}}), standard), BetRule::AntiDoubling);
    EXPECT_EQ(refusal(slip({{BetType::Tie, 5000}}), standard), std::nullopt);  // not an even-money bet
    streak.record(600, BetResult::Win);
    ctx.streak = streak;
    EXPECT_EQ(refusal(slip({{BetType::Banker, 5000}}), standard), std::nullopt);
    rules.antiDoubling = false;
    ctx.streak = LosingStreak{5, 100};
    EXPECT_EQ(refusal(slip({{BetType::Banker, 5000}}), standard), std::nullopt);
}

TEST_F(BetRulesTest, EveryRuleHasItsOwnName) {
    std::set<std::string_view> names;
    for (int r = 0; r <= static_cast<int>(BetRule::SideBetEdgePending); ++r) {
        names.insert(betRuleName(static_cast<BetRule>(r)));
    }
    EXPECT_EQ(names.size(), 15U);
    EXPECT_EQ(betRuleName(BetRule::SideBetClosed), "side_bet_closed");
    EXPECT_EQ(betRuleName(BetRule::SideBetEdgePending), "side_bet_edge_pending");
}

}  // namespace
}  // namespace pitlink::game
