#include "daemon/app/config.h"

#include <gtest/gtest.h>

#include <sstream>

#include "daemon/app/config_error.h"
#include "daemon/app/paytable_loader.h"
#include "tests/unit/fixtures.h"

namespace pitlink::app {
namespace {

Config load(const std::string& text) {
    std::istringstream in(text);
    return loadConfig(in, "/etc/pitlink/pitlink.yaml");
}

ConfigError errorOf(const std::string& text) { return test::configErrorOf(load, text); }

TEST(Config, ShippedDefaultConfigurationLoadsAndItsPaytableToo) {
    const Config c = loadConfigFile(test::sourceDir() / "etc" / "pitlink.yaml");
    EXPECT_EQ(c.table.shoe.decks, 8);
    EXPECT_EQ(c.table.shoe.cutCardFromEnd, 14);
    EXPECT_EQ(c.rounds.betsOpen, std::chrono::seconds(20));
    EXPECT_EQ(c.rounds.lastBets, std::chrono::seconds(5));
    EXPECT_TRUE(c.bets.forbidPlayerAndBanker);
    EXPECT_FALSE(c.bets.tieNeedsMainBet);
    EXPECT_EQ(c.bets.bigSmallLastRound, 31);
    EXPECT_EQ(loadPaytableFile(c.table.paytableFile).id, "standard");
}

TEST(Config, EmptyDocumentGivesTheDefaults) {
    const Config c = load("");
    EXPECT_EQ(c.table.shoe.decks, 8);
    EXPECT_EQ(c.bets.minBet, 100);
    EXPECT_EQ(c.log.level, "info");
}

TEST(Config, RelativePaytablePathResolvesAgainstTheConfigFile) {
    EXPECT_EQ(load("table:\n  paytable: paytables/ruyi.yaml\n").table.paytableFile,
              std::filesystem::path("/etc/pitlink/paytables/ruyi.yaml"));
}

TEST(Config, OutOfRangeValueNamesFileLineColumnKeyAndRange) {
    const ConfigError e = errorOf("table:\n  decks: 9\n");
    EXPECT_EQ(e.file(), "/etc/pitlink/pitlink.yaml");
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 10);
    EXPECT_EQ(e.key(), "table.decks");
    EXPECT_NE(std::string(e.what()).find("expected an integer from 1 to 8"), std::string::npos) << e.what();
}

TEST(Config, UnusableCutCardIsRefused) {
    const ConfigError e = errorOf("table:\n  decks: 1\n  cut_card_from_end: 40\n");
    EXPECT_EQ(e.key(), "table.cut_card_from_end");
    EXPECT_EQ(e.line(), 3);
}

TEST(Config, WrongTypesAndUnknownKeysAreRefused) {
    EXPECT_EQ(errorOf("bets:\n  anti_doubling: maybe\n").key(), "bets.anti_doubling");
    EXPECT_EQ(errorOf("bets:\n  min: ten\n").key(), "bets.min");
    EXPECT_EQ(errorOf("bets:\n  min: 500\n  max: 100\n").key(), "bets.max");
    EXPECT_EQ(errorOf("table:\n  deks: 8\n").key(), "table.deks");
    EXPECT_EQ(errorOf("tabel:\n  decks: 8\n").key(), "tabel");
    EXPECT_EQ(errorOf("log:\n  level: loud\n").key(), "log.level");
    EXPECT_EQ(errorOf("table: 8\n").key(), "table");
}

}  // namespace
}  // namespace pitlink::app
