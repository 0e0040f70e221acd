#include "daemon/game/simulator.h"

#include <gtest/gtest.h>

#include <cmath>

#include "daemon/game/exact_odds.h"
#include "tests/unit/fixtures.h"

namespace pitlink::game {
namespace {

// Real shoes (shuffle, cut card, burn) must agree with the exact odds within 4 standard errors
// for every bet of every shipped paytable.
TEST(Simulator, AgreesWithExactOddsWithinFourStandardErrors) {
    SeededRandom random(20261122);
    const std::uint64_t rounds = 3'000'000;
    const SimulationReport sim = simulate(ShoeConfig{}, rounds, random);
    const OddsReport exact = exactOdds(ShoeComposition::fullDecks(8));
    ASSERT_EQ(sim.rounds, rounds);
    // About 80 rounds a shoe: 416 cards - 14 behind the cut - burn, 4.94 cards a round.
    EXPECT_NEAR(static_cast<double>(rounds) / static_cast<double>(sim.shoes), 80.0, 2.0);
    for (const auto w : {Winner::Player, Winner::Banker, Winner::Tie}) {
        const double p = static_cast<double>(exact.probability(w));
        const double se = std::sqrt(p * (1 - p) / static_cast<double>(rounds));
        const double f = static_cast<double>(sim.winners[static_cast<std::size_t>(w)]) / static_cast<double>(rounds);
        EXPECT_LT(std::abs(f - p), 4 * se) << winnerName(w);
    }
    for (const char* id : {"standard", "no_commission", "ruyi"}) {
        const Paytable table = test::shippedPaytable(id);
        for (const BetType t : kAllBetTypes) {
            if (!table.offers(t)) {
                continue;
            }
            const BetReturn e = betReturn(table, t, exact.tally(t));
            const BetReturn s = betReturn(table, t, sim.tally(t));
            const double se = std::sqrt(static_cast<double>(e.variance) / static_cast<double>(rounds));
            EXPECT_LT(std::abs(static_cast<double>(s.mean - e.mean)), 4 * se) << id << " " << betTypeName(t);
        }
    }
}

TEST(Simulator, SameSeedSameResult) {
    SeededRandom a(5);
    SeededRandom b(5);
    const auto ra = simulate(ShoeConfig{}, 20'000, a);
    const auto rb = simulate(ShoeConfig{}, 20'000, b);
    EXPECT_EQ(ra.winners, rb.winners);
    EXPECT_EQ(ra.shoes, rb.shoes);
    SeededRandom c(6);
    EXPECT_NE(simulate(ShoeConfig{}, 20'000, c).winners, ra.winners);
}

}  // namespace
}  // namespace pitlink::game
