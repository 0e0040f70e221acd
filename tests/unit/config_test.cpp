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

TEST(Config, JournalKeysHaveDefaultsResolveRelativePathsAndAreChecked) {
    const Config defaults = load("");
    EXPECT_EQ(defaults.journal.path, std::filesystem::path("/var/lib/pitlink/journal.db"));
    EXPECT_TRUE(defaults.journal.keyFile.empty());
    EXPECT_EQ(defaults.journal.snapshotEvery, 2000);
    EXPECT_FALSE(defaults.journal.fullChainCheckAtStart);
    const Config c = load("journal:\n  path: data/j.db\n  key_file: keys/j.key\n  snapshot_every: 500\n"
                          "  full_chain_check_at_start: true\n");
    EXPECT_EQ(c.journal.path, std::filesystem::path("/etc/pitlink/data/j.db"));
    EXPECT_EQ(c.journal.keyFile, std::filesystem::path("/etc/pitlink/keys/j.key"));
    EXPECT_EQ(c.journal.snapshotEvery, 500);
    EXPECT_TRUE(c.journal.fullChainCheckAtStart);
    EXPECT_EQ(errorOf("journal:\n  snapshot_every: 10\n").key(), "journal.snapshot_every");
    EXPECT_EQ(errorOf("journal:\n  path: \"\"\n").key(), "journal.path");
    EXPECT_EQ(errorOf("journal:\n  sync: off\n").key(), "journal.sync");
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
