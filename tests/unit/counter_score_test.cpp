// Counter detection's score (issue 38): its z-score is the one every order of the same stakes
// gives (checked by enumerating the orders), a station betting only where the edge is positive
// stands out, and a random bettor rarely reaches the level a counter reaches at once.
#include "daemon/game/counter_score.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace pitlink::game {
namespace {

// A Gold 7 edge through a shoe of 70 rounds: the house's 7.6 % mostly, turning positive in eight
// rounds late in the shoe (as a shoe rich in sevens does).
std::vector<std::int64_t> edgesThroughAShoe() {
    std::vector<std::int64_t> edges;
    for (int round = 0; round < 70; ++round) {
        const std::int64_t wobble = (round * 7919 % 41) * 1000 - 20'000;
        edges.push_back(round >= 55 && round % 2 == 0 ? 40'000 + wobble : -76'000 + wobble);
    }
    return edges;
}

TEST(CounterScore, ItsZIsWhatEveryOrderOfTheSameStakesGives) {
    const std::vector<std::int64_t> edges{-80'000, 30'000, -70'000, 120'000, -75'000};
    const std::vector<std::int64_t> stakes{0, 500, 100, 1000, 0};
    // Every order of the stakes over the rounds, each as likely: the sum of stakes times edges.
    std::vector<std::int64_t> order = stakes;
    std::sort(order.begin(), order.end());
    std::vector<double> sums;
    do {
        double sum = 0;
        for (std::size_t i = 0; i < edges.size(); ++i) {
            sum += static_cast<double>(order[i]) * static_cast<double>(edges[i]);
        }
        sums.push_back(sum);
    } while (std::next_permutation(order.begin(), order.end()));
    const double mean = std::accumulate(sums.begin(), sums.end(), 0.0) / static_cast<double>(sums.size());
    double squares = 0;
    for (const double s : sums) {
        squares += (s - mean) * (s - mean);
    }
    const double sd = std::sqrt(squares / static_cast<double>(sums.size()));
    double actual = 0;
    for (std::size_t i = 0; i < edges.size(); ++i) {
        actual += static_cast<double>(stakes[i]) * static_cast<double>(edges[i]);
    }
    const CounterScore score = counterScore(edges, stakes);
    EXPECT_NEAR(score.z, (actual - mean) / sd, 1e-9);
    EXPECT_EQ(score.rounds, 5);
    EXPECT_EQ(score.staked, 1600);
    EXPECT_NEAR(score.meanEdgePpm, -15'000, 1e-9);
    EXPECT_NEAR(score.stakedEdgePpm, (500.0 * 30'000 + 100.0 * -70'000 + 1000.0 * 120'000) / 1600, 1e-9);
}

TEST(CounterScore, AStationBettingOnlyWhereTheEdgeIsPositiveStandsOut) {
    const auto edges = edgesThroughAShoe();
    std::vector<std::int64_t> stakes;
    for (const std::int64_t e : edges) {
        stakes.push_back(e > 0 ? 2500 : 0);
    }
    const CounterScore score = counterScore(edges, stakes);
    EXPECT_GT(score.stakedEdgePpm, 0);
    EXPECT_LT(score.meanEdgePpm, 0);
    EXPECT_GT(score.z, 5);
}

TEST(CounterScore, ARandomBettorRarelyReachesWhatACounterReaches) {
    const auto edges = edgesThroughAShoe();
    std::mt19937_64 random(38);
    int above = 0;
    constexpr int kBettors = 4000;
    for (int b = 0; b < kBettors; ++b) {
        std::vector<std::int64_t> stakes;
        for (std::size_t i = 0; i < edges.size(); ++i) {
            stakes.push_back(random() % 10 < 3 ? static_cast<std::int64_t>(100 * (1 + random() % 50)) : 0);
        }
        above += counterScore(edges, stakes).z > 3 ? 1 : 0;
    }
    // A normal's tail beyond 3 is 0.13 %; the stakes and edges here are far from normal, so allow
    // some more, and far less than every counter.
    EXPECT_LT(above, kBettors / 100) << above << " of " << kBettors;
}

TEST(CounterScore, NothingToTellWhenStakesOrEdgesAreAllTheSame) {
    const auto edges = edgesThroughAShoe();
    EXPECT_EQ(counterScore(edges, std::vector<std::int64_t>(edges.size(), 500)).z, 0);
    EXPECT_EQ(counterScore(std::vector<std::int64_t>(5, -76'000), std::vector<std::int64_t>{0, 5, 0, 5, 9}).z, 0);
    EXPECT_EQ(counterScore({}, {}).rounds, 0);
    EXPECT_THROW((void)counterScore(edges, std::vector<std::int64_t>(3, 1)), std::invalid_argument);
    EXPECT_THROW((void)counterScore(std::vector<std::int64_t>{1, 2}, std::vector<std::int64_t>{1, -1}),
                 std::invalid_argument);
}

}  // namespace
}  // namespace pitlink::game
