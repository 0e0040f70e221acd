#include "daemon/config/paytable_loader.h"

#include <gtest/gtest.h>

#include <sstream>

#include "daemon/config/config_error.h"
#include "tests/unit/fixtures.h"

namespace pitlink::config {
namespace {

game::Paytable load(const std::string& text) {
    std::istringstream in(text);
    return loadPaytable(in, "test.yaml");
}

ConfigError errorOf(const std::string& text) {
    return test::configErrorOf(load, text);
}

TEST(PaytableLoader, LoadsTheShippedTables) {
    const game::Paytable standard = test::shippedPaytable("standard");
    EXPECT_EQ(standard.id, "standard");
    EXPECT_EQ(standard.payout(game::BetType::Banker, 0), game::Payout::pays({19, 20}));
    EXPECT_EQ(standard.payout(game::BetType::Banker, 1), game::Payout::pays({19, 20}));  // optional tier falls back
    EXPECT_EQ(standard.payout(game::BetType::LuckyNines, 6), game::Payout::pays({500, 1}));
    EXPECT_FALSE(standard.offers(game::BetType::Gold7));
    const game::Paytable ruyi = test::shippedPaytable("ruyi");
    EXPECT_EQ(ruyi.payout(game::BetType::Banker, 2), game::Payout::pushes());
    EXPECT_EQ(ruyi.payout(game::BetType::Ruby9, 1), game::Payout::pays({75, 1}));
    const game::Paytable nc = test::shippedPaytable("no_commission");
    EXPECT_EQ(nc.payout(game::BetType::Banker, 1), game::Payout::pays({1, 2}));
    EXPECT_EQ(nc.highestRatio(game::BetType::Banker), (game::Fraction{1, 1}));
}

TEST(PaytableLoader, FloatPayoutIsRefusedWithLineAndKey) {
    const ConfigError e = errorOf("id: t\nbets:\n  player: \"1\"\n  banker: 0.95\n");
    EXPECT_EQ(e.line(), 4);
    EXPECT_EQ(e.column(), 11);
    EXPECT_EQ(e.key(), "bets.banker");
    EXPECT_NE(std::string(e.what()).find("test.yaml:4:11: 'bets.banker': expected an exact ratio"), std::string::npos)
        << e.what();
}

TEST(PaytableLoader, UnknownBetIsRefused) {
    const ConfigError e = errorOf("id: t\nbets:\n  player: \"1\"\n  dragon_bonus: \"30\"\n");
    EXPECT_EQ(e.line(), 4);
    EXPECT_EQ(e.key(), "bets.dragon_bonus");
    EXPECT_NE(std::string(e.what()).find("unknown key"), std::string::npos);
}

TEST(PaytableLoader, UnknownTierIsRefused) {
    const ConfigError e = errorOf("id: t\nbets:\n  banker:\n    win: \"1\"\n    win_with_five: \"1/2\"\n");
    EXPECT_EQ(e.line(), 5);
    EXPECT_EQ(e.key(), "bets.banker.win_with_five");
}

TEST(PaytableLoader, MissingRequiredTierIsRefused) {
    const ConfigError e = errorOf("id: t\nbets:\n  ruby_9:\n    one_hand: \"10\"\n");
    EXPECT_EQ(e.key(), "bets.ruby_9.both_hands");
    EXPECT_NE(std::string(e.what()).find("missing pay line"), std::string::npos);
    const ConfigError scalar = errorOf("id: t\nbets:\n  lucky_nines: \"5\"\n");
    EXPECT_EQ(scalar.key(), "bets.lucky_nines");
    EXPECT_EQ(scalar.line(), 3);
}

TEST(PaytableLoader, MissingIdAndEmptyTablesAreRefused) {
    EXPECT_EQ(errorOf("bets:\n  player: \"1\"\n").key(), "id");
    EXPECT_NE(std::string(errorOf("id: t\nbets: {}\n").what()).find("offers no bet"), std::string::npos);
    EXPECT_EQ(errorOf("id: t\nbets:\n  player: \"1\"\ncolour: red\n").key(), "colour");
}

TEST(PaytableLoader, BadRatiosAreRefused) {
    for (const char* bad : {"\"1/0\"", "\"-1\"", "\"19 / 20\"", "\"abc\"", "\"2000000\"", "[1, 2]", "\"\"", "\"1/\""}) {
        const ConfigError e = errorOf(std::string("id: t\nbets:\n  tie: ") + bad + "\n");
        EXPECT_EQ(e.key(), "bets.tie") << bad;
        EXPECT_EQ(e.line(), 3) << bad;
    }
}

TEST(PaytableLoader, BrokenYamlNamesItsPosition) {
    const ConfigError e = errorOf("id: t\nbets:\n  player: [1,\n");
    EXPECT_GT(e.line(), 0);
    EXPECT_NE(std::string(e.what()).find("not valid YAML"), std::string::npos);
}

TEST(PaytableLoader, MissingFileIsAConfigError) {
    EXPECT_THROW((void)loadPaytableFile("/nonexistent/paytable.yaml"), ConfigError);
}

}  // namespace
}  // namespace pitlink::config
