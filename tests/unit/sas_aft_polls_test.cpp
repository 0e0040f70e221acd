// LP 72, 73 and 74 (SAS AFT) parsed and built, byte for byte against the layouts of SAS 6.02
// chapter 8 as docs/sas.md "AFT" lays them out; the frames' CRCs are computed here by the test's
// own CRC-16/KERMIT, not the production one.
#include <gtest/gtest.h>

#include "protocols/sas/aft_polls.h"
#include "tests/support/framed_poll.h"
#include "tests/support/hex.h"
#include "tests/support/test_crc.h"

namespace pitlink::sas::aft {
namespace {

using test::bytes;
using test::hex;

using test::withCrc;

using test::pollOf;

constexpr const char* kZeroKey = "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00";

// An in-house transfer of 10.00 cashable and 5.00 restricted (pool 7, 30 days) to asset 1, ID "ABC".
std::string transferFrame(const std::string& code = "00", const std::string& index = "00",
                          const std::string& cashable = "00 00 00 10 00", const std::string& id = "03 41 42 43") {
    const std::string body = code + " " + index + " 00 " + cashable + " 00 00 00 05 00 00 00 00 00 00 00 " +
                             "01 00 00 00 " + kZeroKey + " " + id + " 00 00 00 30 07 00 00 00 00";
    return "01 72 " +
           [&] {
               char len[4];
               std::snprintf(len, sizeof len, "%02X", static_cast<unsigned>(bytes(body).size()));
               return std::string(len);
           }() +
           " " + body;
}

TEST(SasAftPolls, ATransferRequestIsReadFieldByField) {
    const auto poll = parseTransfer(pollOf(transferFrame()));
    ASSERT_TRUE(poll.has_value());
    const auto* request = std::get_if<TransferRequest>(&*poll);
    ASSERT_NE(request, nullptr);
    EXPECT_EQ(request->code, kTransferFull);
    EXPECT_EQ(request->type, type::kInHouseToMachine);
    EXPECT_EQ(request->amounts, (Amounts{1000, 500, 0}));
    EXPECT_EQ(request->asset, 1U);
    EXPECT_EQ(request->transactionId, "ABC");
    EXPECT_EQ(request->expiration, 30U);  // 0000 0030: 30 days
    EXPECT_EQ(request->poolId, 7U);
    EXPECT_EQ(request->key, RegistrationKey{});
}

TEST(SasAftPolls, AMalformedTransferGetsTheStatusSasGivesIt) {
    const auto refusal = [](const std::string& frame) {
        const auto poll = parseTransfer(pollOf(frame));
        const auto* refused = poll ? std::get_if<TransferRefusal>(&*poll) : nullptr;
        return refused == nullptr ? -1 : refused->status;
    };
    EXPECT_EQ(refusal(transferFrame("00", "01")), status::kNotValidFunction);                  // a transfer is index 00
    EXPECT_EQ(refusal(transferFrame("00", "00", "00 00 00 1A 00")), status::kNotValidAmount);  // not BCD
    EXPECT_EQ(refusal(transferFrame("00", "00", "00 00 00 10 00", "03 41 0A 43")), status::kBadTransactionId);
    EXPECT_EQ(refusal(transferFrame("02")), status::kUnsupportedCode);
    EXPECT_EQ(refusal("01 72 03 FF 00 00"), status::kNotValidFunction);
}

TEST(SasAftPolls, InterrogationsAndCancelCarryTheirIndex) {
    const auto query = [](const std::string& frame) {
        const auto poll = parseTransfer(pollOf(frame));
        const auto* q = poll ? std::get_if<TransferQuery>(&*poll) : nullptr;
        return q == nullptr ? std::string("none") : hex(std::vector<std::uint8_t>{q->code, q->index});
    };
    EXPECT_EQ(query("01 72 02 FF 00"), "FF 00");
    EXPECT_EQ(query("01 72 02 FE 81"), "FE 81");
    EXPECT_EQ(query("01 72 01 80"), "80 00");
}

TEST(SasAftPolls, TheTransferAnswerLaysOutEveryField) {
    TransferAnswer a;
    a.position = 0x00;
    a.status = status::kFullTransfer;
    a.type = type::kInHouseToMachine;
    a.amounts = {1000, 500, 0};
    a.asset = 1;
    a.transactionId = "ABC";
    a.at = SasDateTime{2026, 11, 27, 20, 15, 30};
    a.expiration = 30;
    a.poolId = 7;
    a.cumulative = Amounts{123456, 500, 0};
    EXPECT_EQ(hex(transferAnswer(0x01, a)),
              withCrc("01 72 44 00 00 FF 00 00 00 00 10 00 00 00 00 05 00 00 00 00 00 00 00 01 00 00 00 03 41 42 43 "
                      "11 27 20 26 20 15 30 00 00 00 30 07 00 "
                      "08 00 00 00 00 00 12 34 56 08 00 00 00 00 00 00 05 00 08 00 00 00 00 00 00 00 00"));
    // Pending: no date, no cumulative meters.
    a.status = status::kPending;
    a.at.reset();
    a.cumulative.reset();
    EXPECT_EQ(hex(transferAnswer(0x01, a)),
              withCrc("01 72 2C 00 40 FF 00 00 00 00 10 00 00 00 00 05 00 00 00 00 00 00 00 01 00 00 00 03 41 42 43 "
                      "00 00 00 00 00 00 00 00 00 00 30 07 00 00 00 00"));
    EXPECT_EQ(hex(transferShortAnswer(0x01, 0x00, status::kNotCompatible)), withCrc("01 72 02 00 C0"));
    EXPECT_EQ(hex(transferNoInformation(0x01, 0x05)), withCrc("01 72 03 05 FF FF"));
}

TEST(SasAftPolls, RegistrationLongAndShortForms) {
    const auto read = parseRegistration(pollOf("01 73 01 FF"));
    ASSERT_TRUE(read.has_value());
    EXPECT_EQ(read->code, registration::kRead);
    EXPECT_FALSE(read->asset.has_value());
    EXPECT_FALSE(parseRegistration(pollOf("01 73 01 01")).has_value());  // register needs its fields
    const auto reg = parseRegistration(
        pollOf("01 73 1D 01 34 12 00 00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10 11 12 13 14 78 56 34 12"));
    ASSERT_TRUE(reg.has_value());
    EXPECT_EQ(reg->code, registration::kRegister);
    EXPECT_EQ(reg->asset, 0x1234U);
    EXPECT_EQ(reg->key[0], 0x01);
    EXPECT_EQ(reg->key[19], 0x14);
    EXPECT_EQ(reg->posId, 0x12345678U);
    RegistrationAnswer a{registration::kRegistered, 0x1234, reg->key, 0x12345678};
    EXPECT_EQ(
        hex(registrationAnswer(0x01, a)),
        withCrc("01 73 1D 01 34 12 00 00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10 11 12 13 14 78 56 34 12"));
}

TEST(SasAftPolls, LockRequestAndTheAnswersBonusBitIsNotTheRequests) {
    const auto request = parseLock(pollOf("01 74 00 19 05 00"));
    ASSERT_TRUE(request.has_value());
    EXPECT_EQ(request->code, lock::kRequest);
    EXPECT_EQ(request->conditions, lock::kConditionToMachine | lock::kConditionBonusToMachine);  // 0x10 dropped
    EXPECT_EQ(request->timeout, 500);
    EXPECT_FALSE(parseLock(pollOf("01 74 00 01 0A 00")).has_value());
    LockAnswer a;
    a.asset = 1;
    a.lockStatus = lock::kLocked;
    a.available = lock::kAvailableToMachine | lock::kAvailableBonusToMachine;
    a.hostCashout = 0;
    a.aftStatus = lock::kStatusRegistered | lock::kStatusInHouseEnabled | lock::kStatusAnyEnabled;
    a.current = {250075, 1000, 25};
    a.transferLimit = 100000000;
    a.restrictedExpiration = 12312026;
    a.restrictedPool = 0x0102;
    EXPECT_EQ(hex(lockAnswer(0x01, a)),
              withCrc("01 74 23 01 00 00 00 00 11 00 98 7F 00 00 25 00 75 00 00 00 10 00 00 00 00 00 25 "
                      "01 00 00 00 00 12 31 20 26 02 01"));
}

}  // namespace
}  // namespace pitlink::sas::aft
