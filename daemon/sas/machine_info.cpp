#include "daemon/sas/machine_info.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "daemon/game/exact_odds.h"
#include "daemon/journal/records/paytable_codec.h"

namespace pitlink::sas {

namespace {

// LP A0 feature byte 1.
constexpr std::uint8_t kValidationExtensions = 0x10;  // LPs 7B/7C/7D: ticket data and expiry
constexpr std::uint8_t kValidationSystem = 0x20;      // bits 5-6 = 01: system validation
constexpr std::uint8_t kValidationEnhanced = 0x40;    // bits 5-6 = 10: (secure) enhanced validation
constexpr std::uint8_t kTicketRedemption = 0x80;      // LPs 70/71: tickets redeemed through the host
constexpr std::uint8_t kAftBonusAwards = 0x02;        // LP 72 types 10 (bonus awards)
constexpr std::uint8_t kLegacyBonusAwards = 0x04;     // LPs 8A, 90, 9A and 7C
// LP A0 feature byte 2.
constexpr std::uint8_t kMeterModelWonWhenWon = 0x01;  // bits 0-1 = 01: coin out counted when the game is won
constexpr std::uint8_t kExtendedMeters = 0x08;        // LPs 6F/AF
constexpr std::uint8_t kAft = 0x40;                   // LPs 72/73/74
constexpr std::uint8_t kMultiDenomExtensions = 0x80;  // LP B0 around 2F/53/56/6F/AF/B5 for each denomination, B1, B2

}  // namespace

std::array<std::uint8_t, 3> featureBytes(ValidationMode validation, bool ticketRedemption, const AftSettings& aft,
                                         bool legacyBonus) {
    std::uint8_t first = kValidationExtensions;
    first |= validation == ValidationMode::System ? kValidationSystem : kValidationEnhanced;
    if (ticketRedemption) {
        first |= kTicketRedemption;
    }
    std::uint8_t second = kMeterModelWonWhenWon | kExtendedMeters | kMultiDenomExtensions;
    if (aft.enabled) {  // exactly what LP 72/73/74 answer (protocols/sas/README.md "AFT")
        second |= kAft;
        if (aft.bonus) {
            first |= kAftBonusAwards;
        }
    }
    if (legacyBonus) {  // exactly when LP 8A/90/9A are answered (protocols/sas/README.md "Legacy bonusing")
        first |= kLegacyBonusAwards;
    }
    // Not set: jackpot multiplier, tournament (byte 1); tickets in total
    // drop (a table has no drop), component authentication, the jackpot key-off exception 5A (a
    // table never keys a jackpot off to the credit meter) (byte 2); byte 3's polling rate and
    // progressive reporting.
    return {first, second, 0x00};
}

std::string basePercentage(const game::Paytable& paytable, int decks) {
    const game::OddsReport& report = game::fullShoeOdds(decks);
    // Player and Banker; a paytable offering neither (side bets only) reports its lowest bet.
    const bool mainBets = paytable.offers(game::BetType::Player) || paytable.offers(game::BetType::Banker);
    long double lowest = 1;
    for (const game::BetType type : game::kAllBetTypes) {
        const bool counted = mainBets ? type == game::BetType::Player || type == game::BetType::Banker : true;
        if (counted && paytable.offers(type)) {
            lowest = std::min(lowest, game::betReturn(paytable, type, report.tally(type)).returnToPlayer());
        }
    }
    // Hundredths of a percent, truncated; a tiny allowance so that an exact 98.76 % computed as
    // 98.7599999... still reads 9876.
    const auto basisPoints = static_cast<int>(std::floor(lowest * 10'000 + 1e-9L));
    const int clamped = std::clamp(basisPoints, 0, 9999);
    std::string out = std::to_string(clamped);
    return std::string(4 - out.size(), '0') + out;
}

std::string paytableIdOf(const game::Paytable& paytable) {
    std::string id = journal::paytableSha256(paytable).substr(0, 6);
    std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return std::toupper(c); });
    return id;
}

std::uint8_t denominationCodeOf(game::Money minorPerCredit) {
    // SAS Table C-4 denomination codes of the common denominations (minor units per credit).
    // SAS 6.02 Table C-4 (whole cents only; the fractional-cent codes 1B-1F are not used here).
    static constexpr std::pair<game::Money, std::uint8_t> kCodes[] = {
        {1, 0x01},      {5, 0x02},     {10, 0x03},    {25, 0x04},    {50, 0x05},     {100, 0x06},    {500, 0x07},
        {1000, 0x08},   {2000, 0x09},  {10000, 0x0A}, {20, 0x0B},    {200, 0x0C},    {250, 0x0D},    {2500, 0x0E},
        {5000, 0x0F},   {20000, 0x10}, {25000, 0x11}, {50000, 0x12}, {100000, 0x13}, {200000, 0x14}, {250000, 0x15},
        {500000, 0x16}, {2, 0x17},     {3, 0x18},     {15, 0x19},    {40, 0x1A}};
    for (const auto& [minor, code] : kCodes) {
        if (minor == minorPerCredit) {
            return code;
        }
    }
    return 0x00;  // none of them
}

MachineInfo machineInfo(const config::Config& config, const game::Paytable& paytable,
                        std::span<const game::Paytable* const> games) {
    MachineInfo info;
    info.paytableId = paytableIdOf(paytable);
    info.basePercentage = basePercentage(paytable, config.table.shoe.decks);
    info.denominationCode = denominationCodeOf(config.table.denomination);
    for (const game::Money denomination : config.table.denominations) {
        info.playerDenominations.push_back(denominationCodeOf(denomination));
    }
    const game::Money maxCredits = game::highestMaximum(config.bets.limits) / config.table.denomination;
    info.maxBet = static_cast<std::uint8_t>(std::min<game::Money>(maxCredits, 0xFF));
    info.maxBetCredits = static_cast<std::uint32_t>(std::min<game::Money>(maxCredits, 9999));
    info.paytableName = paytable.name.substr(0, 20);
    // Tickets go through the host when the table does not redeem them itself.
    info.features =
        featureBytes(config.sas.validation, !config.cashier.ticketInLocal, config.sas.aft, config.sas.legacyBonus);
    if (config.games.size() > 1 && games.size() == config.games.size()) {
        for (std::size_t i = 0; i < games.size(); ++i) {
            const config::GameConfig& g = config.games[i];
            const game::Money most = game::highestMaximum(g.bets.limits) / config.table.denomination;
            std::string number = std::to_string(i + 1);
            GameInfo game;
            game.additionalId = std::string(3 - number.size(), '0') + number;  // the game's SAS number
            game.maxBet = static_cast<std::uint8_t>(std::min<game::Money>(most, 0xFF));
            game.paytableId = paytableIdOf(*games[i]);
            game.basePercentage = basePercentage(*games[i], g.shoe.decks);
            game.maxBetCredits = static_cast<std::uint32_t>(std::min<game::Money>(most, 9999));
            game.gameName = g.name.substr(0, 20);
            game.paytableName = games[i]->name.substr(0, 20);
            info.games.push_back(std::move(game));
        }
        // Game 0 (LP 1F, and 53/B5 of game 0) is the first game, as the records naming no game are.
        const GameInfo& first = info.games.front();
        info.maxBet = first.maxBet;
        info.maxBetCredits = first.maxBetCredits;
        info.paytableId = first.paytableId;
        info.basePercentage = first.basePercentage;
        info.gameName = first.gameName;
        info.paytableName = first.paytableName;
    }
    return info;
}

}  // namespace pitlink::sas
