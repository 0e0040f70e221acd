// The inspector's side of a controller of several games (issue 34): the views (schema 4) give each
// row its game, a station's statement spans its games on its one credit meter, and recall and
// export select one game. Sums are worked by hand: the station's ticket in of 1,000; alpha's
// Player 100 wins 1:1 on a Player natural (200 back), beta's Banker 200 loses on the same coup.
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "daemon/journal/read/journal_export.h"
#include "daemon/journal/read/recall.h"
#include "daemon/journal/read/tip_report.h"
#include "daemon/journal/records/record_kinds.h"
#include "tests/unit/controller_fixture.h"

namespace pitlink::table {
namespace {

using game::BetType;
using nlohmann::json;

constexpr const char* kPlayerNatural = "9S 2H KD 4C";

// Both games' rounds played to the end: alpha's round 1, beta's round 2.
struct PlayedInBoth : Controller4 {
    PlayedInBoth() : Controller4({"alpha", "beta"}) {
        stakeInBoth(1'000, BetType::Player, 100, BetType::Banker, 200);
        deal(0, kPlayerNatural);
        deal(1, kPlayerNatural);
        deferred.flush();
    }
    std::vector<std::tuple<std::int64_t, std::string>> roundsOf(const std::string& view) {
        auto q = store().connection().prepare("SELECT round_id, game FROM " + view + " ORDER BY round_id");
        std::vector<std::tuple<std::int64_t, std::string>> rows;
        while (q.step()) {
            rows.emplace_back(q.integer(0), std::string(q.text(1)));
        }
        return rows;
    }
    std::int64_t sumOfStatement(const std::string& where) {
        auto q = store().connection().prepare(
            "SELECT coalesce(sum(amount), 0) FROM station_statement WHERE station = " + std::to_string(kStation) +
            " AND " + where);
        q.step();
        return q.integer(0);
    }
};

TEST(MultiGameViews, EachRowSaysItsGameAndTheStatementSpansTheGames) {
    PlayedInBoth c;
    using Rows = std::vector<std::tuple<std::int64_t, std::string>>;
    EXPECT_EQ(c.roundsOf("round_summary"), (Rows{{1, "alpha"}, {2, "beta"}}));
    EXPECT_EQ(c.roundsOf("round_recall"), (Rows{{1, "alpha"}, {2, "beta"}}));
    auto recall = c.store().connection().prepare("SELECT game, stake, returned FROM round_recall ORDER BY round_id");
    ASSERT_TRUE(recall.step());
    EXPECT_EQ(std::make_tuple(std::string(recall.text(0)), recall.integer(1), recall.integer(2)),
              std::make_tuple(std::string("alpha"), std::int64_t{100}, std::int64_t{200}));
    ASSERT_TRUE(recall.step());
    EXPECT_EQ(std::make_tuple(std::string(recall.text(0)), recall.integer(1), recall.integer(2)),
              std::make_tuple(std::string("beta"), std::int64_t{200}, std::int64_t{0}));
    // One credit meter: the ticket (no game's), alpha's stake and win, beta's stake.
    EXPECT_EQ(c.sumOfStatement("game IS NULL"), 1'000);
    EXPECT_EQ(c.sumOfStatement("game = 'alpha'"), -100 + 200);
    EXPECT_EQ(c.sumOfStatement("game = 'beta'"), -200);
    EXPECT_EQ(c.committedCredits(), 1'000 - 100 + 200 - 200);
    // events: every record of a round names its game.
    auto unnamed = c.store().connection().prepare(
        "SELECT count(*), (SELECT count(*) FROM events WHERE game = 'beta') FROM events "
        "WHERE round_id IS NOT NULL AND game IS NULL");
    ASSERT_TRUE(unnamed.step());
    EXPECT_EQ(unnamed.integer(0), 0);
    EXPECT_GT(unnamed.integer(1), 5);
}

TEST(MultiGameViews, RecallAndExportSelectOneGame) {
    PlayedInBoth c;
    journal::SegmentedJournal whole(c.store());
    const auto beta = journal::recallRounds(whole, 10, std::nullopt, journal::GameOfRounds{"beta", false});
    ASSERT_EQ(beta.size(), 1U);
    EXPECT_EQ(beta[0].round.roundId, 2);
    const auto alphaOfStation = journal::recallRounds(whole, 10, kStation, journal::GameOfRounds{"alpha", true});
    ASSERT_EQ(alphaOfStation.size(), 1U);
    EXPECT_EQ(alphaOfStation[0].round.roundId, 1);
    EXPECT_EQ(journal::recallRounds(whole, 10).size(), 2U);
    EXPECT_TRUE(journal::recallRounds(whole, 10, std::nullopt, journal::GameOfRounds{"gamma", false}).empty());

    std::ostringstream csv;
    const std::int64_t written =
        journal::exportJournal(whole, journal::ExportRange{{}, {}, {}, {}, journal::GameOfRounds{"beta", false}},
                               journal::ExportFormat::Csv, csv);
    auto named =
        c.store().connection().prepare("SELECT count(*) FROM record WHERE json_extract(body, '$.game') = 'beta'");
    ASSERT_TRUE(named.step());
    EXPECT_EQ(written, named.integer(0));
    std::istringstream in(csv.str());
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "seq,at_utc,kind,round_id,station,body,hash,prev_hash,game");
    std::int64_t lines = 0;
    while (std::getline(in, line)) {
        EXPECT_TRUE(line.ends_with(",\"beta\"")) << line;
        ++lines;
    }
    EXPECT_EQ(lines, written);
}

TEST(MultiGameViews, ATipGoesToTheDealerOfTheGameItNames) {
    PlayedInBoth c;
    const Reply tipped = c.call([&](Respond r) { c.game(1).tip(kStation, 50, r); });
    ASSERT_TRUE(tipped.ok) << tipped.message;
    EXPECT_EQ(c.committedCredits(), 900 - 50);
    const auto tips = c.bodies(journal::kind::kTip);
    ASSERT_EQ(tips.size(), 1U);
    EXPECT_EQ(tips[0].at("game"), "beta");
    journal::SegmentedJournal whole(c.store());
    const auto ofBeta = journal::tipReport(whole, 0, INT64_MAX, 86'400'000, journal::GameOfRounds{"beta", false});
    ASSERT_EQ(ofBeta.size(), 1U);
    EXPECT_EQ(ofBeta[0].total.amount, 50);
    EXPECT_EQ(ofBeta[0].byStation.at(kStation).count, 1);
    EXPECT_TRUE(journal::tipReport(whole, 0, INT64_MAX, 86'400'000, journal::GameOfRounds{"alpha", true}).empty());
    EXPECT_EQ(journal::tipReport(whole, 0, INT64_MAX, 86'400'000).size(), 1U);
}

// A tip to beta's dealer racing a bet in alpha, neither committed: the tip is decided on credits
// that already hold the bet (1,000 - 800 leaves 200: a tip of 300 is refused, one of 200 goes).
TEST(MultiGameViews, ATipToOneGamesDealerCannotSpendCreditsAnotherGameStaked) {
    Controller4 c({"alpha", "beta"});
    c.openBoth(1'000);
    c.game(0).placeBet(kStation, BetType::Player, 800, c.ask("bet"));
    c.game(1).tip(kStation, 300, c.ask("tip 300"));
    c.game(1).tip(kStation, 200, c.ask("tip 200"));
    c.deferred.flush();
    EXPECT_TRUE(c.reply("bet").ok);
    EXPECT_EQ(c.reply("tip 300").error, "insufficient_credits");
    EXPECT_TRUE(c.reply("tip 200").ok);
    EXPECT_EQ(c.committedCredits(), 1'000 - 800 - 200);
    const auto tips = c.bodies(journal::kind::kTip);
    ASSERT_EQ(tips.size(), 1U);
    EXPECT_EQ(tips[0].at("game"), "beta");
}

}  // namespace
}  // namespace pitlink::table
