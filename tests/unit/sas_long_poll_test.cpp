// Meter long polls answered from a station's meters, checked byte for byte (CRC included)
// against the answers of the captured Aristocrat EGM given the same meter values.
#include <gtest/gtest.h>

#include <map>

#include "protocols/sas/crc16_kermit.h"
#include "protocols/sas/long_poll_meters.h"
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
    m.values = {{meter::kCoinIn, 452040}, {meter::kCoinOut, 861480}, {meter::kDrop, 413078},
                {meter::kJackpot, 634494}, {meter::kGamesPlayed, 2062}, {meter::kCurrentCredits, 16660}};
    EXPECT_EQ(answer("01 19", m), "01 19 00 45 20 40 00 86 14 80 00 41 30 78 00 63 44 94 00 00 20 62 D5 CE");
    EXPECT_EQ(answer("01 1A", m), "01 1A 00 01 66 60 9C F4");
    EXPECT_EQ(answer("01 AF 04 00 00 0C 00 2E A6", m), "01 AF 09 00 00 0C 00 04 00 01 66 60 53 38");
}

TEST(SasMeterPolls, SetsSelectedAndExtendedMeters) {
    Meters m;
    m.values = {{meter::kCancelledCredits, 5}, {meter::kCoinIn, 1234}, {meter::kGamesWon, 7},
                {meter::kGamesLost, 9}, {meter::kTicketOutCashableCents, 250'000}};
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

}  // namespace
}  // namespace pitlink::sas
