// Game protection's decisions at one game (issue 38): which side bets wait for their edge, which
// close, when an edge is stale, and which stations' stakes are reported. The edges are given as
// fractions here, so that each decision is checked at its boundary.
#include "daemon/game/side_bet_guard.h"

#include <gtest/gtest.h>

#include <random>

#include "tests/unit/fixtures.h"

namespace pitlink::game {
namespace {

BetEdge edge(BetType bet, std::int64_t num, std::int64_t den) {
    return BetEdge{bet, num, den};
}

ProtectionRules closeGoldSeven(std::int64_t abovePpm) {
    ProtectionRules rules;
    rules.enabled = true;
    rules.sideBets = {SideBetRule{BetType::Gold7, EdgeAction::Close, abovePpm},
                      SideBetRule{BetType::Jade8, EdgeAction::Alert, 0}};
    return rules;
}

std::optional<BetRule> ruleFor(const SideBetGuard& guard, BetType bet) {
    const auto refusal = guard.refusal(bet);
    return refusal ? std::optional(refusal->rule) : std::nullopt;
}

TEST(SideBetGuard, WithoutRulesEverySideBetOfferedIsWatchedAndNoneCloses) {
    ProtectionRules rules;
    rules.enabled = true;
    SideBetGuard guard(rules, test::shippedPaytable("ruyi"));
    std::vector<BetType> watched;
    for (const SideBetRule& rule : guard.watched()) {
        EXPECT_EQ(rule.action, EdgeAction::Alert);
        watched.push_back(rule.bet);
    }
    EXPECT_EQ(watched, (std::vector<BetType>{BetType::Tie, BetType::PlayerPair, BetType::BankerPair, BetType::AnyPair,
                                             BetType::Gold7, BetType::Jade8, BetType::Ruby9}));
    guard.compositionChanged();
    EXPECT_EQ(ruleFor(guard, BetType::Gold7), std::nullopt);  // watching only: never waits
}

TEST(SideBetGuard, ARuleForABetThePaytableDoesNotOfferIsLeftOut) {
    ProtectionRules rules = closeGoldSeven(0);
    rules.sideBets.push_back(SideBetRule{BetType::LuckyNines, EdgeAction::Close, 0});
    SideBetGuard guard(rules, test::shippedPaytable("ruyi"));  // no Lucky Nines
    EXPECT_EQ(guard.watched().size(), 2U);
    guard.compositionChanged();
    EXPECT_EQ(ruleFor(guard, BetType::LuckyNines), std::nullopt);
}

TEST(SideBetGuard, ACloseRuleWaitsForTheEdgeThenClosesAboveItsThresholdExactly) {
    SideBetGuard guard(closeGoldSeven(0), test::shippedPaytable("ruyi"));
    const std::uint64_t key = guard.compositionChanged();
    EXPECT_FALSE(guard.known());
    EXPECT_EQ(ruleFor(guard, BetType::Gold7), BetRule::SideBetEdgePending);
    EXPECT_EQ(ruleFor(guard, BetType::Jade8), std::nullopt);   // alert: never waits
    EXPECT_EQ(ruleFor(guard, BetType::Banker), std::nullopt);  // a main bet is never guarded

    // Exactly 0: not above 0, open.
    ASSERT_TRUE(guard.take(key, {edge(BetType::Gold7, 0, 7), edge(BetType::Jade8, 5, 1)}));
    EXPECT_TRUE(guard.known());
    EXPECT_EQ(ruleFor(guard, BetType::Gold7), std::nullopt);
    EXPECT_TRUE(guard.closed().empty());  // Jade 8's edge is positive, but its rule only alerts

    // One part in 10^12 above 0: closed, though its ppm figure rounds to 0.
    const std::uint64_t next = guard.compositionChanged();
    EXPECT_EQ(ruleFor(guard, BetType::Gold7), BetRule::SideBetEdgePending);
    ASSERT_TRUE(guard.take(next, {edge(BetType::Gold7, 1, 1'000'000'000'000), edge(BetType::Jade8, -1, 10)}));
    EXPECT_EQ(guard.edges().front().ppm(), 0);
    EXPECT_EQ(ruleFor(guard, BetType::Gold7), BetRule::SideBetClosed);
    EXPECT_EQ(guard.closed(), std::set<BetType>{BetType::Gold7});
    BetSlip slip;
    slip[BetType::Banker] = 100;
    slip[BetType::Gold7] = 10;
    ASSERT_TRUE(guard.refusal(slip).has_value());
    EXPECT_EQ(guard.refusal(slip)->spot, BetType::Gold7);
    slip[BetType::Gold7] = 0;
    EXPECT_FALSE(guard.refusal(slip).has_value());
}

TEST(SideBetGuard, AThresholdBelowZeroClosesAnEdgeTheHouseStillHolds) {
    SideBetGuard guard(closeGoldSeven(-20'000), test::shippedPaytable("ruyi"));  // closes above -2 %
    const std::uint64_t key = guard.compositionChanged();
    ASSERT_TRUE(guard.take(key, {edge(BetType::Gold7, -19'999, 1'000'000)}));
    EXPECT_EQ(ruleFor(guard, BetType::Gold7), BetRule::SideBetClosed);
    const std::uint64_t next = guard.compositionChanged();
    ASSERT_TRUE(guard.take(next, {edge(BetType::Gold7, -20'000, 1'000'000)}));
    EXPECT_EQ(ruleFor(guard, BetType::Gold7), std::nullopt);  // reopened when it falls back
}

TEST(SideBetGuard, AnEdgeForAnOlderCompositionIsDroppedAndTheBetKeepsWaiting) {
    SideBetGuard guard(closeGoldSeven(0), test::shippedPaytable("ruyi"));
    const std::uint64_t first = guard.compositionChanged();
    const std::uint64_t second = guard.compositionChanged();
    EXPECT_NE(first, second);
    EXPECT_FALSE(guard.take(first, {edge(BetType::Gold7, -1, 10)}));
    EXPECT_FALSE(guard.known());
    EXPECT_EQ(ruleFor(guard, BetType::Gold7), BetRule::SideBetEdgePending);
    EXPECT_TRUE(guard.take(second, {edge(BetType::Gold7, -1, 10)}));
    EXPECT_EQ(ruleFor(guard, BetType::Gold7), std::nullopt);
}

// Rounds of a shoe whose Gold 7 edge swings: station 1 bets Gold 7 only on the positive rounds,
// station 2 on random rounds with random stakes, station 3 never.
struct Watch {
    SideBetGuard guard;
    std::vector<CounterAlert> raised;

    explicit Watch(ProtectionRules rules) : guard(rules, test::shippedPaytable("ruyi")) {}
    void round(std::int64_t goldPpm, const std::map<std::int64_t, BetSlip>& stakes) {
        const std::uint64_t key = guard.compositionChanged();
        ASSERT_TRUE(
            guard.take(key, {edge(BetType::Gold7, goldPpm, 1'000'000), edge(BetType::Jade8, -50'000, 1'000'000)}));
        for (const CounterAlert& a : guard.roundSettled({1, 2, 3}, stakes)) {
            raised.push_back(a);
        }
    }
};

ProtectionRules alertGoldSeven() {
    ProtectionRules rules;
    rules.enabled = true;
    rules.sideBets = {SideBetRule{BetType::Gold7, EdgeAction::Alert, 0},
                      SideBetRule{BetType::Jade8, EdgeAction::Alert, 0}};
    rules.counterAlertZ = 4;
    rules.counterMinRounds = 20;
    rules.counterMinStakedRounds = 3;
    return rules;
}

TEST(SideBetGuard, AStationBettingOnlyThePositiveRoundsIsReportedOnceARandomOneIsNot) {
    Watch watch(alertGoldSeven());
    std::mt19937 random(38);
    for (int r = 0; r < 70; ++r) {
        // The edge drifts up through the shoe, positive in a few late rounds.
        const std::int64_t ppm = r % 10 == 9 ? 150'000 : -76'000 + r * 500;
        std::map<std::int64_t, BetSlip> stakes;
        if (ppm > 0) {
            stakes[1][BetType::Gold7] = 500;
        }
        if (random() % 3 == 0) {
            stakes[2][BetType::Gold7] = 100 * static_cast<Money>(1 + random() % 5);
        }
        watch.round(ppm, stakes);
    }
    ASSERT_EQ(watch.raised.size(), 1U);
    const CounterAlert& alert = watch.raised.front();
    EXPECT_EQ(alert.station, 1);
    EXPECT_EQ(alert.bet, BetType::Gold7);
    EXPECT_GE(alert.score.z, 4.0);
    EXPECT_DOUBLE_EQ(alert.score.stakedEdgePpm, 150'000.0);  // every stake on a +15 % round
    ASSERT_TRUE(watch.guard.score(2, BetType::Gold7).has_value());
    EXPECT_LT(watch.guard.score(2, BetType::Gold7)->z, 4.0);
    EXPECT_EQ(watch.guard.score(3, BetType::Gold7)->staked, 0);
    EXPECT_EQ(watch.guard.alerts().size(), 1U);

    // A new shoe: figures start again, and the station can be reported again.
    watch.guard.newShoe();
    EXPECT_FALSE(watch.guard.score(1, BetType::Gold7).has_value());
    EXPECT_TRUE(watch.guard.alerts().empty());
}

TEST(SideBetGuard, NoReportBeforeTheMinimumRoundsAndStakedRounds) {
    ProtectionRules rules = alertGoldSeven();
    rules.counterMinRounds = 30;
    Watch watch(rules);
    for (int r = 0; r < 29; ++r) {
        std::map<std::int64_t, BetSlip> stakes;
        const std::int64_t ppm = r % 5 == 4 ? 200'000 : -80'000;
        if (ppm > 0) {
            stakes[1][BetType::Gold7] = 1'000;
        }
        watch.round(ppm, stakes);
    }
    EXPECT_TRUE(watch.raised.empty());
    EXPECT_GE(watch.guard.score(1, BetType::Gold7)->z, 4.0);  // it would score, but 29 rounds < 30
    watch.round(200'000, {{1, [] {
                               BetSlip s;
                               s[BetType::Gold7] = 1'000;
                               return s;
                           }()}});
    ASSERT_EQ(watch.raised.size(), 1U);
    EXPECT_EQ(watch.raised.front().score.rounds, 30);
}

TEST(SideBetGuard, RoundsWhoseBetWasClosedOrWhoseEdgeWasUnknownAreNotCounted) {
    ProtectionRules rules = closeGoldSeven(100'000);  // Gold 7 closes above +10 %
    SideBetGuard guard(rules, test::shippedPaytable("ruyi"));
    std::uint64_t key = guard.compositionChanged();
    ASSERT_TRUE(guard.take(key, {edge(BetType::Gold7, 200'000, 1'000'000), edge(BetType::Jade8, -1, 10)}));
    EXPECT_TRUE(guard.roundSettled({1}, {}).empty());
    EXPECT_FALSE(guard.score(1, BetType::Gold7).has_value());  // closed: no round for its figures
    EXPECT_EQ(guard.score(1, BetType::Jade8)->rounds, 1);
    guard.compositionChanged();  // unknown edge: the round counts for nothing
    EXPECT_TRUE(guard.roundSettled({1}, {}).empty());
    EXPECT_EQ(guard.score(1, BetType::Jade8)->rounds, 1);
    key = guard.compositionChanged();
    ASSERT_TRUE(guard.take(key, {edge(BetType::Gold7, -1, 10), edge(BetType::Jade8, -1, 10)}));
    guard.roundSettled({1}, {});
    EXPECT_EQ(guard.score(1, BetType::Gold7)->rounds, 1);
    EXPECT_EQ(guard.score(1, BetType::Jade8)->rounds, 2);
}

}  // namespace
}  // namespace pitlink::game
