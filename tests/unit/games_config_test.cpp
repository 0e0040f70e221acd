// pitlink.yaml's `games:` (issue 34): up to eight games on one controller, each key defaulting to
// table:, rounds: and bets:; without it, the one game those sections describe.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "daemon/config/config.h"
#include "daemon/config/config_error.h"
#include "daemon/config/paytable_loader.h"
#include "tests/unit/fixtures.h"

namespace pitlink::config {
namespace {

Config load(const std::string& text) {
    return test::loadConfigText(text);
}
ConfigError errorOf(const std::string& text) {
    return test::configTextError(text);
}

// The game that table:, rounds: and bets: describe, field by field.
void expectGameOfTheTable(const Config& c, const GameConfig& g) {
    EXPECT_EQ(g.name, c.table.name);
    EXPECT_EQ(g.rngShoe, c.table.rngShoe);
    EXPECT_EQ(g.shoe, c.table.shoe);
    EXPECT_EQ(g.paytableFile, c.table.paytableFile);
    EXPECT_EQ(g.rescanAttempts, c.table.rescanAttempts);
    EXPECT_EQ(g.readerTimeout, c.table.readerTimeout);
    EXPECT_EQ(g.naturalsOnBigRoad, c.table.naturalsOnBigRoad);
    EXPECT_EQ(g.rounds, c.rounds);
    EXPECT_EQ(g.bets, c.bets);
}

TEST(GamesConfig, WithoutGamesTheTableIsTheOneGame) {
    const Config c = load(
        "table:\n  name: baccarat-7\n  source: reader\n  decks: 6\n  cut_card_from_end: 20\n"
        "  paytable: paytables/ruyi.yaml\n  rescan_attempts: 5\n  reader_timeout_ms: 9000\n"
        "  naturals_on_big_road: false\n"
        "rounds:\n  bets_open_ms: 15000\n  last_bets_ms: 3000\n  confirm_bets: true\n"
        "bets:\n  min: 200\n  max: 9000\n  anti_doubling: true\n");
    ASSERT_EQ(c.games.size(), 1U);
    expectGameOfTheTable(c, c.games[0]);
    const GameConfig& g = c.games[0];
    EXPECT_EQ(g.name, "baccarat-7");
    EXPECT_FALSE(g.rngShoe);
    EXPECT_EQ(g.shoe, (game::ShoeConfig{6, 20}));
    EXPECT_EQ(g.paytableFile, std::filesystem::path("/etc/pitlink/paytables/ruyi.yaml"));
    EXPECT_EQ(g.rescanAttempts, 5);
    EXPECT_EQ(g.readerTimeout, std::chrono::milliseconds(9000));
    EXPECT_FALSE(g.naturalsOnBigRoad);
    EXPECT_EQ(g.rounds.betsOpen, std::chrono::milliseconds(15000));
    EXPECT_TRUE(g.rounds.confirmBets);
    EXPECT_EQ(g.bets.limits.levels.front().main, (game::StakeRange{200, 9000}));
    EXPECT_TRUE(g.bets.antiDoubling);

    const Config empty = load("");
    ASSERT_EQ(empty.games.size(), 1U);
    expectGameOfTheTable(empty, empty.games[0]);
    EXPECT_EQ(empty.games[0].name, "table-1");
}

// The previous release's shipped file (etc/pitlink.yaml of issue 33), unchanged: one game.
TEST(GamesConfig, ThePreviousReleasesShippedFileLoadsAsOneGame) {
    const std::filesystem::path file = test::sourceDir() / "tests" / "unit" / "data" / "pitlink-release-issue33.yaml";
    const Config c = loadConfigFile(file);
    ASSERT_EQ(c.games.size(), 1U);
    expectGameOfTheTable(c, c.games[0]);
    EXPECT_EQ(c.games[0].name, "table-1");
    EXPECT_TRUE(c.games[0].rngShoe);
    EXPECT_EQ(c.games[0].shoe, (game::ShoeConfig{8, 14}));
    EXPECT_EQ(c.games[0].paytableFile, file.parent_path() / "paytables" / "standard.yaml");
    EXPECT_EQ(c.games[0].rounds.betsOpen, std::chrono::seconds(20));
    EXPECT_EQ(c.games[0].bets.bigSmallLastRound, 31);
    // And today's shipped file, whose games: is an example in comments.
    const Config shipped = loadConfigFile(test::sourceDir() / "etc" / "pitlink.yaml");
    ASSERT_EQ(shipped.games.size(), 1U);
    expectGameOfTheTable(shipped, shipped.games[0]);
}

// etc/pitlink.yaml's commented example, uncommented: two reader games and an RNG one, whose
// paytables load.
TEST(GamesConfig, TheShippedFilesExampleLoadsUncommented) {
    const std::filesystem::path file = test::sourceDir() / "etc" / "pitlink.yaml";
    std::ifstream in(file);
    std::string text;
    std::string example;
    bool inExample = false;
    for (std::string line; std::getline(in, line);) {
        text += line + "\n";
        if (line == "# games:") {
            inExample = true;
        } else if (inExample && line.rfind("#   ", 0) != 0) {
            inExample = false;
        }
        if (inExample) {
            example += line.substr(2) + "\n";
        }
    }
    ASSERT_FALSE(example.empty());
    std::istringstream withGames(text + example);
    const Config c = loadConfig(withGames, file);
    ASSERT_EQ(c.games.size(), 3U);
    EXPECT_EQ(c.games[0].name, "live-1");
    EXPECT_FALSE(c.games[0].rngShoe);
    EXPECT_FALSE(c.games[1].rngShoe);
    EXPECT_EQ(c.games[1].shoe, (game::ShoeConfig{6, 16}));
    EXPECT_TRUE(c.games[2].rngShoe);
    for (const GameConfig& g : c.games) {
        EXPECT_NO_THROW((void)loadPaytableFile(g.paytableFile)) << g.name;
    }
    EXPECT_EQ(loadPaytableFile(c.games[1].paytableFile).id, "ruyi");
}

TEST(GamesConfig, ThreeGamesTakeTheirOwnKeysAndTheRestFromTheTopLevelSections) {
    const Config c = load(
        "table:\n  name: stadium\n  source: reader\n  stations: 16\n  decks: 8\n  cut_card_from_end: 16\n"
        "  rescan_attempts: 2\n  paytable: paytables/standard.yaml\n"
        "rounds:\n  bets_open_ms: 18000\n"
        "bets:\n  levels:\n    - {min: 200, max: 4100}\n    - {min: 500, max: 10200}\n"
        "  spots:\n    tie: {min: 100, max: 500}\n  max_payout: 5000000\n"
        "games:\n"
        "  - name: live-1\n"
        "  - name: live_2\n    decks: 6\n    cut_card_from_end: 20\n    reader_timeout_ms: 30000\n"
        "    paytable: paytables/ruyi.yaml\n"
        "    rounds: {last_bets_ms: 4000, confirm_bets: true}\n"
        "    bets:\n      min: 1000\n      max: 50000\n      tie_needs_main_bet: true\n"
        "  - name: rng\n    source: rng\n    decks: 1\n    cut_card_from_end: 8\n    rescan_attempts: 0\n"
        "    naturals_on_big_road: false\n    paytable: /opt/paytables/super6.yaml\n"
        "    rounds:\n      start: deal\n      bets_open_ms: 10000\n"
        "    bets:\n      spots: {}\n      anti_doubling: true\n");
    ASSERT_EQ(c.games.size(), 3U);
    EXPECT_EQ(c.table.name, "stadium");  // the controller's
    EXPECT_EQ(c.table.stations, 16);

    // live-1: everything from table:, rounds: and bets:.
    GameConfig first = c.games[0];
    EXPECT_EQ(first.name, "live-1");
    first.name = c.table.name;
    expectGameOfTheTable(c, first);
    EXPECT_FALSE(first.rngShoe);
    EXPECT_EQ(first.bets.limits.levels.size(), 2U);

    // live_2: its shoe, reader timeout, paytable, last bets, confirmation and one level of its own.
    const GameConfig& second = c.games[1];
    EXPECT_EQ(second.name, "live_2");
    EXPECT_EQ(second.shoe, (game::ShoeConfig{6, 20}));
    EXPECT_EQ(second.readerTimeout, std::chrono::milliseconds(30000));
    EXPECT_EQ(second.paytableFile, std::filesystem::path("/etc/pitlink/paytables/ruyi.yaml"));
    EXPECT_EQ(second.rounds.lastBets, std::chrono::milliseconds(4000));
    EXPECT_TRUE(second.rounds.confirmBets);
    ASSERT_EQ(second.bets.limits.levels.size(), 1U);
    EXPECT_EQ(second.bets.limits.levels.front().main, (game::StakeRange{1000, 50000}));
    EXPECT_TRUE(second.bets.tieNeedsMainBet);
    // Inherited: the source, rescans, the betting window, the tie's own range, max_payout.
    EXPECT_FALSE(second.rngShoe);
    EXPECT_EQ(second.rescanAttempts, 2);
    EXPECT_EQ(second.rounds.betsOpen, std::chrono::milliseconds(18000));
    EXPECT_EQ(second.bets.limits.spots[static_cast<std::size_t>(game::BetType::Tie)], (game::StakeRange{100, 500}));
    EXPECT_EQ(second.bets.maxPayout, 5'000'000);

    // rng: its own source, shoe, rescans, roads, paytable, start, window, spots and anti-doubling.
    const GameConfig& third = c.games[2];
    EXPECT_EQ(third.name, "rng");
    EXPECT_TRUE(third.rngShoe);
    EXPECT_EQ(third.shoe, (game::ShoeConfig{1, 8}));
    EXPECT_EQ(third.rescanAttempts, 0);
    EXPECT_FALSE(third.naturalsOnBigRoad);
    EXPECT_EQ(third.paytableFile, std::filesystem::path("/opt/paytables/super6.yaml"));
    EXPECT_TRUE(third.rounds.startOnDeal);
    EXPECT_EQ(third.rounds.betsOpen, std::chrono::milliseconds(10000));
    EXPECT_EQ(third.bets.limits.spots, game::SpotRanges{});
    EXPECT_TRUE(third.bets.antiDoubling);
    // Inherited: the two levels, the reader timeout, last bets.
    EXPECT_EQ(third.bets.limits.levels, c.bets.limits.levels);
    EXPECT_EQ(third.readerTimeout, c.table.readerTimeout);
    EXPECT_EQ(third.rounds.lastBets, std::chrono::milliseconds(5000));

    // The top-level sections are as without games:.
    EXPECT_EQ(c.table.shoe, (game::ShoeConfig{8, 16}));
    EXPECT_FALSE(c.rounds.startOnDeal);
}

TEST(GamesConfig, EightGamesAreTheMost) {
    std::string eight = "games:\n";
    for (int i = 1; i <= 8; ++i) {
        eight += "  - {name: g" + std::to_string(i) + "}\n";
    }
    EXPECT_EQ(load(eight).games.size(), 8U);
    const ConfigError nine = errorOf(eight + "  - {name: g9}\n");
    EXPECT_EQ(nine.key(), "games");
    EXPECT_EQ(nine.line(), 2);
    EXPECT_THAT(nine.what(), ::testing::HasSubstr("1 to 8 games"));
}

TEST(GamesConfig, AnEmptyOrMisshapenListIsRefused) {
    const ConfigError empty = errorOf("games: []\n");
    EXPECT_EQ(empty.key(), "games");
    EXPECT_EQ(empty.line(), 1);
    EXPECT_THAT(empty.what(), ::testing::HasSubstr("'games': expected a list of 1 to 8 games"));
    EXPECT_EQ(errorOf("games:\n").key(), "games");
    EXPECT_EQ(errorOf("games: {name: a}\n").key(), "games");
    EXPECT_EQ(errorOf("games:\n  - live\n").key(), "games[0]");
}

TEST(GamesConfig, NamesAreRequiredWellFormedAndUnique) {
    const ConfigError twice = errorOf("games:\n  - name: live\n  - name: rng\n  - name: live\n");
    EXPECT_EQ(twice.key(), "games[2].name");
    EXPECT_EQ(twice.line(), 4);
    EXPECT_EQ(twice.column(), 11);
    EXPECT_THAT(twice.what(), ::testing::HasSubstr("'live' is games[0]'s name too"));
    const ConfigError bad = errorOf("games:\n  - name: Live 1\n");
    EXPECT_EQ(bad.key(), "games[0].name");
    EXPECT_EQ(bad.line(), 2);
    EXPECT_THAT(bad.what(), ::testing::HasSubstr("a-z, 0-9, _ and -"));
    EXPECT_EQ(errorOf("games:\n  - name: " + std::string(33, 'a') + "\n").key(), "games[0].name");
    EXPECT_EQ(load("games:\n  - name: " + std::string(32, 'a') + "\n").games[0].name, std::string(32, 'a'));
    EXPECT_EQ(errorOf("games:\n  - name: \"\"\n").key(), "games[0].name");
    const ConfigError missing = errorOf("games:\n  - decks: 6\n");
    EXPECT_EQ(missing.key(), "games[0].name");
    EXPECT_THAT(missing.what(), ::testing::HasSubstr("is required"));
}

TEST(GamesConfig, UnknownKeysInAnEntryAreRefused) {
    const ConfigError e = errorOf("games:\n  - name: live\n    dekcs: 6\n");
    EXPECT_EQ(e.key(), "games[0].dekcs");
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.column(), 5);
    EXPECT_THAT(e.what(), ::testing::HasSubstr("unknown key"));
    // Controller-wide keys belong to table: only.
    EXPECT_EQ(errorOf("games:\n  - {name: live, stations: 4}\n").key(), "games[0].stations");
    EXPECT_EQ(errorOf("games:\n  - {name: live, denomination: 5}\n").key(), "games[0].denomination");
    EXPECT_EQ(errorOf("games:\n  - {name: live, rounds: {bets_open: 5}}\n").key(), "games[0].rounds.bets_open");
    EXPECT_EQ(errorOf("games:\n  - {name: live, bets: {levels: [{min: 1, max: 2, mx: 3}]}}\n").key(),
              "games[0].bets.levels[0].mx");
}

TEST(GamesConfig, AGamesCutCardMustFitItsDecks) {
    const ConfigError own = errorOf("games:\n  - name: a\n  - name: b\n    decks: 1\n    cut_card_from_end: 40\n");
    EXPECT_EQ(own.key(), "games[1].cut_card_from_end");
    EXPECT_EQ(own.line(), 5);
    // table's cut card, fine for its 8 decks, does not fit a game of 1 deck: the game's decks are named.
    const ConfigError inherited = errorOf("table:\n  cut_card_from_end: 100\ngames:\n  - name: a\n    decks: 1\n");
    EXPECT_EQ(inherited.key(), "games[0].decks");
    EXPECT_EQ(inherited.line(), 5);
    EXPECT_THAT(inherited.what(), ::testing::HasSubstr("cut_card_from_end 100 from table"));
    EXPECT_EQ(errorOf("games:\n  - {name: a, decks: 9}\n").key(), "games[0].decks");
    EXPECT_EQ(load("table:\n  cut_card_from_end: 100\ngames:\n  - {name: a, decks: 1, cut_card_from_end: 10}\n")
                  .games[0]
                  .shoe,
              (game::ShoeConfig{1, 10}));
}

TEST(GamesConfig, AGamesRoundsAndBetsAreCheckedAsTheTopLevelOnes) {
    const ConfigError range = errorOf("games:\n  - name: a\n    bets:\n      min: 500\n      max: 100\n");
    EXPECT_EQ(range.key(), "games[0].bets.max");
    EXPECT_EQ(range.line(), 5);
    EXPECT_EQ(errorOf("games:\n  - name: a\n    bets:\n      anti_doubling: maybe\n").key(),
              "games[0].bets.anti_doubling");
    EXPECT_EQ(errorOf("games:\n  - name: a\n    bets:\n      min: 5\n      levels: [{min: 1, max: 2}]\n").key(),
              "games[0].bets.levels");
    EXPECT_EQ(errorOf("games:\n  - {name: a, bets: {spots: {tye: {min: 1, max: 2}}}}\n").key(),
              "games[0].bets.spots.tye");
    EXPECT_EQ(errorOf("games:\n  - {name: a, rounds: {bets_open_ms: -1}}\n").key(), "games[0].rounds.bets_open_ms");
    // start: deal needs an RNG shoe: the game's own source, or table's.
    const ConfigError deal = errorOf("games:\n  - {name: a, source: reader, rounds: {start: deal}}\n");
    EXPECT_EQ(deal.key(), "games[0].rounds.start");
    EXPECT_THAT(deal.what(), ::testing::HasSubstr("deal needs games[0].source: rng"));
    EXPECT_THAT(errorOf("table: {source: reader}\ngames:\n  - {name: a, rounds: {start: deal}}\n").what(),
                ::testing::HasSubstr("'games[0].rounds.start': deal needs table.source: rng"));
    EXPECT_EQ(errorOf("rounds: {start: deal}\ngames:\n  - {name: a, source: reader}\n").key(), "games[0].source");
    EXPECT_EQ(errorOf("rounds: {confirm_bets: true}\ngames:\n  - {name: a, rounds: {start: deal}}\n").key(),
              "games[0].rounds.start");
    EXPECT_EQ(
        load("rounds: {start: deal}\ngames:\n  - {name: a, source: reader, rounds: {start: timer}}\n").games[0].rngShoe,
        false);
}

TEST(GamesConfig, EachLampButtonAndSwitchNamesItsGameOrIsTheFirsts) {
    const std::string games = "games:\n  - name: live-1\n  - name: rng\n    source: rng\n";
    const Config c = load(games +
                          "modbus:\n  device: {transport: tcp, port: 1502}\n"
                          "  lamps:\n    - {name: l1, coil: 0, when: {idle: on}}\n"
                          "    - {name: r1, coil: 1, game: rng, when: {idle: on}}\n"
                          "  buttons:\n    - {name: b1, discrete_input: 0, action: void_round, confirm: true}\n"
                          "    - {name: c1, discrete_input: 1, action: confirm}\n"
                          "    - {name: r2, discrete_input: 2, action: new_shoe, game: rng}\n"
                          "  switches:\n    - {name: s1, discrete_input: 3, door: lid, game: rng}\n");
    EXPECT_EQ(c.modbus.outputGame, (std::vector<std::size_t>{0, 1}));
    EXPECT_EQ(c.modbus.inputGame, (std::vector<std::size_t>{0, 0, 1, 1}));
    const ConfigError unknown = errorOf(games +
                                        "modbus:\n  device: {transport: tcp, port: 1502}\n"
                                        "  lamps:\n    - {name: l1, coil: 0, game: live-2, when: {idle: on}}\n");
    EXPECT_EQ(unknown.key(), "modbus.lamps[0].game");
    EXPECT_THAT(unknown.what(), ::testing::HasSubstr("no game is named 'live-2' (the games: live-1, rng)"));
    // A confirm press carries out what its own game's button armed: the game needs one of its own.
    const ConfigError confirm =
        errorOf(games +
                "modbus:\n  device: {transport: tcp, port: 1502}\n"
                "  buttons:\n    - {name: b1, discrete_input: 0, action: void_round, confirm: true, game: rng}\n"
                "    - {name: c1, discrete_input: 1, action: confirm}\n");
    EXPECT_EQ(confirm.key(), "modbus.buttons[0].confirm");
    EXPECT_THAT(confirm.what(), ::testing::HasSubstr("confirm in game rng"));
    // One game: `game:` may name it (the table's name), and nothing else.
    EXPECT_EQ(load("table: {name: t7}\nmodbus:\n  device: {transport: tcp, port: 1502}\n"
                   "  lamps:\n    - {name: l1, coil: 0, game: t7, when: {idle: on}}\n")
                  .modbus.outputGame,
              (std::vector<std::size_t>{0}));
}

}  // namespace
}  // namespace pitlink::config
