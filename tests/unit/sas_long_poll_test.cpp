// Meter long polls answered from a station's meters, checked byte for byte (CRC included)
// against the answers of the captured Aristocrat EGM given the same meter values.
#include <gtest/gtest.h>

#include <map>

#include "protocols/sas/crc16_kermit.h"
#include "protocols/sas/long_poll_machine.h"
#include "protocols/sas/long_poll_meters.h"
#include "protocols/sas/multi_denom_preamble.h"
#include "tests/support/hex.h"

namespace pitlink::sas {
namespace {

using test::bytes;
using test::hex;

struct Meters : MeterSource {
    std::optional<std::uint64_t> meter(std::uint16_t code) const override {
        const auto it = values.find(code);
        return it == values.end() ? std::nullopt : std::optional<std::uint64_t>(it->second);
    }
    std::map<std::uint16_t, std::uint64_t> values;
};

Poll pollOf(const std::string& frame) {
    PollFramer framer;
    std::optional<Poll> poll;
    bool first = true;
    for (const std::uint8_t b : bytes(frame)) {
        poll = framer.push(WireByte{b, first});
        first = false;
    }
    EXPECT_TRUE(poll.has_value()) << frame;
    return poll.value_or(Poll{});
}

std::string answer(const std::string& frame, const Meters& meters) {
    const auto out = answerMeterPoll(pollOf(frame), meters);
    return out ? hex(*out) : "(silent)";
}

TEST(SasMeterPolls, TheCapturedAnswersForTheSameMeterValues) {
    Meters m;
    m.values = {{meter::kCoinIn, 452040},  {meter::kCoinOut, 861480},   {meter::kDrop, 413078},
                {meter::kJackpot, 634494}, {meter::kGamesPlayed, 2062}, {meter::kCurrentCredits, 16660}};
    EXPECT_EQ(answer("01 19", m), "01 19 00 45 20 40 00 86 14 80 00 41 30 78 00 63 44 94 00 00 20 62 D5 CE");
    EXPECT_EQ(answer("01 1A", m), "01 1A 00 01 66 60 9C F4");
    EXPECT_EQ(answer("01 AF 04 00 00 0C 00 2E A6", m), "01 AF 09 00 00 0C 00 04 00 01 66 60 53 38");
}

TEST(SasMeterPolls, SetsSelectedAndExtendedMeters) {
    Meters m;
    m.values = {{meter::kCancelledCredits, 5},
                {meter::kCoinIn, 1234},
                {meter::kGamesWon, 7},
                {meter::kGamesLost, 9},
                {meter::kTicketOutCashableCents, 250'000}};
    const std::string lp10 = answer("01 10", m);
    EXPECT_EQ(lp10.substr(0, 17), "01 10 00 00 00 05");
    const std::string lp0F = answer("01 0F", m);
    EXPECT_EQ(bytes(lp0F).size(), 2 + 6 * 4 + 2U);
    EXPECT_EQ(lp0F.substr(6, 23), "00 00 00 05 00 00 12 34");  // cancelled credits, then coin in
    // LP 2F, game 0, codes 06 (games won) and 0E (ticket out cents, 5 bytes).
    std::vector<std::uint8_t> lp2f = bytes("01 2F 04 00 00 06 0E");
    appendCrc(lp2f);
    const auto selected = answerMeterPoll(pollOf(hex(lp2f)), m);
    ASSERT_TRUE(selected);
    EXPECT_EQ(hex(std::span(*selected).first(selected->size() - 2)), "01 2F 0D 00 00 06 00 00 00 07 0E 00 00 25 00 00");
    // LP 6F leaves out a meter the station does not keep; AF reports it with size 0.
    std::vector<std::uint8_t> lp6f = bytes("01 6F 06 00 00 07 00 99 00");
    appendCrc(lp6f);
    const auto extended = answerMeterPoll(pollOf(hex(lp6f)), m);
    ASSERT_TRUE(extended);
    EXPECT_EQ(hex(std::span(*extended).first(extended->size() - 2)), "01 6F 09 00 00 07 00 04 00 00 00 09");
    lp6f[1] = 0xAF;
    lp6f.resize(lp6f.size() - 2);
    appendCrc(lp6f);
    const auto af = answerMeterPoll(pollOf(hex(lp6f)), m);
    ASSERT_TRUE(af);
    EXPECT_EQ(hex(std::span(*af).first(af->size() - 2)), "01 AF 0C 00 00 07 00 04 00 00 00 09 99 00 00");
    // A game this station does not have: no answer.
    std::vector<std::uint8_t> game5 = bytes("01 2F 03 00 05 06");
    appendCrc(game5);
    EXPECT_FALSE(answerMeterPoll(pollOf(hex(game5)), m).has_value());
}

std::string machine(const std::string& frame, const MachineInfo& info, const SasDateTime& now = {},
                    std::optional<std::uint8_t> playing = std::nullopt) {
    StationNow state;
    state.clock = now;
    state.playerDenomination = playing.value_or(info.denominationCode);
    const auto out = answerMachinePoll(pollOf(frame), info, state);
    return out ? hex(*out) : "(silent)";
}

TEST(SasMachinePolls, TheCapturedAnswersForTheSameMachine) {
    MachineInfo info;
    info.gameId = "AT";
    info.additionalId = "000";
    info.paytableId = "63928";
    info.basePercentage = "9068";
    info.serialNumber = "000001";
    info.features = {0xD7, 0xCD, 0x05};
    EXPECT_EQ(machine("01 1F", info), "01 1F 41 54 30 30 30 01 FF 00 00 00 36 33 39 32 38 20 39 30 36 38 26 13");
    EXPECT_EQ(machine("01 54", info), "01 54 09 36 30 32 30 30 30 30 30 31 70 CD");
    EXPECT_EQ(machine("01 55", info), "01 55 00 01 6C B7");
    EXPECT_EQ(machine("01 A0 00 00 6C 13", info), "01 A0 00 00 D7 CD 05 00 00 00 8F 1F");
    info.additionalId = "_99";
    info.paytableId = "SG0071";
    EXPECT_EQ(machine("01 53 00 01 B5 61", info),
              "01 53 00 01 41 54 5F 39 39 01 FF 00 00 00 53 47 30 30 37 31 39 30 36 38 C4 6C");
    EXPECT_EQ(machine("01 53 00 02 2E 53", info), "(silent)");  // no game 2 here
    const std::string games = machine("01 51", info);
    EXPECT_EQ(games.substr(0, 11), "01 51 00 01");  // one game
    EXPECT_TRUE(crcMatches(bytes(games)));
    EXPECT_EQ(machine("01 56", info).substr(0, 17), "01 56 03 01 00 01");
}

std::string withCrc(const std::string& frame) {
    std::vector<std::uint8_t> b = bytes(frame);
    appendCrc(b);
    return hex(b);
}

TEST(SasMachinePolls, ExtendedGameInformation) {
    MachineInfo info;
    info.maxBetCredits = 50'000;  // more than 2 BCD bytes hold: 9999
    info.gameName = "Baccarat";
    info.paytableName = "Standard";
    // game 0001, max bet 9999, group 00, levels 00000000, "Baccarat", "Standard", 0000 wager
    // categories, one denomination: 01.
    EXPECT_EQ(machine(withCrc("01 B5 00 01"), info),
              withCrc("01 B5 1F 00 01 99 99 00 00 00 00 00 08 42 61 63 63 61 72 61 74 08 53 74 61 6E 64 61 72 "
                      "64 00 00 01 01"));
    EXPECT_EQ(machine(withCrc("01 B5 00 07"), info), "(silent)");  // no game 7
}

// Seed 000's Denomination button: the station's player chooses among the enabled denominations;
// B1 says which is played now, B2 and B5 list the enabled ones (Table C-4 codes).
TEST(SasMachinePolls, PlayerDenominations) {
    MachineInfo info;
    info.denominationCode = 0x01;                   // accounting: 0.01
    info.playerDenominations = {0x01, 0x04, 0x06};  // 0.01, 0.25, 1.00
    EXPECT_EQ(machine("01 B1", info, {}, 0x04), withCrc("01 B1 04"));
    EXPECT_EQ(machine("01 B2", info), withCrc("01 B2 04 03 01 04 06"));
    const std::string b5 = machine(withCrc("01 B5 00 01"), info);
    EXPECT_EQ(b5.substr(b5.size() - 17, 11), "03 01 04 06");  // count and codes before the CRC
    // None listed: the accounting denomination alone.
    info.playerDenominations.clear();
    EXPECT_EQ(machine("01 B2", info), withCrc("01 B2 02 01 01"));
}

std::string preamble(const std::string& frame) {
    MachineInfo info;
    info.denominationCode = 0x01;
    const std::uint8_t offered[] = {info.denominationCode};
    const auto out = answerMultiDenomPreamble(pollOf(withCrc(frame)), offered, [&](const Poll& p, std::uint8_t denom) {
        return answerMachinePoll(p, info, StationNow{}, denom);
    });
    return out ? hex(*out) : "(silent)";
}

TEST(SasMultiDenomPreamble, AnswersItsOwnDenominationAndNamesTheErrorOtherwise) {
    EXPECT_EQ(preamble("01 B0 02 01 56"), "01 B0 06 01 56 03 01 00 01 13 17");     // as captured
    EXPECT_EQ(preamble("01 B0 02 00 56"), withCrc("01 B0 06 00 56 03 01 00 01"));  // 00: the default
    EXPECT_EQ(preamble("01 B0 02 02 56"), withCrc("01 B0 03 02 00 04"));           // 0.05: not this station's
    EXPECT_EQ(preamble("01 B0 02 40 56"), withCrc("01 B0 03 40 00 05"));           // not a denomination code
    EXPECT_EQ(preamble("01 B0 02 01 1F"), withCrc("01 B0 03 01 00 03"));           // 1F is not multi-denomination aware
    EXPECT_EQ(preamble("01 B0 04 01 53 00 07"), withCrc("01 B0 03 01 00 02"));     // no game 7
    // A length byte that does not match the poll (a framer would not pass it; the parser checks).
    Poll wrong;
    wrong.kind = PollKind::Long;
    wrong.address = 0x01;
    wrong.command = 0xB0;
    wrong.bytes = bytes(withCrc("01 B0 05 01 56"));
    const std::uint8_t offered[] = {0x01};
    EXPECT_FALSE(
        answerMultiDenomPreamble(wrong, offered, [](const Poll&, std::uint8_t) { return std::nullopt; }).has_value());
}

TEST(SasMachinePolls, TheHostSetsTheDateAndTimeAndReadsItBack) {
    const auto set = parseSetDateTime(pollOf("01 7F 11 27 20 25 19 21 16 D9 10"));  // captured
    ASSERT_TRUE(set);
    EXPECT_EQ((std::array{set->year, set->month, set->day, set->hour, set->minute, set->second}),
              (std::array{2025, 11, 27, 19, 21, 16}));
    const std::string read = machine("01 7E", MachineInfo{}, *set);
    EXPECT_EQ(read.substr(0, 26), "01 7E 11 27 20 25 19 21 16");
    EXPECT_TRUE(crcMatches(bytes(read)));
    std::vector<std::uint8_t> bad = bytes("01 7F 13 27 20 25 19 21 16");  // month 13
    appendCrc(bad);
    EXPECT_FALSE(parseSetDateTime(pollOf(hex(bad))).has_value());
}

}  // namespace
}  // namespace pitlink::sas
