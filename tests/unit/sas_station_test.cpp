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
    std::optional<std::pair<std::uint32_t, std::uint32_t>> setValidationId(std::uint32_t id,
                                                                           std::uint32_t seq) override {
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
    // Games: each (game, denomination code) scope's game meters, as the daemon sums them.
    [[nodiscard]] std::optional<std::uint64_t> playMeter(std::uint16_t code, const MeterScope& scope) const override {
        const auto play = plays.find({scope.game, scope.denomination});
        if (!isGameMeter(code) || play == plays.end() || !play->second.contains(code)) {
            return std::nullopt;
        }
        return play->second.at(code);
    }
    [[nodiscard]] ValidationMeters validationMeters(std::uint8_t type) const override {
        return type == 0x00 ? ValidationMeters{3, 4'500} : ValidationMeters{};
    }
    [[nodiscard]] std::uint16_t selectedGame() const override { return selected; }
    [[nodiscard]] std::vector<std::uint16_t> enabledGames() const override { return joined; }
    [[nodiscard]] std::uint32_t cashoutLimitCredits() const override { return 12'345; }
    HandpayMethodResult enableHandpayResetMethod(std::uint8_t method) override {
        methods.push_back(method);
        return !handpay ? HandpayMethodResult::NotInHandpay
                        : (method == 0 ? HandpayMethodResult::Reset : HandpayMethodResult::Unable);
    }
    std::optional<MachineNumbers> setMachineNumbers(const MachineNumbers& requested) override {
        numbers.asset = requested.asset != 0 ? requested.asset : numbers.asset;
        numbers.floorLocation = requested.floorLocation.empty() ? numbers.floorLocation : requested.floorLocation;
        return numbers;
    }

    std::map<std::pair<std::uint16_t, std::uint8_t>, std::map<std::uint16_t, std::uint64_t>> plays;
    std::uint16_t selected = 1;
    std::vector<std::uint16_t> joined{1};
    std::vector<std::uint8_t> methods;  // LP A8's, as asked
    MachineNumbers numbers{7, "PIT 1"};
    const TicketSetup& ticketSetup() const override { return setup; }
    bool setTicketSetup(const TicketSetup& s) override {
        if (withholdSettings && !(s == setup)) {
            setup = s;  // in force; answered on the repeat, as the daemon does once durable
            return false;
        }
        setup = s;
        return true;
    }
    bool withholdSettings = false;

    std::optional<PendingCashout> cashout;
    std::string received;
    std::pair<std::uint32_t, std::uint32_t> validationId{0, 0};
    std::optional<ValidationRecord> record;
    bool recordRead = false;
    std::optional<EscrowedTicket> escrow;
    std::optional<RedeemRequest> redeemed;
    TicketSetup setup;
};

// A frame with its CRC, as hex.
std::string withCrcHex(const std::string& frameHex) {
    std::vector<std::uint8_t> frame = bytes(frameHex);
    appendCrc(frame);
    return hex(frame);
}

struct Host {
    explicit Host(MachineInfo info = {}) : stack(1, std::move(info), table, table, table, wire, 0) { poll("80"); }
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

// A setting from the host is answered once durable: until then the poll gets no answer (the host
// sends it again) and the repeat is answered with what it set.
TEST(SasTickets, ASettingNotDurableYetIsNotAnswered) {
    Host h;
    h.table.withholdSettings = true;
    EXPECT_EQ(h.ask("01 7B 08 03 00 01 00 00 30 00 00", true), "(nothing)");
    EXPECT_EQ(h.table.setup.cashableExpirationDays, 30);
    EXPECT_EQ(h.ask("01 7B 08 03 00 01 00 00 30 00 00", true), withCrc("01 7B 0A 04 03 02 01 01 00 00 30 00 00"));
    EXPECT_EQ(h.ask("01 7C 06 02 04 4C 4F 42 42", true), "(nothing)");
    EXPECT_EQ(h.ask("01 7C 06 02 04 4C 4F 42 42", true), withCrc("01 7C 01"));
    EXPECT_EQ(h.ask("01 7D 04 02 01 05 29", true), withCrc("01 7D 00"));  // refused at once: nothing to make durable
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

// Three games, two denominations (0.01 and 0.05): the station has joined games 1 and 3.
MachineInfo threeGames() {
    MachineInfo info;
    info.playerDenominations = {0x01, 0x02};
    for (const std::string id : {"AAAAAA", "BBBBBB", "CCCCCC"}) {
        GameInfo game;
        game.additionalId = "00" + std::string(1, static_cast<char>('1' + (id[0] - 'A')));
        game.paytableId = id;
        game.basePercentage = "9876";
        game.maxBet = 0x64;
        game.gameName = "game-" + id.substr(0, 1);
        info.games.push_back(game);
    }
    return info;
}

TEST(SasStationGames, EachGameItsNumberConfigurationAndTheGamesJoined) {
    Host h(threeGames());
    h.table.selected = 3;
    h.table.joined = {1, 3};
    EXPECT_EQ(h.poll("01 51"), withCrcHex("01 51 00 03"));  // three games implemented
    EXPECT_EQ(h.poll("01 55"), withCrcHex("01 55 00 03"));  // the game of the last 8C
    EXPECT_EQ(h.poll("01 56"), withCrcHex("01 56 05 02 00 01 00 03"));
    // Game 2's configuration: "BA", its number as additional ID, accounting denomination 01, max
    // bet 0x64, group 0, options 0000, its paytable ID and base %.
    EXPECT_EQ(h.poll("01 53 00 02", true),
              withCrcHex("01 53 00 02 42 41 30 30 32 01 64 00 00 00 42 42 42 42 42 42 39 38 37 36"));
    EXPECT_EQ(h.ask("01 53 00 04", true), "(nothing)");  // no game 4
    EXPECT_EQ(h.ask("01 A0 00 03", true).substr(0, 11), "01 A0 00 03");
    EXPECT_EQ(h.ask("01 A0 00 04", true), "(nothing)");
    // B5 of game 3: its name; under B0 0.05 the denomination it names alone.
    const std::string b5 = h.ask("01 B5 00 03", true);
    EXPECT_NE(b5.find("06 67 61 6D 65 2D 43"), std::string::npos) << b5;  // "game-C"
    EXPECT_EQ(b5.substr(b5.size() - 14, 8), "02 01 02");                  // both denominations
    const std::string b0b5 = h.ask("01 B0 04 02 B5 00 03", true);
    EXPECT_EQ(b0b5.substr(b0b5.size() - 11, 5), "01 02");
    // LP 56 under B0: every denomination offered plays every game joined; another is 04.
    EXPECT_EQ(h.ask("01 B0 02 02 56", true), withCrcHex("01 B0 08 02 56 05 02 00 01 00 03"));
    EXPECT_EQ(h.ask("01 B0 02 03 56", true), withCrcHex("01 B0 03 03 00 04"));
}

TEST(SasStationGames, GameMetersOfOneGameOneDenominationOrBoth) {
    Host h(threeGames());
    h.table.meters = {{meter::kCoinIn, 900}, {meter::kCurrentCredits, 2500}, {meter::kGamesPlayed, 30}};
    h.table.plays[{2, 0}] = {
        {meter::kCoinIn, 400}, {meter::kCoinOut, 380}, {meter::kJackpot, 0}, {meter::kGamesPlayed, 12}};
    h.table.plays[{0, 2}] = {{meter::kCoinIn, 250}, {meter::kGamesPlayed, 5}};
    h.table.plays[{2, 2}] = {{meter::kCoinIn, 50}, {meter::kGamesPlayed, 1}};
    // 2F of game 2: coin in and games played; current credits (the station's) left out.
    EXPECT_EQ(h.ask("01 2F 05 00 02 00 0C 05", true), withCrcHex("01 2F 0C 00 02 00 00 00 04 00 05 00 00 00 12"));
    // Game 0 is the station: every code answered.
    EXPECT_EQ(h.ask("01 2F 04 00 00 00 0C", true), withCrcHex("01 2F 0C 00 00 00 00 00 09 00 0C 00 00 25 00"));
    // 6F leaves the station's meter out of game 2; AF gives it size 0.
    EXPECT_EQ(h.ask("01 6F 06 00 02 00 00 0C 00", true), withCrcHex("01 6F 09 00 02 00 00 04 00 00 04 00"));
    EXPECT_EQ(h.ask("01 AF 06 00 02 00 00 0C 00", true), withCrcHex("01 AF 0C 00 02 00 00 04 00 00 04 00 0C 00 00"));
    // 52: coin in, coin out, jackpot, games played of game 2; game 4 does not exist.
    EXPECT_EQ(h.ask("01 52 00 02", true), withCrcHex("01 52 00 02 00 00 04 00 00 00 03 80 00 00 00 00 00 00 00 12"));
    EXPECT_EQ(h.ask("01 52 00 04", true), "(nothing)");
    // Under B0 0.05: every game's play at 0.05 (game 0), or game 2's at 0.05.
    EXPECT_EQ(h.ask("01 B0 07 02 2F 04 00 00 00 05", true),
              withCrcHex("01 B0 0F 02 2F 0C 00 00 00 00 00 02 50 05 00 00 00 05"));
    EXPECT_EQ(h.ask("01 B0 07 02 2F 04 00 02 00 05", true),
              withCrcHex("01 B0 0F 02 2F 0C 00 02 00 00 00 00 50 05 00 00 00 01"));
}

TEST(SasStationGames, RoutinePollsAHostSendsEveryDay) {
    Host h;
    h.table.meters = {{meter::kGamesSincePowerUp, 12'345},
                      {meter::kGamesSinceDoorClosed, 7},
                      {meter::kHandPaidCancelledCredits, 1'500}};
    EXPECT_EQ(h.poll("01 18"), withCrcHex("01 18 23 45 00 07"));  // 2 BCD each: 12,345 keeps 2345
    EXPECT_EQ(h.poll("01 2D 00 00", true), withCrcHex("01 2D 00 00 00 00 15 00"));
    EXPECT_EQ(h.ask("01 2D 00 01", true), "(nothing)");  // kept for the station only (SAS 7.6.3)
    EXPECT_EQ(h.poll("01 50 00", true), withCrcHex("01 50 00 00 00 00 03 00 00 00 45 00"));
    EXPECT_EQ(h.ask("01 50 80", true), withCrcHex("01 50 80 00 00 00 00 00 00 00 00 00"));
    EXPECT_EQ(h.ask("01 50 05", true), "(nothing)");                          // not a validation type
    EXPECT_EQ(h.poll("01 A4 00 00", true), withCrcHex("01 A4 00 00 99 99"));  // 12,345 credits: 9999 at most
    EXPECT_EQ(h.ask("01 A4 00 02", true), "(nothing)");                       // one game here
    EXPECT_EQ(h.poll("01 A8 01", true), withCrcHex("01 A8 02"));              // not in a hand-pay
    h.table.handpay = HandpayInfo{0, 0, 150'000, 0, 0};
    EXPECT_EQ(h.ask("01 A8 01", true), withCrcHex("01 A8 01"));  // to the credit meter: unable
    EXPECT_EQ(h.ask("01 A8 00", true), withCrcHex("01 A8 00"));  // standard: the one it has
    EXPECT_EQ(h.table.methods, (std::vector<std::uint8_t>{0x01, 0x01, 0x00}));
    // B7: asset 12,345 (binary, LSB first) and "PIT 7"; the answer: control 03, then the numbers.
    EXPECT_EQ(h.poll("01 B7 0A 39 30 00 00 05 50 49 54 20 37", true),
              withCrcHex("01 B7 0B 03 39 30 00 00 05 50 49 54 20 37"));
    EXPECT_EQ(h.table.numbers.asset, 12'345U);
    // Asset 0 and no location only read them.
    EXPECT_EQ(h.ask("01 B7 05 00 00 00 00 00", true), withCrcHex("01 B7 0B 03 39 30 00 00 05 50 49 54 20 37"));
    EXPECT_EQ(h.ask("01 B7 06 00 00 00 00 05 50", true), "(nothing)");     // location length beyond the poll
    EXPECT_EQ(h.ask("01 B7 07 00 00 00 00 02 50 B0", true), "(nothing)");  // not printable ASCII
    EXPECT_EQ(h.table.numbers.floorLocation, "PIT 7");
}

}  // namespace
}  // namespace pitlink::sas
