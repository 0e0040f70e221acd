#include "daemon/app/config_effects.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "daemon/config/paytable_loader.h"
#include "tests/unit/fixtures.h"

namespace pitlink::app {
namespace {

using ::testing::Contains;
using ::testing::Not;

const char* const kTwoGames =
    "games:\n"
    "  - name: live-1\n"
    "  - name: live-2\n"
    "    paytable: paytables/no_commission.yaml\n";

TEST(ConfigEffects, AGameIsFoundByItsNameInTheFileReRead) {
    const config::Config two = test::loadConfigText(kTwoGames);
    EXPECT_EQ(gameIndex(two, "live-1"), 0U);
    EXPECT_EQ(gameIndex(two, "live-2"), 1U);
    EXPECT_EQ(gameIndex(two, "live-3"), std::nullopt);
    // Without games: the table is the one game.
    const config::Config one = test::loadConfigText("table:\n  name: baccarat-7\n");
    EXPECT_EQ(gameIndex(one, "baccarat-7"), 0U);
    EXPECT_EQ(gameIndex(one, "live-1"), std::nullopt);
    // Reordered: each game keeps its own settings, not the one now at its place.
    const config::Config swapped =
        test::loadConfigText("games:\n  - name: live-2\n    bets: {min: 500, max: 9000}\n  - name: live-1\n");
    EXPECT_EQ(gameIndex(swapped, "live-2"), 0U);
    EXPECT_EQ(gameSettings(swapped, *gameIndex(swapped, "live-2")).bets.limits.levels.front().main.min, 500);
}

TEST(ConfigEffects, AChangedListOfGamesWaitsForTheNextStart) {
    const config::Config running = test::loadConfigText(kTwoGames);
    const game::Paytable paytable = config::loadPaytableFile(test::sourceDir() / "etc" / "paytables" / "standard.yaml");
    EXPECT_THAT(restartNeeded(running, paytable, test::loadConfigText(kTwoGames), paytable), Not(Contains("games")));
    // A game added, one renamed, another game's paytable file changed: each needs a restart.
    for (const char* fresh : {
             "games:\n  - name: live-1\n  - name: live-2\n    paytable: paytables/no_commission.yaml\n"
             "  - name: rng-1\n    source: rng\n",
             "games:\n  - name: live-1\n  - name: live-9\n    paytable: paytables/no_commission.yaml\n",
             "games:\n  - name: live-1\n  - name: live-2\n",
         }) {
        EXPECT_THAT(restartNeeded(running, paytable, test::loadConfigText(fresh), paytable), Contains("games"))
            << fresh;
    }
}

}  // namespace
}  // namespace pitlink::app
