// A station's SAS protocol through its link, speaking hex: control polls reach the table through
// StationHost, exceptions go out as bytes or as real-time event frames and leave on implied ACK.
#include "protocols/sas/sas_station.h"

#include <gtest/gtest.h>

#include "protocols/sas/crc16_kermit.h"
#include "protocols/sas/station_stack.h"
#include "tests/support/hex.h"
#include "tests/support/recording_link_output.h"
#include "tests/support/station_host_double.h"

namespace pitlink::sas {
namespace {

using test::bytes;
using test::hex;

std::uint16_t programSignature(std::uint16_t seed) {
    return crc16Kermit(test::bytes("12 34 56"), seed);
}

// The table: the shared StationHost/MeterSource double and a scripted ticketing.
struct Table : test::StationHostDouble, TicketHost {
    Table() {
        meters[meter::kCurrentCredits] = 2500;
        signature = programSignature;
    }
    // Tickets: one pending cash-out, one record, one ticket in escrow.
    std::optional<PendingCashout> pendingCashout() const override { return cashout; }
    ValidationReceipt receiveValidation(std::uint8_t systemId, const std::string& number) override {
        if (!cashout) {
            return ValidationReceipt::NotInCashout;
        }
        received = std::to_string(systemId) + ":" + number;
        cashout.reset();
        return ValidationReceipt::Acknowledged;
    }
    std::pair<std::uint32_t, std::uint32_t> setValidationId(std::uint32_t id, std::uint32_t seq) override {
        if (id != 0) {
            validationId = {id, seq};
        }
        return validationId;
    }
    std::optional<ValidationRecord> validationRecord(std::uint8_t code) override {
        if ((code == 0x00 || code == 0xFF) && recordRead) {
            return std::nullopt;
        }
        return record;
    }
    void recordAcknowledged() override { recordRead = true; }
    std::optional<EscrowedTicket> escrowedTicket() override { return escrow; }
    RedemptionStatus redeem(const RedeemRequest& r) override {
        redeemed = r;
        return RedemptionStatus{redemption::kPending, r.amountCents, 0, r.validation};
    }
    RedemptionStatus redemptionStatus() override {
        return RedemptionStatus{redemption::kCashableRedeemed, redeemed ? redeemed->amountCents : 0, 0,
                                redeemed ? redeemed->validation : ""};
    }
    std::uint32_t assetNumber() const override { return 0x01020304; }
    const TicketSetup& ticketSetup() const override { return setup; }
    void setTicketSetup(const TicketSetup& s) override { setup = s; }

    std::optional<PendingCashout> cashout;
    std::string received;
    std::pair<std::uint32_t, std::uint32_t> validationId{0, 0};
    std::optional<ValidationRecord> record;
    bool recordRead = false;
    std::optional<EscrowedTicket> escrow;
    std::optional<RedeemRequest> redeemed;
    TicketSetup setup;
};

struct Host {
    Host() : stack(1, MachineInfo{}, table, table, table, wire, 0) { poll("80"); }
    // Sends a poll (a CRC is added when `withCrc`) and returns the answer, or "(nothing)".
    std::string poll(const std::string& frameHex, bool withCrc = false) {
        std::vector<std::uint8_t> frame = bytes(frameHex);
        if (withCrc) {
            appendCrc(frame);
        }
        now += 40;
        bool first = true;
        for (const std::uint8_t b : frame) {
            stack.receive(WireByte{b, first}, false, now);
            first = false;
        }
        return wire.take();
    }
    // A poll after a broadcast, so that polling the same command twice is not an implied NACK.
    std::string ask(const std::string& frameHex, bool withCrc = false) {
        poll("80");
        return poll(frameHex, withCrc);
    }
    Table table;
    test::RecordingLinkOutput wire;
    StationStack stack;
    ExceptionQueue& queue = stack.exceptions();
    SasStation& station = stack.station();
    std::int64_t now = 0;
};

TEST(SasStation, EnableDisableAndTheClockReachTheTable) {
    Host h;
    EXPECT_EQ(h.poll("01 01", true), "01");  // ACK: the address alone
    EXPECT_EQ(h.table.enabled, false);
    EXPECT_EQ(h.poll("01 02", true), "01");
    EXPECT_EQ(h.table.enabled, true);
    EXPECT_EQ(h.poll("01 7F 11 27 20 25 19 21 16 D9 10"), "01");  // the captured LP 7F
    ASSERT_TRUE(h.table.clockSet);
    EXPECT_EQ(h.table.clockSet->day, 27);
    EXPECT_EQ(h.station.stats().clockRefused, 1U);  // 2025 is outside this table's tolerance
    const std::string time = h.poll("01 7E");
    EXPECT_EQ(time.substr(0, 26), "01 7E 11 22 20 26 09 30 05");
    EXPECT_EQ(h.poll("01 1A").substr(0, 17), "01 1A 00 00 25 00");
    EXPECT_EQ(h.poll("01 4A"), "(nothing)");  // bills in the stacker: no bill acceptor, not supported: silent
}

TEST(SasStation, DelayGameAndTheMultiDenominationPollsOfTheCapture) {
    Host h;
    EXPECT_EQ(h.poll("01 2E 00 00 9B 0F"), "01");  // the captured "game delay 0000": ACK
    ASSERT_TRUE(h.table.delayed);
    EXPECT_EQ(h.table.delayed->count(), 0);
    EXPECT_EQ(h.poll("01 B2"), "01 B2 02 01 01 47 EE");  // captured: one denomination, code 01
    // (Another poll between two 2Es: the same head again would be the host's implied NACK.)
    EXPECT_EQ(h.poll("01 2E 00 50", true), "01");  // 50 (BCD) x 100 ms
    EXPECT_EQ(h.table.delayed->count(), 5'000);
    EXPECT_EQ(h.poll("01 B1"), "01 B1 01 E3 68");         // captured: the current one
    EXPECT_EQ(h.poll("01 2E 00 5A", true), "(nothing)");  // not BCD
    // Captured: LP 56 under the preamble for denomination 01.
    EXPECT_EQ(h.poll("01 B0 02 01 56 0B F1"), "01 B0 06 01 56 03 01 00 01 13 17");
}

TEST(SasStation, ExceptionsAsBytesThenAsRealTimeEventsLeavingOnlyOnImpliedAck) {
    Host h;
    h.queue.raise(0x11);
    h.queue.raise(0x7F, bytes("00 00 01 95"));  // game ended, win 195
    EXPECT_EQ(h.poll("81"), "11");
    EXPECT_EQ(h.poll("01 0E 01", true), "01");  // RTE on; also the implied ACK of the 11
    EXPECT_TRUE(h.station.realTimeEvents());
    const std::string event = h.poll("81");
    EXPECT_EQ(event.substr(0, 20), "01 FF 7F 00 00 01 95");
    EXPECT_TRUE(crcMatches(bytes(event)));
    EXPECT_EQ(h.poll("81"), event);             // implied NACK: the same frame again
    EXPECT_EQ(h.poll("01 0E 00", true), "01");  // ACK of the event; RTE off
    EXPECT_EQ(h.poll("81"), "00");
    EXPECT_EQ(h.station.stats().exceptionsAcknowledged, 2U);
    EXPECT_EQ(h.queue.size(), 0U);
}

TEST(SasStation, HandpayInformationAndRemoteReset) {
    Host h;
    EXPECT_EQ(h.poll("01 94", true).substr(0, 8), "01 94 02");  // not in a hand-pay
    h.table.handpay = HandpayInfo{0, 0, 800'000, 0, 0};
    h.station.handpayAnnounced();  // 51 raised: exception 51 repeats until the host reads LP 1B
    EXPECT_FALSE(h.station.handpayRead());
    EXPECT_EQ(h.poll("01 1A").substr(0, 17), "01 1A 00 00 25 00");
    EXPECT_FALSE(h.station.handpayRead());  // another long poll does not read it
    const std::string info = h.poll("01 1B");
    EXPECT_TRUE(h.station.handpayRead());
    EXPECT_EQ(info.substr(0, 53), "01 1B 00 00 00 00 80 00 00 00 00 00 00 00 00 00 00 00");
    EXPECT_EQ(bytes(info).size(), 2 + 2 + 5 + 2 + 1 + 10 + 2U);
    EXPECT_TRUE(crcMatches(bytes(info)));
    EXPECT_EQ(h.poll("01 94", true).substr(0, 8), "01 94 00");  // reset
    EXPECT_FALSE(h.table.handpay.has_value());
    h.station.handpayAnnounced();  // the next hand-pay is unread again
    EXPECT_FALSE(h.station.handpayRead());
}

}  // namespace
}  // namespace pitlink::sas

namespace pitlink::sas {
namespace {

// The frame with its CRC, as hex (expected answers are written without their CRC).
std::string withCrc(const std::string& frameHex) {
    std::vector<std::uint8_t> frame = bytes(frameHex);
    appendCrc(frame);
    return hex(frame);
}

TEST(SasTickets, SystemValidationAnswersThePendingCashOutAndTakesTheNumber) {
    Host h;
    EXPECT_EQ(h.ask("01 57"), withCrc("01 57 80 00 00 00 00 00"));  // not waiting
    h.table.cashout = PendingCashout{0x00, 12345};
    EXPECT_EQ(h.ask("01 57"), withCrc("01 57 00 00 00 01 23 45"));
    EXPECT_EQ(h.ask("01 58 12 00 11 22 33 44 55 66 77", true), withCrc("01 58 00"));
    EXPECT_EQ(h.table.received, "12:0011223344556677");
    EXPECT_EQ(h.ask("01 57"), withCrc("01 57 80 00 00 00 00 00"));
    EXPECT_EQ(h.ask("01 58 12 00 11 22 33 44 55 66 78", true), withCrc("01 58 80"));  // no cash-out now
    EXPECT_EQ(h.ask("01 58 12 00 11 22 33 44 55 66 7A", true), withCrc("01 58 81"));  // not BCD
}

TEST(SasTickets, SecureEnhancedIdAndValidationRecords) {
    Host h;
    EXPECT_EQ(h.ask("01 4C 00 00 00 00 00 00", true), withCrc("01 4C 00 00 00 00 00 00"));  // read: not set
    EXPECT_EQ(h.ask("01 4C 21 43 65 01 00 00", true), withCrc("01 4C 21 43 65 01 00 00"));
    EXPECT_EQ(h.table.validationId, std::make_pair(0x654321U, 1U));
    h.table.record = ValidationRecord{0x00, 3, SasDateTime{2026, 11, 22, 9, 30, 5}, "6429188185446104", 2500, 7, 0};
    const std::string record = withCrc(
        "01 4D 00 03 11 22 20 26 09 30 05 64 29 18 81 85 44 61 04 00 00 00 25 00 07 00 00 "
        "00 00 00 00 00 00");
    EXPECT_EQ(h.ask("01 4D FF", true), record);  // look ahead
    EXPECT_EQ(h.ask("01 4D 00", true), record);
    EXPECT_EQ(h.poll("01 4D 00", true), record);  // no ACK between: a NACK, the same answer
    EXPECT_FALSE(h.table.recordRead);             // not read until the host acknowledges it
    std::string empty = "01 4D";
    for (int i = 0; i < 31; ++i) {  // type to pool ID: 31 bytes
        empty += " 00";             // no unread record: every field zero
    }
    EXPECT_EQ(h.ask("01 4D 00", true), withCrc(empty));  // the ACK before it marked the record read
    EXPECT_TRUE(h.table.recordRead);
    EXPECT_EQ(h.ask("01 4D 20", true), "(nothing)");  // no such function code
}

TEST(SasTickets, TicketInThroughLongPolls70And71) {
    Host h;
    EXPECT_EQ(h.ask("01 70"), withCrc("01 70 01 FF"));  // nothing in escrow: the status alone
    h.table.escrow = EscrowedTicket{0, "001234567890123456"};
    EXPECT_EQ(h.ask("01 70"), withCrc("01 70 10 00 00 00 00 00 00 00 00 12 34 56 78 90 12 34 56"));
    EXPECT_EQ(h.ask("01 71 10 00 00 00 00 50 00 00 00 12 34 56 78 90 12 34 56", true),
              withCrc("01 71 10 40 00 00 00 50 00 00 00 12 34 56 78 90 12 34 56"));
    ASSERT_TRUE(h.table.redeemed);
    EXPECT_EQ(h.table.redeemed->amountCents, 5000U);
    EXPECT_EQ(h.table.redeemed->transferCode, 0x00);
    EXPECT_EQ(h.ask("01 71 01 FF", true), withCrc("01 71 10 00 00 00 00 50 00 00 00 12 34 56 78 90 12 34 56"));
    EXPECT_EQ(h.ask("01 71 03 00 00 00", true), "(nothing)");  // too short to be a redemption
}

TEST(SasTickets, TicketSetUpAndRomSignature) {
    Host h;
    // 7B: control mask 0003, status bits 0001, cashable expiry 30 days, restricted 0 (unchanged).
    EXPECT_EQ(h.ask("01 7B 08 03 00 01 00 00 30 00 00", true), withCrc("01 7B 0A 04 03 02 01 01 00 00 30 00 00"));
    EXPECT_EQ(h.table.setup.statusBits, 0x0001);
    // 7D: host 0102, expiry 5 days, location "PIT 3", address 1 "CASINO", address 2 unchanged.
    EXPECT_EQ(h.ask("01 7D 11 02 01 05 05 50 49 54 20 33 06 43 41 53 49 4E 4F 00", true), withCrc("01 7D 01"));
    EXPECT_EQ(h.table.setup.location, "PIT 3");
    EXPECT_EQ(h.table.setup.address1, "CASINO");
    EXPECT_EQ(h.table.setup.hostId, 0x0102);
    EXPECT_EQ(h.ask("01 7D 04 02 01 05 29", true), withCrc("01 7D 00"));  // a line of 41 characters: refused
    EXPECT_EQ(h.ask("01 7C 06 02 04 4C 4F 42 42", true), withCrc("01 7C 01"));
    EXPECT_EQ(h.table.setup.address2, "LOBB");
    const std::uint16_t signature = crc16Kermit(bytes("12 34 56"), 0xBEEF);
    char expected[16];
    std::snprintf(expected, sizeof expected, "01 21 %02X %02X", signature & 0xFF, signature >> 8);
    EXPECT_EQ(h.ask("01 21 EF BE", true), withCrc(expected));
    EXPECT_EQ(h.ask("01 48"), withCrc("01 48 00 00 00 00 00 00"));
}

}  // namespace
}  // namespace pitlink::sas
