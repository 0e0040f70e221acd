// SAS AFT's pure decisions (protocols/sas/aft_rules.h): the registration's states, the status a
// transfer request gets before anything moves, what a full and a partial transfer move, and the
// history's absolute and relative positions. Expected values come from SAS 6.02 chapter 8's
// rules as docs/sas.md "AFT" states them.
#include <gtest/gtest.h>

#include "protocols/sas/aft_rules.h"

namespace pitlink::sas::aft {
namespace {

constexpr std::uint32_t kAsset = 0x1234;

RegistrationKey keyOf(std::uint8_t first) {
    RegistrationKey key{};
    for (std::size_t i = 0; i < key.size(); ++i) {
        key[i] = static_cast<std::uint8_t>(first + i);
    }
    return key;
}

RegistrationRequest request(std::uint8_t code, std::uint32_t asset = kAsset, RegistrationKey key = keyOf(1),
                            std::uint32_t pos = 77) {
    return RegistrationRequest{code, asset, key, pos};
}

TEST(SasAftRules, RegistrationGoesReadyThenRegisteredAndCancelsOnAWrongAssetOrAnUnregister) {
    Registration r;  // not registered
    auto step = registrationStep(r, request(registration::kRegister), kAsset);
    EXPECT_EQ(step.after.status, registration::kNotRegistered);  // register needs ready first
    EXPECT_EQ(step.exception, 0x6E);
    step = registrationStep(r, request(registration::kInitialize), kAsset);
    EXPECT_EQ(step.after.status, registration::kReady);
    EXPECT_EQ(step.exception, 0);
    step = registrationStep(step.after, request(registration::kRegister, kAsset, keyOf(9), 42), kAsset);
    EXPECT_EQ(step.after.status, registration::kRegistered);
    EXPECT_TRUE(step.after.registered());
    EXPECT_EQ(step.after.key, keyOf(9));
    EXPECT_EQ(step.after.posId, 42U);
    const Registration registered = step.after;
    // The same register again (its answer lost, perhaps across a restart): nothing changes; with
    // another key, or another POS ID, it is out of turn and cancels (6E).
    step = registrationStep(registered, request(registration::kRegister, kAsset, keyOf(9), 42), kAsset);
    EXPECT_EQ(step.after, registered);
    EXPECT_EQ(step.exception, 0);
    step = registrationStep(registered, request(registration::kRegister, kAsset, keyOf(9), 0xFFFFFFFF), kAsset);
    EXPECT_EQ(step.after, registered);
    step = registrationStep(registered, request(registration::kRegister, kAsset, keyOf(8), 42), kAsset);
    EXPECT_EQ(step.after.status, registration::kNotRegistered);
    EXPECT_EQ(step.exception, 0x6E);
    step = registrationStep(registered, request(registration::kRegister, kAsset, keyOf(9), 43), kAsset);
    EXPECT_EQ(step.after.status, registration::kNotRegistered);
    // Read changes nothing; another asset number or an unregister cancels it (6E).
    EXPECT_EQ(registrationStep(registered, RegistrationRequest{}, kAsset).after, registered);
    step = registrationStep(registered, request(registration::kInitialize, kAsset + 1), kAsset);
    EXPECT_EQ(step.after.status, registration::kNotRegistered);
    EXPECT_EQ(step.exception, 0x6E);
    step = registrationStep(registered, RegistrationRequest{registration::kUnregister, std::nullopt, {}, 0}, kAsset);
    EXPECT_EQ(step.after.status, registration::kNotRegistered);
    // An all-zero key does not register.
    Registration ready;
    ready.status = registration::kReady;
    EXPECT_EQ(registrationStep(ready, request(registration::kRegister, kAsset, RegistrationKey{}), kAsset).after.status,
              registration::kNotRegistered);
    // An acknowledgement request is acknowledged at once: 6D, ready.
    step = registrationStep(ready, request(registration::kAcknowledge), kAsset);
    EXPECT_EQ(step.after.status, registration::kReady);
    EXPECT_EQ(step.exception, 0x6D);
}

TransferContext context() {
    TransferContext c;
    c.asset = kAsset;
    c.available = {10'000, 2'000, 500};
    c.transferLimitCents = 100'000;
    c.denominationCents = 25;
    c.transferInAllowed = c.transferOutAllowed = c.bonusAllowed = true;
    return c;
}

TransferRequest transfer(std::uint8_t type, Amounts amounts, std::uint8_t code = kTransferFull) {
    TransferRequest r;
    r.code = code;
    r.type = type;
    r.amounts = amounts;
    r.asset = kAsset;
    r.transactionId = "T-1";
    return r;
}

TEST(SasAftRules, EachRefusalHasItsStatus) {
    const TransferContext c = context();
    const auto refused = [&](TransferRequest r, TransferContext ctx) { return refusalOf(r, ctx).value_or(0); };
    EXPECT_EQ(refused(transfer(type::kInHouseToMachine, {1000, 0, 0}), c), 0);
    TransferContext seen = c;
    seen.lastHistoryId = "T-1";
    EXPECT_EQ(refused(transfer(type::kInHouseToMachine, {1000, 0, 0}), seen), status::kIdNotUnique);
    TransferRequest other = transfer(type::kInHouseToMachine, {1000, 0, 0});
    other.asset = kAsset + 1;
    EXPECT_EQ(refused(other, c), status::kAssetMismatch);
    TransferRequest lockedOnly = transfer(type::kInHouseToMachine, {1000, 0, 0});
    lockedOnly.flags = 0x40;
    EXPECT_EQ(refused(lockedOnly, c), status::kNotLocked);
    TransferRequest keyed = transfer(type::kInHouseToMachine, {1000, 0, 0});
    keyed.key = keyOf(3);
    EXPECT_EQ(refused(keyed, c), status::kNotRegistered);
    TransferContext registered = c;
    registered.registration = Registration{registration::kRegistered, kAsset, keyOf(4), 0};
    EXPECT_EQ(refused(keyed, registered), status::kKeyMismatch);
    EXPECT_EQ(refused(transfer(type::kBonusCoinOut, {0, 100, 0}), c), status::kNotValidFunction);  // restricted bonus
    EXPECT_EQ(refused(transfer(type::kBonusCoinOut, {100, 0, 0}, kTransferPartial), c), status::kNotValidFunction);
    EXPECT_EQ(refused(transfer(type::kInHouseToTicket, {100, 0, 0}), c), status::kNotValidFunction);
    EXPECT_EQ(refused(transfer(0x55, {100, 0, 0}), c), status::kUnsupportedCode);
    EXPECT_EQ(refused(transfer(type::kWinToHost, {100, 0, 0}), c), status::kNoWonCredits);
    EXPECT_EQ(refused(transfer(type::kInHouseToMachine, {0, 0, 0}), c), status::kNotValidAmount);
    EXPECT_EQ(refused(transfer(type::kInHouseToMachine, {1010, 0, 0}), c), status::kNotMultipleOfDenomination);
    TransferContext pooled = c;
    pooled.restrictedPool = 5;
    TransferRequest otherPool = transfer(type::kInHouseToMachine, {0, 500, 0});
    otherPool.poolId = 6;
    EXPECT_EQ(refused(otherPool, pooled), status::kOtherPool);
    otherPool.poolId = 5;
    EXPECT_EQ(refused(otherPool, pooled), 0);
    TransferContext busy = c;
    busy.transferInAllowed = false;
    EXPECT_EQ(refused(transfer(type::kInHouseToMachine, {1000, 0, 0}), busy), status::kUnableNow);
    EXPECT_EQ(refused(transfer(type::kInHouseToHost, {1000, 0, 0}), busy), 0);  // out is still allowed
    TransferRequest receipt = transfer(type::kInHouseToMachine, {1000, 0, 0});
    receipt.flags = 0x80;
    EXPECT_EQ(refused(receipt, c), status::kCannotPrintReceipt);
}

TEST(SasAftRules, FullTransfersMoveAllOrNothingAndPartialOnesWhatFits) {
    TransferContext c = context();  // holds 100.00 / 20.00 / 5.00, limit 1000.00
    auto moved = amountsMoved(transfer(type::kInHouseToHost, {10'000, 2'000, 500}), c);
    EXPECT_EQ(moved.moved, (Amounts{10'000, 2'000, 500}));
    EXPECT_EQ(moved.status, status::kFullTransfer);
    EXPECT_EQ(amountsMoved(transfer(type::kInHouseToHost, {10'025, 0, 0}), c).status, status::kNotValidFunction);
    moved = amountsMoved(transfer(type::kInHouseToHost, {50'000, 0, 1'000}, kTransferPartial), c);
    EXPECT_EQ(moved.moved, (Amounts{10'000, 0, 500}));
    EXPECT_EQ(moved.status, status::kPartialTransfer);
    EXPECT_EQ(amountsMoved(transfer(type::kInHouseToMachine, {100'025, 0, 0}), c).status, status::kOverLimit);
    // To the station: restricted first, then non-restricted, then cashable, up to 1000.00.
    moved = amountsMoved(transfer(type::kInHouseToMachine, {90'000, 20'000, 0}, kTransferPartial), c);
    EXPECT_EQ(moved.moved, (Amounts{80'000, 20'000, 0}));
    EXPECT_EQ(moved.status, status::kPartialTransfer);
    // To the host under a limit of 110.00: cashable first, then non-restricted, then restricted.
    c.transferLimitCents = 11'000;
    EXPECT_EQ(amountsMoved(transfer(type::kInHouseToHost, {10'000, 2'000, 500}), c).status, status::kOverLimit);
    moved = amountsMoved(transfer(type::kInHouseToHost, {10'000, 2'000, 500}, kTransferPartial), c);
    EXPECT_EQ(moved.moved, (Amounts{10'000, 500, 500}));
    // Nothing of what a partial transfer asked is held: nothing moves.
    c.available = {0, 0, 0};
    EXPECT_EQ(amountsMoved(transfer(type::kInHouseToHost, {1'000, 0, 0}, kTransferPartial), c).status,
              status::kNotValidAmount);
}

// A bonus jackpot (11) is a bonus (whole, never restricted) that is paid by hand-pay from the
// jackpot limit on, where the transfer limit no longer bounds it (it never stays on the meter).
TEST(SasAftRules, ABonusJackpotAtTheJackpotLimitIsHandPaidAndBelowItIsABonus) {
    TransferContext c = context();  // transfer limit 1000.00, denomination 0.25
    c.jackpotLimitCents = 120'000;
    const auto refused = [&](TransferRequest r) { return refusalOf(r, c).value_or(0); };
    EXPECT_EQ(refused(transfer(type::kBonusJackpot, {1'000, 0, 0})), 0);
    EXPECT_EQ(refused(transfer(type::kBonusJackpot, {0, 1'000, 0})), status::kNotValidFunction);
    EXPECT_EQ(refused(transfer(type::kBonusJackpot, {1'000, 0, 0}, kTransferPartial)), status::kNotValidFunction);
    EXPECT_EQ(refused(transfer(type::kBonusJackpot, {1'010, 0, 0})), status::kNotMultipleOfDenomination);
    TransferContext handpaying = c;
    handpaying.bonusAllowed = false;  // in a hand-pay already, or tilted
    EXPECT_EQ(refusalOf(transfer(type::kBonusJackpot, {200'000, 0, 0}), handpaying).value_or(0), status::kUnableNow);

    auto moved = amountsMoved(transfer(type::kBonusJackpot, {99'000, 0, 1'000}), c);  // 1000.00: under 1200.00
    EXPECT_EQ(moved.status, status::kFullTransfer);
    EXPECT_FALSE(moved.handpay);
    EXPECT_EQ(moved.moved, (Amounts{99'000, 0, 1'000}));
    EXPECT_EQ(amountsMoved(transfer(type::kBonusJackpot, {110'000, 0, 0}), c).status, status::kOverLimit);
    moved = amountsMoved(transfer(type::kBonusJackpot, {119'000, 0, 1'000}), c);  // exactly the jackpot limit
    EXPECT_EQ(moved.status, status::kFullTransfer);
    EXPECT_TRUE(moved.handpay);
    EXPECT_EQ(moved.moved, (Amounts{119'000, 0, 1'000}));
    EXPECT_TRUE(amountsMoved(transfer(type::kBonusJackpot, {5'000'000, 0, 0}), c).handpay);
    // Not while the station has stakes in play (or another hand-pay, a cash-out, a ticket): 87.
    TransferContext playing = c;
    playing.idle = false;
    moved = amountsMoved(transfer(type::kBonusJackpot, {119'000, 0, 1'000}), playing);
    EXPECT_EQ(moved.status, status::kUnableNow);
    EXPECT_EQ(moved.moved, (Amounts{}));
    EXPECT_EQ(amountsMoved(transfer(type::kBonusJackpot, {99'000, 0, 1'000}), playing).status, status::kFullTransfer);
    // A coin-out bonus is never hand-paid; without a jackpot limit neither is a jackpot bonus.
    EXPECT_EQ(amountsMoved(transfer(type::kBonusCoinOut, {200'000, 0, 0}), c).status, status::kOverLimit);
    c.jackpotLimitCents = 0;
    moved = amountsMoved(transfer(type::kBonusJackpot, {200'000, 0, 0}), c);
    EXPECT_EQ(moved.status, status::kOverLimit);
    EXPECT_FALSE(moved.handpay);
}

TEST(SasAftRules, HistoryPositionsAreAbsoluteOrCountedBackFromTheNewest) {
    TransferHistory h;
    EXPECT_EQ(h.at(0xFF), nullptr);
    for (int i = 1; i <= 130; ++i) {  // wraps: 127 positions, 01 after 7F
        TransferAnswer a;
        a.transactionId = "T" + std::to_string(i);
        h.add(a);
    }
    // T128 went to position 01, T129 to 02, T130 to 03.
    ASSERT_NE(h.at(0xFF), nullptr);
    EXPECT_EQ(h.at(0xFF)->transactionId, "T130");
    EXPECT_EQ(h.at(0xFF)->position, 3);
    EXPECT_EQ(h.at(0xFD)->transactionId, "T128");
    EXPECT_EQ(h.at(0xFC)->transactionId, "T127");  // back across the wrap: position 7F
    EXPECT_EQ(h.positionOf(0xFC), 0x7F);
    EXPECT_EQ(h.at(0x01)->transactionId, "T128");
    EXPECT_EQ(h.at(0x04)->transactionId, "T4");
    EXPECT_EQ(h.at(0x00), nullptr);
}

}  // namespace
}  // namespace pitlink::sas::aft
