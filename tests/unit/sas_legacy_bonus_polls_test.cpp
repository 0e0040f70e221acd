// LP 8A, 90 and 9A (SAS legacy bonusing) and exception 7C's event data, parsed and built byte for
// byte against the layouts of docs/sas.md "Legacy bonusing" (Aristocrat Monaco's LP8A, LP90, LP9A
// parsers and its 7C builder); then through a whole station (framer, link, SasStation) to a
// LegacyBonusHost double: which polls reach it, what a repeat and an implied ACK do. The frames'
// CRCs are computed here by the test's own CRC-16/KERMIT, not the production one.
#include <gtest/gtest.h>

#include "protocols/sas/legacy_bonus_polls.h"
#include "protocols/sas/station_stack.h"
#include "tests/support/hex.h"
#include "tests/support/polled_station.h"
#include "tests/support/test_crc.h"

namespace pitlink::sas::legacy {
namespace {

using test::bytes;
using test::hex;

using test::withCrc;

// A frame as the framer gives it whole (its first byte with the wakeup bit).
std::optional<Poll> pollOf(const std::string& frame) {
    PollFramer framer;
    std::optional<Poll> poll;
    bool first = true;
    for (const std::uint8_t b : bytes(frame)) {
        if (auto p = framer.push(WireByte{b, first})) {
            poll = std::move(p);
        }
        first = false;
    }
    return poll;
}

std::optional<Award> awardOf(const std::string& data) {
    const auto poll = pollOf(withCrc("01 8A " + data));
    EXPECT_TRUE(poll.has_value()) << data;
    return poll ? parseAward(*poll) : std::nullopt;
}

TEST(SasLegacyBonusPolls, An8AIsItsAmountInCreditsAndItsTaxStatus) {
    // addr 8A amount(4 BCD) tax-status CRC: 9 bytes, framed whole by its fixed length.
    EXPECT_EQ(withCrc("01 8A 00 00 10 00 00").size(), std::string("01 8A 00 00 10 00 00 XX XX").size());
    EXPECT_EQ(awardOf("00 00 10 00 00"), (Award{1'000, TaxStatus::Deductible}));
    EXPECT_EQ(awardOf("00 00 00 25 01"), (Award{25, TaxStatus::NonDeductible}));
    EXPECT_EQ(awardOf("99 99 99 99 02"), (Award{99'999'999, TaxStatus::WagerMatch}));
    // Not an award to take: not answered (a tax status above 02, an amount not BCD, nothing).
    EXPECT_EQ(awardOf("00 00 10 00 03"), std::nullopt);
    EXPECT_EQ(awardOf("00 00 10 00 FF"), std::nullopt);
    EXPECT_EQ(awardOf("00 00 1A 00 00"), std::nullopt);
    EXPECT_EQ(awardOf("A0 00 00 00 01"), std::nullopt);
    EXPECT_EQ(awardOf("00 00 00 00 00"), std::nullopt);
    // Another command is never read as an award.
    const auto other = pollOf(withCrc("01 9A 00 00"));
    ASSERT_TRUE(other.has_value());
    EXPECT_EQ(parseAward(*other), std::nullopt);
}

TEST(SasLegacyBonusPolls, An8AIsAnsweredByAnAckOrBusy) {
    EXPECT_EQ(hex(awardAnswer(0x01, AwardAnswer::Taken)), "01");    // ACK: the address alone
    EXPECT_EQ(hex(awardAnswer(0x2A, AwardAnswer::Busy)), "2A 00");  // busy: address 00
}

TEST(SasLegacyBonusPolls, LP90AndThe7CCarryMultiplierMultipliedWinTaxStatusAndBonus) {
    // addr 90 multiplier(1) multiplied-win(4 BCD) tax-status(1) bonus(4 BCD) CRC; no multiplied
    // jackpots (LP 8B): multiplier and multiplied win 0.
    EXPECT_EQ(hex(bonusWinAnswer(0x01, BonusWin{TaxStatus::WagerMatch, 1'234})),
              withCrc("01 90 00 00 00 00 00 02 00 00 12 34"));
    EXPECT_EQ(hex(bonusWinAnswer(0x05, BonusWin{})), withCrc("05 90 00 00 00 00 00 00 00 00 00 00"));
    EXPECT_EQ(hex(bonusWinAnswer(0x01, BonusWin{TaxStatus::NonDeductible, 99'999'999})),
              withCrc("01 90 00 00 00 00 00 01 99 99 99 99"));
    // 7C's event data is the same ten bytes (an RTE frame: addr FF 7C data CRC).
    const std::vector<std::uint8_t> data = bonusWinData(BonusWin{TaxStatus::Deductible, 500});
    EXPECT_EQ(hex(data), "00 00 00 00 00 00 00 00 05 00");
    EXPECT_EQ(data.size(), kBonusWinBytes);
    EXPECT_EQ(bonusWinOf(data), (BonusWin{TaxStatus::Deductible, 500}));
    EXPECT_EQ(bonusWinOf(bytes("00 00 00 00 00 02 00 00 12 34")), (BonusWin{TaxStatus::WagerMatch, 1'234}));
    // Not such data: too short, a tax status above 02, a bonus not in BCD.
    EXPECT_EQ(bonusWinOf(bytes("00 00 00 00 00 00 00 00 05")), std::nullopt);
    EXPECT_EQ(bonusWinOf(bytes("00 00 00 00 00 03 00 00 05 00")), std::nullopt);
    EXPECT_EQ(bonusWinOf(bytes("00 00 00 00 00 00 00 00 0F 00")), std::nullopt);
}

TEST(SasLegacyBonusPolls, LP9AIsAGameAndAnswersItsThreeMeters) {
    const auto gameOf = [](const std::string& game, std::uint16_t games) {
        const auto poll = pollOf(withCrc("01 9A " + game));
        EXPECT_TRUE(poll.has_value()) << game;
        return poll ? parseMetersGame(*poll, games) : std::nullopt;
    };
    EXPECT_EQ(gameOf("00 00", 1), 0);
    EXPECT_EQ(gameOf("00 01", 1), 1);
    EXPECT_EQ(gameOf("00 02", 2), 2);
    EXPECT_EQ(gameOf("00 02", 1), std::nullopt);  // a game the station does not have
    EXPECT_EQ(gameOf("00 1A", 4), std::nullopt);  // not BCD
    // addr 9A game(2 BCD) deductible non-deductible wager-match (4 BCD each) CRC.
    EXPECT_EQ(hex(bonusMetersAnswer(0x01, 0, BonusMeters{1, 20, 300})),
              withCrc("01 9A 00 00 00 00 00 01 00 00 00 20 00 00 03 00"));
    EXPECT_EQ(hex(bonusMetersAnswer(0x03, 2, BonusMeters{})),
              withCrc("03 9A 00 02 00 00 00 00 00 00 00 00 00 00 00 00"));
    // A meter keeps its low 8 digits, as every 4-byte SAS meter rolls over.
    EXPECT_EQ(hex(bonusMetersAnswer(0x01, 0, BonusMeters{123'456'789, 0, 100'000'000})),
              withCrc("01 9A 00 00 23 45 67 89 00 00 00 00 00 00 00 00"));
}

// --- through a whole station ---

// What the daemon's StationLegacyBonus does, as plain fields.
struct Bonus final : LegacyBonusHost {
    AwardAnswer award(const Award& a) override {
        awards.push_back(a);
        return busy ? AwardAnswer::Busy : AwardAnswer::Taken;
    }
    BonusWin lastBonus() override { return last; }
    void lastBonusAcknowledged() override {
        ++acknowledgements;
        last = {};
    }
    [[nodiscard]] BonusMeters meters(std::uint16_t game) const override {
        return game == 0 ? BonusMeters{7, 8, 9} : BonusMeters{};
    }
    std::vector<Award> awards;
    bool busy = false;
    BonusWin last;
    int acknowledgements = 0;
};

// A whole station whose legacy bonus polls reach `bonus` (none with legacy bonusing off).
struct Station : test::PolledStation {
    explicit Station(bool legacyBonus = true) : test::PolledStation(info()) {
        if (legacyBonus) {
            stack.station().setLegacyBonusHost(&bonus);
        }
    }
    static MachineInfo info() {
        MachineInfo m;
        m.games.resize(2);  // games 1 and 2
        return m;
    }
    Bonus bonus;
};

TEST(SasLegacyBonusStation, AnAwardIsAckedOnceAndARepeatOfItIsTheSameAckNotASecondAward) {
    Station s;
    EXPECT_EQ(s.poll(withCrc("01 8A 00 00 10 00 01")), "01");
    ASSERT_EQ(s.bonus.awards.size(), 1U);
    EXPECT_EQ(s.bonus.awards[0], (Award{1'000, TaxStatus::NonDeductible}));
    // The host did not hear the ACK and sends the same 8A: an implied NACK, the same byte again.
    EXPECT_EQ(s.poll(withCrc("01 8A 00 00 10 00 01")), "01");
    EXPECT_EQ(s.bonus.awards.size(), 1U);
    // After another poll a new 8A is a new award; a busy station says 00.
    EXPECT_EQ(s.poll("80"), "(nothing)");
    s.bonus.busy = true;
    EXPECT_EQ(s.poll(withCrc("01 8A 00 00 00 50 02")), "01 00");
    EXPECT_EQ(s.bonus.awards.size(), 2U);
    // Malformed: not answered, never reaches the host.
    EXPECT_EQ(s.poll("80"), "(nothing)");
    EXPECT_EQ(s.poll(withCrc("01 8A 00 00 00 50 03")), "(nothing)");
    EXPECT_EQ(s.poll(withCrc("01 8A 00 00 00 00 00")), "(nothing)");
    EXPECT_EQ(s.bonus.awards.size(), 2U);
}

TEST(SasLegacyBonusStation, LP90ReportsTheLastBonusUntilTheHostsImpliedAckOfThatAnswer) {
    Station s;
    s.bonus.last = BonusWin{TaxStatus::WagerMatch, 300};
    const std::string answer = s.poll("01 90");  // type R: no CRC
    EXPECT_EQ(answer, withCrc("01 90 00 00 00 00 00 02 00 00 03 00"));
    // The same poll again (an implied NACK): the same bytes, not yet acknowledged.
    EXPECT_EQ(s.poll("01 90"), answer);
    EXPECT_EQ(s.bonus.acknowledgements, 0);
    // Any other poll acknowledges it; LP 90 then reports zeros, whose ACK acknowledges nothing.
    EXPECT_EQ(s.poll("80"), "(nothing)");
    EXPECT_EQ(s.bonus.acknowledgements, 1);
    EXPECT_EQ(s.poll("01 90"), withCrc("01 90 00 00 00 00 00 00 00 00 00 00"));
    EXPECT_EQ(s.poll("81"), "00");
    EXPECT_EQ(s.bonus.acknowledgements, 1);
}

TEST(SasLegacyBonusStation, LP9AAnswersGame0AndEachGameAndNotAGameTheStationLacks) {
    Station s;
    EXPECT_EQ(s.poll(withCrc("01 9A 00 00")), withCrc("01 9A 00 00 00 00 00 07 00 00 00 08 00 00 00 09"));
    EXPECT_EQ(s.poll("80"), "(nothing)");  // else 9A again is the host's implied NACK: the same bytes
    EXPECT_EQ(s.poll(withCrc("01 9A 00 02")), withCrc("01 9A 00 02 00 00 00 00 00 00 00 00 00 00 00 00"));
    EXPECT_EQ(s.poll("80"), "(nothing)");
    EXPECT_EQ(s.poll(withCrc("01 9A 00 03")), "(nothing)");
}

TEST(SasLegacyBonusStation, WithLegacyBonusingOffNoneOfItsPollsIsAnswered) {
    Station s(false);
    EXPECT_EQ(s.poll(withCrc("01 8A 00 00 10 00 00")), "(nothing)");
    EXPECT_EQ(s.poll("01 90"), "(nothing)");
    EXPECT_EQ(s.poll(withCrc("01 9A 00 00")), "(nothing)");
    EXPECT_TRUE(s.bonus.awards.empty());
}

}  // namespace
}  // namespace pitlink::sas::legacy
