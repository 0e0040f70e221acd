// The rest of LP 72's, 73's and 74's forms and answers, in hex against the layouts of docs/sas.md
// "AFT" (SAS 6.02 chapter 8 as Monaco lays it out), beside sas_aft_polls_test.cpp: a request with
// every field used (a receipt, a lock time-out, a key, an ID of 20 characters, an MMDDYYYY
// expiration), a bonus, each malformed field and the status SAS gives it; a cancel with its index;
// an answer to the host with its meters, a history position's, C1; LP 73's initialise,
// acknowledge, unregister (both lengths) and what is not a registration; LP 74's cancel and
// interrogation and an answer not locked. The frames' CRCs are computed by the test's own
// CRC-16/KERMIT.
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

// `addr 72 len body`, the length byte counted here.
std::string lp72(const std::string& body) {
    char len[4];
    std::snprintf(len, sizeof len, "%02X", static_cast<unsigned>(bytes(body).size()));
    return std::string("01 72 ") + len + " " + body;
}

constexpr const char* kKey = "01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10 11 12 13 14";
constexpr const char* kZeroKey = "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00";

// A request's body around its amounts, ID, expiration, receipt and lock time-out.
std::string requestBody(const std::string& codeIndexType, const std::string& amounts, const std::string& id,
                        const std::string& expiration = "00 00 00 00", const std::string& receipt = "00",
                        const std::string& timeout = "00 00") {
    return codeIndexType + " " + amounts + " 00 01 00 00 00 " + kZeroKey + " " + id + " " + expiration + " 00 00 " +
           receipt + " " + timeout;
}
constexpr const char* kAmounts = "00 00 00 05 00 00 00 00 00 00 00 00 00 00 00";  // 5.00 cashable

std::optional<std::uint8_t> refusalOf(const std::string& frame) {
    const auto poll = parseTransfer(pollOf(frame));
    const auto* refused = poll ? std::get_if<TransferRefusal>(&*poll) : nullptr;
    return refused == nullptr ? std::nullopt : std::optional(refused->status);
}

TEST(SasAftForms, APartialTransferToTheHostWithEveryFieldOfTheRequest) {
    // Partial (01), index 00, to the host (80): 25.00 cashable, 0.75 restricted, 100.00
    // non-restricted; flags 40 (only if locked); asset 0x12345678; a key; ID "A".."T" (20);
    // expiration 12/31/2026; pool 0x0102; receipt data AB CD; lock time-out 2.50 s.
    const std::string body = std::string("01 00 80 00 00 00 25 00 00 00 00 00 75 00 00 01 00 00 40 78 56 34 12 ") +
                             kKey +
                             " 14 41 42 43 44 45 46 47 48 49 4A 4B 4C 4D 4E 4F 50 51 52 53 54 12 31 20 26 02 01 "
                             "02 AB CD 02 50";
    EXPECT_EQ(lp72(body).substr(0, 8), "01 72 4B");
    const auto poll = parseTransfer(pollOf(lp72(body)));
    ASSERT_TRUE(poll.has_value());
    const auto* r = std::get_if<TransferRequest>(&*poll);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->code, kTransferPartial);
    EXPECT_EQ(r->type, type::kInHouseToHost);
    EXPECT_EQ(r->amounts, (Amounts{2'500, 75, 10'000}));
    EXPECT_EQ(r->flags, 0x40);
    EXPECT_EQ(r->asset, 0x12345678U);
    EXPECT_EQ(hex(r->key), kKey);
    EXPECT_EQ(r->transactionId, "ABCDEFGHIJKLMNOPQRST");
    EXPECT_EQ(r->expiration, 12'312'026U);
    EXPECT_EQ(r->poolId, 0x0102);
    EXPECT_EQ(hex(r->receiptData), "AB CD");
    EXPECT_EQ(r->lockTimeout, 250);
}

TEST(SasAftForms, ABonusAndEveryMalformedFieldWithTheStatusSasGivesIt) {
    const auto bonus = parseTransfer(pollOf(lp72(requestBody("00 00 10", kAmounts, "01 42"))));
    ASSERT_TRUE(bonus.has_value());
    ASSERT_NE(std::get_if<TransferRequest>(&*bonus), nullptr);
    EXPECT_EQ(std::get<TransferRequest>(*bonus).type, type::kBonusCoinOut);
    EXPECT_EQ(std::get<TransferRequest>(*bonus).amounts, (Amounts{500, 0, 0}));
    // Restricted, non-restricted not BCD: 83; the expiration not BCD: 83.
    EXPECT_EQ(refusalOf(lp72(requestBody("00 00 00", "00 00 00 05 00 00 00 0B 00 00 00 00 00 00 00", "01 42"))),
              status::kNotValidAmount);
    EXPECT_EQ(refusalOf(lp72(requestBody("00 00 00", "00 00 00 05 00 00 00 00 00 00 00 00 00 C0 00", "01 42"))),
              status::kNotValidAmount);
    EXPECT_EQ(refusalOf(lp72(requestBody("00 00 00", kAmounts, "01 42", "12 3A 20 26"))), status::kNotValidAmount);
    // An ID of no character or of 21: 95.
    EXPECT_EQ(refusalOf(lp72(requestBody("00 00 00", kAmounts, "00"))), status::kBadTransactionId);
    EXPECT_EQ(refusalOf(lp72(requestBody("00 00 00", kAmounts,
                                         "15 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41"))),
              status::kBadTransactionId);
    // A lock time-out not BCD, a receipt longer than the poll: 82.
    EXPECT_EQ(refusalOf(lp72(requestBody("00 00 00", kAmounts, "01 42", "00 00 00 00", "00", "00 0F"))),
              status::kNotValidFunction);
    EXPECT_EQ(refusalOf(lp72(requestBody("00 00 00", kAmounts, "01 42", "00 00 00 00", "03 AB CD"))),
              status::kNotValidFunction);
    // A cancel may name its index; an interrogation must; no data at all is not an LP 72.
    const auto cancel = parseTransfer(pollOf("01 72 02 80 05"));
    ASSERT_TRUE(cancel.has_value());
    ASSERT_NE(std::get_if<TransferQuery>(&*cancel), nullptr);
    EXPECT_EQ(std::get<TransferQuery>(*cancel).code, kCancel);
    EXPECT_EQ(std::get<TransferQuery>(*cancel).index, 0x05);
    EXPECT_EQ(refusalOf("01 72 01 FF"), status::kNotValidFunction);
    EXPECT_FALSE(parseTransfer(pollOf("01 72 00")).has_value());
}

TEST(SasAftForms, AnswersToTheHostOfAHistoryPositionAndC1) {
    // A partial transfer to the host, done: 25.00 cashable and 4.00 non-restricted moved, then
    // the three cumulative meters to the host (105.00, 0, 4.00), each size 08 and 8 BCD bytes.
    TransferAnswer a;
    a.status = status::kPartialTransfer;
    a.type = type::kInHouseToHost;
    a.amounts = {2'500, 0, 400};
    a.asset = 1;
    a.transactionId = "T4";
    a.at = SasDateTime{2026, 11, 27, 21, 5, 9};
    a.cumulative = Amounts{10'500, 0, 400};
    EXPECT_EQ(hex(transferAnswer(0x01, a)),
              withCrc("01 72 43 00 01 FF 80 00 00 00 25 00 00 00 00 00 00 00 00 00 04 00 00 01 00 00 00 02 54 34 "
                      "11 27 20 26 21 05 09 00 00 00 00 00 00 08 00 00 00 00 00 01 05 00 08 00 00 00 00 00 00 00 00 "
                      "08 00 00 00 00 00 00 04 00"));
    // History position 05 (a bonus of 5.00): no cumulative meters, each size 00.
    TransferAnswer h;
    h.position = 0x05;
    h.status = status::kFullTransfer;
    h.type = type::kBonusCoinOut;
    h.amounts = {500, 0, 0};
    h.asset = 1;
    h.transactionId = "T3";
    h.at = SasDateTime{2026, 11, 27, 21, 0, 0};
    EXPECT_EQ(hex(transferAnswer(0x01, h)),
              withCrc("01 72 2B 05 00 FF 10 00 00 00 05 00 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 02 54 33 "
                      "11 27 20 26 21 00 00 00 00 00 00 00 00 00 00 00"));
    EXPECT_EQ(hex(transferShortAnswer(0x01, 0x00, status::kUnsupportedCode)), withCrc("01 72 02 00 C1"));
}

TEST(SasAftForms, RegistrationInitialiseAcknowledgeUnregisterAndWhatIsNoRegistration) {
    const auto longForm = [](const std::string& code, const std::string& pos = "07 00 00 00") {
        return parseRegistration(pollOf("01 73 1D " + code + " 01 00 00 00 " + kKey + " " + pos));
    };
    ASSERT_TRUE(longForm("00").has_value());
    EXPECT_EQ(longForm("00")->code, registration::kInitialize);
    EXPECT_EQ(longForm("00")->posId, 7U);
    EXPECT_EQ(longForm("40")->code, registration::kAcknowledge);
    EXPECT_EQ(longForm("80")->code, registration::kUnregister);  // may carry the fields
    EXPECT_EQ(longForm("FF")->asset, 1U);
    EXPECT_EQ(longForm("01", "FF FF FF FF")->posId, registration::kPosIdUnchanged);
    const auto unregister = parseRegistration(pollOf("01 73 01 80"));
    ASSERT_TRUE(unregister.has_value());
    EXPECT_EQ(unregister->code, registration::kUnregister);
    EXPECT_FALSE(unregister->asset.has_value());
    // Initialise and acknowledge need their fields; 02 is no code; a length of 1C is no form.
    EXPECT_FALSE(parseRegistration(pollOf("01 73 01 00")).has_value());
    EXPECT_FALSE(parseRegistration(pollOf("01 73 01 40")).has_value());
    EXPECT_FALSE(longForm("02").has_value());
    EXPECT_FALSE(parseRegistration(pollOf(std::string("01 73 1C 00 01 00 00 00 ") + kKey + " 07 00 00")).has_value());
    // Not registered: status 80 and zeros; pending: 40 with the host's numbers.
    EXPECT_EQ(hex(registrationAnswer(0x01, RegistrationAnswer{})),
              withCrc(std::string("01 73 1D 80 00 00 00 00 ") + kZeroKey + " 00 00 00 00"));
    RegistrationAnswer pending{registration::kPending, 1, {}, 7};
    EXPECT_EQ(hex(registrationAnswer(0x01, pending)),
              withCrc(std::string("01 73 1D 40 01 00 00 00 ") + kZeroKey + " 07 00 00 00"));
}

TEST(SasAftForms, LockCancelInterrogateAndAnAnswerNotLocked) {
    const auto cancel = parseLock(pollOf("01 74 80 00 00 00"));
    ASSERT_TRUE(cancel.has_value());
    EXPECT_EQ(cancel->code, lock::kCancel);
    const auto interrogate = parseLock(pollOf("01 74 FF 00 00 00"));
    ASSERT_TRUE(interrogate.has_value());
    EXPECT_EQ(interrogate->code, lock::kInterrogate);
    const auto every = parseLock(pollOf("01 74 00 1F 99 99"));
    ASSERT_TRUE(every.has_value());
    EXPECT_EQ(every->conditions, 0x0F);  // to, from, printer, bonus; the high bits are not conditions
    EXPECT_EQ(every->timeout, 9'999);
    // Not locked (FF); to, from and bonus (10) available; host cash-out 00; AFT, in-house, bonus,
    // partial to the host; nothing held; a limit of 1,000.00; no restricted expiration or pool.
    LockAnswer a;
    a.asset = 1;
    a.available = lock::kAvailableToMachine | lock::kAvailableFromMachine | lock::kAvailableBonusToMachine;
    a.aftStatus =
        lock::kStatusAnyEnabled | lock::kStatusBonusEnabled | lock::kStatusInHouseEnabled | lock::kStatusPartialToHost;
    a.transferLimit = 100'000;
    EXPECT_EQ(hex(lockAnswer(0x01, a)),
              withCrc("01 74 23 01 00 00 00 FF 13 00 B2 7F 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 "
                      "00 00 10 00 00 00 00 00 00 00 00"));
}

}  // namespace
}  // namespace pitlink::sas::aft
