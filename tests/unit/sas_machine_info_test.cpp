// What a station tells a SAS host about itself. The expected returns are the published house
// edges of 8-deck baccarat (Player 1.2351 %, Banker 1.0579 %; Banker paying half on a winning 6,
// 1.4581 %: Wizard of Odds, "Baccarat" and "No Commission Baccarat"), not this program's output.
#include <gtest/gtest.h>

#include "daemon/sas/machine_info.h"
#include "tests/unit/fixtures.h"

namespace pitlink::sas {
namespace {

TEST(SasMachineInfo, BasePercentageIsTheLowerExactReturnOfPlayerAndBanker) {
    EXPECT_EQ(basePercentage(test::shippedPaytable("standard"), 8), "9876");       // Player 98.7649 %
    EXPECT_EQ(basePercentage(test::shippedPaytable("no_commission"), 8), "9854");  // Banker 98.5419 %
    // A paytable with neither (a side-bet table): its lowest bet, Tie at 8:1 (edge 14.36 %).
    game::Paytable tieOnly = test::shippedPaytable("standard");
    for (const game::BetType type : game::kAllBetTypes) {
        if (type != game::BetType::Tie) {
            tieOnly.bets[static_cast<std::size_t>(type)].reset();
        }
    }
    EXPECT_EQ(basePercentage(tieOnly, 8), "8564");
}

TEST(SasMachineInfo, PaytableIdsTellThePaytablesApart) {
    const std::string standard = paytableIdOf(test::shippedPaytable("standard"));
    const std::string noCommission = paytableIdOf(test::shippedPaytable("no_commission"));
    const std::string ruyi = paytableIdOf(test::shippedPaytable("ruyi"));
    for (const std::string& id : {standard, noCommission, ruyi}) {
        EXPECT_EQ(id.size(), 6U);
        EXPECT_EQ(id.find_first_not_of("0123456789ABCDEF"), std::string::npos) << id;
    }
    EXPECT_NE(standard, noCommission);
    EXPECT_NE(standard, ruyi);
    EXPECT_NE(noCommission, ruyi);
    // The same rules under the same name but one payout changed: another ID.
    game::Paytable edited = test::shippedPaytable("standard");
    edited.set(game::BetType::Tie, 0, game::Payout::pays(game::Fraction{9, 1}));
    EXPECT_NE(paytableIdOf(edited), standard);
}

TEST(SasMachineInfo, FeatureBitsSayWhatTheStationDoes) {
    // Byte 1: validation extensions 0x10, validation style bits 5-6 (01 system, 10 enhanced),
    // ticket redemption 0x80. Byte 2: meter model 01 (won when won), extended meters 0x08,
    // multi-denomination extensions 0x80 (B0 answered for every denomination offered).
    EXPECT_EQ(featureBytes(ValidationMode::System, true), (std::array<std::uint8_t, 3>{0xB0, 0x89, 0x00}));
    EXPECT_EQ(featureBytes(ValidationMode::SecureEnhanced, false), (std::array<std::uint8_t, 3>{0x50, 0x89, 0x00}));
    // Legacy bonusing on (sas.legacy_bonus): byte 1 bit 2 (0x04); AFT's bonus bit (0x02) stays off
    // without AFT.
    EXPECT_EQ(featureBytes(ValidationMode::System, true, AftSettings{}, true),
              (std::array<std::uint8_t, 3>{0xB4, 0x89, 0x00}));
    AftSettings aft;
    aft.enabled = true;
    EXPECT_EQ(featureBytes(ValidationMode::System, true, aft, true), (std::array<std::uint8_t, 3>{0xB6, 0xC9, 0x00}));
}

}  // namespace
}  // namespace pitlink::sas
