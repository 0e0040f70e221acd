// A station's ticketing with the accounting host on a manual clock: system validation answered,
// denied and timed out; secure enhanced validation numbering; ticket in accepted, rejected,
// mismatched, refused by the table, never read and never answered. Time-outs fire only at their
// configured time, and a late answer finds nothing to act on.
#include "daemon/sas/station_tickets.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "daemon/journal/records/sas_records.h"
#include "daemon/sas/exception_events.h"
#include "protocols/sas/secure_enhanced_validation.h"
#include "tests/support/manual_executor.h"

namespace pitlink::sas {
namespace {

using std::chrono::milliseconds;
using IdAnswer = std::optional<std::pair<std::uint32_t, std::uint32_t>>;

struct TicketsFixture : ::testing::Test {
    TicketsFixture() {
        settings.systemValidationTimeout = milliseconds(10'000);
        settings.ticketReadTimeout = milliseconds(4'000);
        settings.ticketRedeemTimeout = milliseconds(9'000);
        settings.assetBase = 7000;
        settings.location = "Casino Floor 2";
    }

    StationTickets& make(ValidationMode mode, ValidationId id = {}) {
        settings.validation = mode;
        tickets.emplace(
            3, settings, timers, clock, id, [this](std::uint8_t code) { raised.push_back(code); },
            [this](const SasStationRecord& record, std::function<void(bool)> done) {
                journaled.push_back(record);
                if (done) {
                    committing.push_back(std::move(done));
                }
            });
        return *tickets;
    }

    // The journal commits what it holds (or fails to).
    void commit(bool ok = true) {
        auto done = std::move(committing);
        committing.clear();
        for (auto& d : done) {
            d(ok);
        }
    }

    // Starts a cash-out; the result lands in `validated` (set once `done` is called).
    void cashOut(game::Money amount) {
        tickets->validateCashout(amount, [this](std::optional<table::ValidatedTicket> t) {
            ++doneCalls;
            validated = std::move(t);
        });
    }

    // Inserts a ticket; the verdict lands in `verdicts`, and the table answers `check`.
    void insert(const std::string& validation, table::RedeemCheck check = table::RedeemCheck::Accepted) {
        tickets->redeemTicket(validation, [this, check](const table::RedeemVerdict& v) {
            verdicts.push_back(v);
            return check;
        });
    }

    FloorSettings settings;
    test::ManualExecutor timers;
    TableClock clock{timers};
    std::optional<StationTickets> tickets;
    std::vector<std::uint8_t> raised;
    std::vector<SasStationRecord> journaled;
    std::vector<std::function<void(bool)>> committing;
    int doneCalls = 0;
    std::optional<table::ValidatedTicket> validated;
    std::vector<table::RedeemVerdict> verdicts;
};

constexpr const char* kTicket = "000000000000004711";

TEST_F(TicketsFixture, SystemValidationNumbersTheTicketWithTheHostsSystemId) {
    StationTickets& t = make(ValidationMode::System);
    EXPECT_EQ(t.pendingCashout(), std::nullopt);
    cashOut(4'250);
    EXPECT_EQ(raised, std::vector<std::uint8_t>{code::kSystemValidationRequest});
    ASSERT_TRUE(t.pendingCashout());
    EXPECT_EQ(t.pendingCashout()->amountCents, 4'250U);
    EXPECT_EQ(doneCalls, 0);  // waits for the host

    EXPECT_EQ(t.receiveValidation(12, "0011223344556677"), ValidationReceipt::Acknowledged);
    ASSERT_EQ(doneCalls, 1);
    ASSERT_TRUE(validated);
    EXPECT_EQ(validated->validation, "120011223344556677");
    EXPECT_EQ(validated->details.systemId, 12);
    EXPECT_EQ(validated->details.location, "Casino Floor 2");
    EXPECT_EQ(t.pendingCashout(), std::nullopt);
    EXPECT_EQ(timers.pending(), 0U);  // the time-out went with it
    EXPECT_EQ(t.receiveValidation(12, "0011223344556678"), ValidationReceipt::NotInCashout);
    EXPECT_EQ(doneCalls, 1);
}

TEST_F(TicketsFixture, SystemIdZeroDeniesValidation) {
    StationTickets& t = make(ValidationMode::System);
    cashOut(100);
    EXPECT_EQ(t.receiveValidation(0, "0000000000000000"), ValidationReceipt::Acknowledged);
    EXPECT_EQ(doneCalls, 1);
    EXPECT_FALSE(validated);  // the table locks for a hand-pay
}

TEST_F(TicketsFixture, NoValidationNumberInTimeIsAHandpayAndALateOneIsRefused) {
    StationTickets& t = make(ValidationMode::System);
    cashOut(100);
    timers.advance(milliseconds(9'999));
    EXPECT_EQ(doneCalls, 0);
    timers.advance(milliseconds(1));
    EXPECT_EQ(doneCalls, 1);
    EXPECT_FALSE(validated);
    EXPECT_EQ(t.pendingCashout(), std::nullopt);
    EXPECT_EQ(t.receiveValidation(1, "0011223344556677"), ValidationReceipt::NotInCashout);
    EXPECT_EQ(doneCalls, 1);
}

TEST_F(TicketsFixture, SecureEnhancedValidationWithoutAnIdRaises3FAndDenies) {
    make(ValidationMode::SecureEnhanced);
    cashOut(100);
    EXPECT_EQ(raised, std::vector<std::uint8_t>{code::kValidationIdNotConfigured});
    EXPECT_EQ(doneCalls, 1);
    EXPECT_FALSE(validated);
}

TEST_F(TicketsFixture, SecureEnhancedValidationNumbersFromTheIdAndTheNextSequence) {
    StationTickets& t = make(ValidationMode::SecureEnhanced);
    EXPECT_EQ(t.setValidationId(0, 0), (IdAnswer{{0, 0}}));  // only reads
    EXPECT_TRUE(journaled.empty());
    EXPECT_EQ(t.setValidationId(0x123456, 41), std::nullopt);  // answered once durable
    commit();
    EXPECT_EQ(t.setValidationId(0x123456, 41), (IdAnswer{{0x123456, 41}}));  // the host's repeat
    ASSERT_EQ(journaled.size(), 1U);
    ASSERT_TRUE(std::holds_alternative<journal::SasValidationIdRecord>(journaled[0]));
    EXPECT_EQ(std::get<journal::SasValidationIdRecord>(journaled[0]).sequence, 41U);

    cashOut(2'000);
    ASSERT_TRUE(validated);
    EXPECT_EQ(validated->validation, secureEnhancedValidationNumber(0x123456, 42));
    EXPECT_EQ(validated->details.sequence, 42);
    EXPECT_EQ(validated->details.systemId, 0);
    cashOut(2'000);
    EXPECT_EQ(validated->validation, secureEnhancedValidationNumber(0x123456, 43));
    EXPECT_TRUE(raised.empty());  // no host round trip
    EXPECT_EQ(t.setValidationId(0, 0), (IdAnswer{{0x123456, 43}}));
}

// A host's setting is in force once submitted and answered once durable, so that a power cut
// never undoes what the host was told; meanwhile no setting poll is answered, reads included.
TEST_F(TicketsFixture, TheHostsSettingsAreAnsweredOnlyOnceDurable) {
    StationTickets& t = make(ValidationMode::SecureEnhanced);
    TicketSetup setup = t.ticketSetup();
    setup.cashableExpirationDays = 30;
    EXPECT_FALSE(t.setTicketSetup(setup));
    EXPECT_EQ(t.ticketSetup().cashableExpirationDays, 30);  // in force: a ticket printed now has it
    EXPECT_TRUE(t.settingPending());
    EXPECT_FALSE(t.setTicketSetup(setup));             // the repeat, still committing
    EXPECT_FALSE(t.setTicketSetup(t.ticketSetup()));   // a read too
    EXPECT_EQ(t.setValidationId(0, 0), std::nullopt);  // and LP 4C's
    EXPECT_EQ(t.setValidationId(0x111111, 5), std::nullopt);
    EXPECT_EQ(journaled.size(), 1U);  // the other change was not taken
    commit();
    EXPECT_TRUE(t.setTicketSetup(setup));  // the repeat, answered with what it set
    EXPECT_EQ(journaled.size(), 1U);
    EXPECT_EQ(t.setValidationId(0, 0), (IdAnswer{{0, 0}}));
    ASSERT_TRUE(std::holds_alternative<journal::SasTicketSetupRecord>(journaled[0]));
    EXPECT_EQ(std::get<journal::SasTicketSetupRecord>(journaled[0]).cashableExpirationDays, 30);
}

TEST_F(TicketsFixture, ASettingWhoseCommitFailedIsNeverAnswered) {
    StationTickets& t = make(ValidationMode::SecureEnhanced);
    EXPECT_EQ(t.setValidationId(0x123456, 0), std::nullopt);
    commit(false);  // the journal takes nothing more: the host is never told it was set
    EXPECT_EQ(t.setValidationId(0x123456, 0), std::nullopt);
    EXPECT_EQ(t.setValidationId(0, 0), std::nullopt);
    EXPECT_EQ(journaled.size(), 1U);
}

// The repeat of the last LP 4C, once durable, is answered with the ID as it stands and changes
// nothing: a ticket numbered in between keeps its number unique. Restored at start, so that the
// repeat after a power cut (the answer lost with it) does not set the sequence back either.
TEST_F(TicketsFixture, TheRepeatOfTheLastValidationIdNeverNumbersATicketTwice) {
    StationTickets& t = make(ValidationMode::SecureEnhanced);
    EXPECT_EQ(t.setValidationId(0x123456, 0), std::nullopt);
    commit();
    cashOut(100);
    ASSERT_TRUE(validated);
    EXPECT_EQ(validated->details.sequence, 1);
    EXPECT_EQ(t.setValidationId(0x123456, 0), (IdAnswer{{0x123456, 1}}));
    EXPECT_EQ(journaled.size(), 1U);

    // After a restart: the ID in force comes from the ticket, the last change from its record.
    make(ValidationMode::SecureEnhanced, ValidationId{0x123456, 1});
    tickets->restoreValidationIdSet(ValidationId{0x123456, 0});
    EXPECT_EQ(tickets->setValidationId(0x123456, 0), (IdAnswer{{0x123456, 1}}));
    cashOut(100);
    EXPECT_EQ(validated->details.sequence, 2);
    // A change of the sequence the host means (another one than the last) is made.
    EXPECT_EQ(tickets->setValidationId(0x123456, 0x500), std::nullopt);
    commit();
    EXPECT_EQ(tickets->setValidationId(0, 0), (IdAnswer{{0x123456, 0x500}}));
}

TEST_F(TicketsFixture, TheValidationSequenceWrapsFromFFFFFFToZero) {
    StationTickets& t = make(ValidationMode::SecureEnhanced);
    (void)t.setValidationId(0x654321, 0xFFFFFE);
    commit();
    cashOut(100);
    ASSERT_TRUE(validated);
    EXPECT_EQ(validated->details.sequence, 0xFFFFFF);
    cashOut(100);
    EXPECT_EQ(validated->details.sequence, 0);  // not 1: SAS counts 000000 too
    EXPECT_EQ(validated->validation, secureEnhancedValidationNumber(0x654321, 0));
    cashOut(100);
    EXPECT_EQ(validated->details.sequence, 1);
}

TEST_F(TicketsFixture, TicketAcceptedByTheHostIsCreditedAndReportedAfterTheCommit) {
    StationTickets& t = make(ValidationMode::System);
    insert("4711");  // zero-filled to 18 digits
    EXPECT_EQ(raised, std::vector<std::uint8_t>{code::kTicketInserted});
    EXPECT_EQ(t.redemptionStatus().status, redemption::kWaitingForLp71);
    const auto escrowed = t.escrowedTicket();
    ASSERT_TRUE(escrowed);
    EXPECT_EQ(escrowed->validation, kTicket);

    const RedemptionStatus answer = t.redeem(RedeemRequest{0x00, 2'500, 0, kTicket});
    EXPECT_EQ(answer.status, redemption::kPending);  // the table is journaling the credits
    ASSERT_EQ(verdicts.size(), 1U);
    EXPECT_TRUE(verdicts[0].accepted);
    EXPECT_EQ(verdicts[0].amount, 2'500);
    EXPECT_EQ(timers.pending(), 0U);

    t.redemptionCommitted(true);  // 68 is raised by the table's own transaction, not here
    EXPECT_EQ(raised.size(), 1U);
    EXPECT_EQ(t.redemptionStatus().status, redemption::kCashableRedeemed);
    EXPECT_EQ(t.redemptionStatus().amountCents, 2'500U);
    timers.advance(milliseconds(60'000));
    EXPECT_EQ(verdicts.size(), 1U);  // no time-out after the end
}

TEST_F(TicketsFixture, ACommitThatFailsReturnsTheTicketAndTellsTheHost) {
    StationTickets& t = make(ValidationMode::System);
    insert(kTicket);
    t.redeem(RedeemRequest{0x00, 2'500, 0, kTicket});
    t.redemptionCommitted(false);
    EXPECT_EQ(raised, (std::vector<std::uint8_t>{code::kTicketInserted, code::kTicketTransferComplete}));
    EXPECT_EQ(t.redemptionStatus().status, redemption::kUnableToAccept);
}

TEST_F(TicketsFixture, RejectedTicketIsReturnedWithTheHostsReason) {
    StationTickets& t = make(ValidationMode::System);
    insert(kTicket);
    EXPECT_EQ(t.redeem(RedeemRequest{0x80, 0, 0, kTicket}).status, redemption::kRejectedByHost);
    ASSERT_EQ(verdicts.size(), 1U);
    EXPECT_FALSE(verdicts[0].accepted);
    EXPECT_NE(verdicts[0].reason.find("80"), std::string::npos);
    EXPECT_EQ(raised.back(), code::kTicketTransferComplete);
    EXPECT_EQ(t.escrowedTicket(), std::nullopt);
}

TEST_F(TicketsFixture, AnAnswerForAnotherTicketIsAMismatch) {
    StationTickets& t = make(ValidationMode::System);
    insert(kTicket);
    const RedemptionStatus s = t.redeem(RedeemRequest{0x00, 2'500, 0, "000000000000004712"});
    EXPECT_EQ(s.status, redemption::kValidationMismatch);
    EXPECT_EQ(s.validation, kTicket);
    ASSERT_EQ(verdicts.size(), 1U);
    EXPECT_FALSE(verdicts[0].accepted);
}

TEST_F(TicketsFixture, TheTablesRefusalIsTheStatusTheHostReads) {
    StationTickets& t = make(ValidationMode::System);
    insert(kTicket, table::RedeemCheck::AboveLimit);
    EXPECT_EQ(t.redeem(RedeemRequest{0x00, 9'999'999, 0, kTicket}).status, redemption::kAmountExceedsLimit);
    EXPECT_EQ(raised.back(), code::kTicketTransferComplete);
    EXPECT_EQ(t.redemptionStatus().status, redemption::kAmountExceedsLimit);  // the host reads it (LP 71 FF)
    insert(kTicket, table::RedeemCheck::NotEvenMultiple);
    EXPECT_EQ(t.redeem(RedeemRequest{0x00, 2'501, 0, kTicket}).status, redemption::kNotEvenMultiple);
}

TEST_F(TicketsFixture, ATicketTheHostNeverReadsIsReturnedAtTheReadTimeout) {
    StationTickets& t = make(ValidationMode::System);
    insert(kTicket);
    timers.advance(milliseconds(3'999));
    EXPECT_TRUE(verdicts.empty());
    timers.advance(milliseconds(1));
    ASSERT_EQ(verdicts.size(), 1U);
    EXPECT_FALSE(verdicts[0].accepted);
    EXPECT_EQ(t.redemptionStatus().status, redemption::kTimedOut);
    // A late LP 71 credits nothing: it gets the last status.
    EXPECT_EQ(t.redeem(RedeemRequest{0x00, 2'500, 0, kTicket}).status, redemption::kTimedOut);
    EXPECT_EQ(verdicts.size(), 1U);
}

TEST_F(TicketsFixture, ATicketReadButNeverAnsweredIsReturnedAtTheRedeemTimeout) {
    StationTickets& t = make(ValidationMode::System);
    insert(kTicket);
    ASSERT_TRUE(t.escrowedTicket());
    timers.advance(milliseconds(8'999));  // past the read time-out: read in time, so it waits on
    EXPECT_TRUE(verdicts.empty());
    timers.advance(milliseconds(1));
    ASSERT_EQ(verdicts.size(), 1U);
    EXPECT_FALSE(verdicts[0].accepted);
    EXPECT_EQ(t.redemptionStatus().status, redemption::kTimedOut);
}

TEST_F(TicketsFixture, OneTicketInEscrowAtATime) {
    make(ValidationMode::System);
    insert(kTicket);
    insert("000000000000004712");
    ASSERT_EQ(verdicts.size(), 1U);
    EXPECT_FALSE(verdicts[0].accepted);
    EXPECT_EQ(raised, std::vector<std::uint8_t>{code::kTicketInserted});
}

// LP 71 FF reports the last transfer only: a second ticket taken before the host knows how the
// first ended would hide it (found by tests/sim: the host never learnt of a credited ticket).
TEST_F(TicketsFixture, ANewTicketWaitsUntilTheHostHasReadHowTheLastTransferEnded) {
    StationTickets& t = make(ValidationMode::System);
    insert(kTicket);
    ASSERT_EQ(t.redeem(RedeemRequest{0x00, 2'500, 0, kTicket}).status, redemption::kPending);
    insert("000000000000004712");  // while the credits are being journaled
    ASSERT_EQ(verdicts.size(), 2U);
    EXPECT_FALSE(verdicts[1].accepted);
    t.redemptionCommitted(true);  // 68 (raised by the table's transaction): not read yet
    EXPECT_TRUE(t.transferStatusUnread());
    insert("000000000000004712");
    ASSERT_EQ(verdicts.size(), 3U);
    EXPECT_FALSE(verdicts[2].accepted);
    EXPECT_EQ(raised, std::vector<std::uint8_t>{code::kTicketInserted});  // neither was announced

    const RedemptionStatus final = t.redemptionStatus();
    EXPECT_EQ(final.status, redemption::kCashableRedeemed);
    EXPECT_EQ(final.validation, kTicket);
    EXPECT_FALSE(t.transferStatusUnread());
    insert("000000000000004712");
    EXPECT_EQ(verdicts.size(), 3U);  // in escrow now, waiting for the host
    EXPECT_EQ(raised, (std::vector<std::uint8_t>{code::kTicketInserted, code::kTicketInserted}));
}

TEST_F(TicketsFixture, TransferCompleteIsRaisedAgainEvery15SecondsUntilTheHostReadsTheStatus) {
    StationTickets& t = make(ValidationMode::System);
    insert(kTicket);
    t.redeem(RedeemRequest{0x80, 0, 0, kTicket});
    const std::vector<std::uint8_t> once{code::kTicketInserted, code::kTicketTransferComplete};
    EXPECT_EQ(raised, once);
    timers.advance(milliseconds(14'999));
    EXPECT_EQ(raised, once);
    timers.advance(milliseconds(1));
    EXPECT_EQ(raised.size(), 3U);
    EXPECT_EQ(raised.back(), code::kTicketTransferComplete);
    timers.advance(milliseconds(15'000));
    EXPECT_EQ(raised.size(), 4U);
    EXPECT_EQ(t.redemptionStatus().status, redemption::kRejectedByHost);
    timers.advance(milliseconds(60'000));
    EXPECT_EQ(raised.size(), 4U);  // read: no more
}

// After a restart the last redemption through the host comes from the journal, so the host's
// LP 71 FF for the replayed 68 finds its final status rather than "no information" (FF).
TEST_F(TicketsFixture, TheLastRedemptionRestoredFromTheJournalIsTheFinalStatus) {
    StationTickets& t = make(ValidationMode::System);
    t.restoreRedemption("4711", 2'500, true);
    insert("000000000000004712");  // its 68 is still queued: the host has not read it
    ASSERT_EQ(verdicts.size(), 1U);
    EXPECT_FALSE(verdicts[0].accepted);
    const RedemptionStatus s = t.redemptionStatus();
    EXPECT_EQ(s.status, redemption::kCashableRedeemed);
    EXPECT_EQ(s.amountCents, 2'500U);
    EXPECT_EQ(s.validation, kTicket);
}

// 3D is a flag: tickets printed before the host came round raised it once; it comes again while
// records wait, so that a host reading one record per 3D reads them all.
TEST_F(TicketsFixture, TicketPrintedIsRaisedAgainWhileRecordsWaitToBeRead) {
    StationTickets& t = make(ValidationMode::System);
    journal::TicketIssuedRecord ticket{"120011223344556677", 1'000, {}};
    ticket.print.systemId = 12;
    t.ticketIssued(ticket);
    ticket.validation = "120011223344556678";
    ticket.amount = 2'000;
    t.ticketIssued(ticket);
    EXPECT_EQ(t.unreadRecords(), 2U);
    ASSERT_TRUE(t.validationRecord(0x00));
    EXPECT_EQ(t.validationRecord(0x00)->amountCents, 1'000U);
    t.recordAcknowledged();
    EXPECT_EQ(raised, std::vector<std::uint8_t>{code::kTicketPrinted});
    EXPECT_EQ(t.validationRecord(0x00)->amountCents, 2'000U);
    t.recordAcknowledged();
    EXPECT_EQ(raised.size(), 1U);  // none left
    EXPECT_FALSE(t.validationRecord(0x00).has_value());
}

TEST_F(TicketsFixture, AssetNumberIsTheBasePlusTheStation) {
    EXPECT_EQ(make(ValidationMode::System).assetNumber(), 7003U);
}

}  // namespace
}  // namespace pitlink::sas
