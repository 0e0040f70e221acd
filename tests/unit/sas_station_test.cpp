// A station's SAS protocol through its link, speaking hex: control polls reach the table through
// StationHost, exceptions go out as bytes or as real-time event frames and leave on implied ACK.
#include <gtest/gtest.h>

#include <deque>

#include "protocols/sas/crc16_kermit.h"
#include "protocols/sas/sas_station.h"
#include "tests/support/hex.h"

namespace pitlink::sas {
namespace {

using test::bytes;
using test::hex;

struct Table : StationHost, MeterSource {
    void setPlayEnabled(bool on) override { enabled = on; }
    bool setClock(const SasDateTime& t) override {
        clockSet = t;
        return t.year >= 2026;
    }
    SasDateTime clock() const override { return SasDateTime{2026, 11, 22, 9, 30, 5}; }
    std::optional<HandpayInfo> pendingHandpay() const override { return handpay; }
    HandpayResetResult remoteHandpayReset() override {
        if (!handpay) {
            return HandpayResetResult::NotInHandpay;
        }
        handpay.reset();
        return HandpayResetResult::Reset;
    }
    std::optional<std::uint64_t> meter(std::uint16_t code) const override {
        return code == meter::kCurrentCredits ? std::optional<std::uint64_t>(2500) : std::nullopt;
    }
    std::optional<bool> enabled;
    std::optional<SasDateTime> clockSet;
    std::optional<HandpayInfo> handpay;
};

struct Wire : LinkOutput {
    void send(std::span<const std::uint8_t> data) override { sent.push_back(hex(data)); }
    void chirp(std::uint8_t) override {}
    std::deque<std::string> sent;
};

struct Host {
    Host() : station(1, MachineInfo{}, table, table, queue), link(1, station, wire, 0) { poll("80"); }
    // Sends a poll (a CRC is added when `withCrc`) and returns the answer, or "(nothing)".
    std::string poll(const std::string& frameHex, bool withCrc = false) {
        std::vector<std::uint8_t> frame = bytes(frameHex);
        if (withCrc) {
            appendCrc(frame);
        }
        now += 40;
        bool first = true;
        for (const std::uint8_t b : frame) {
            if (auto p = framer.push(WireByte{b, first})) {
                link.onPoll(*p, now);
            }
            first = false;
        }
        if (wire.sent.empty()) {
            return "(nothing)";
        }
        std::string answer = wire.sent.front();
        wire.sent.pop_front();
        return answer;
    }
    Table table;
    ExceptionQueue queue;
    SasStation station;
    Wire wire;
    PollFramer framer;
    StationLink link;
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
    EXPECT_EQ(h.poll("01 48"), "(nothing)");  // not supported yet: silent
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
    EXPECT_EQ(h.poll("81"), event);  // implied NACK: the same frame again
    EXPECT_EQ(h.poll("01 0E 00", true), "01");  // ACK of the event; RTE off
    EXPECT_EQ(h.poll("81"), "00");
    EXPECT_EQ(h.station.stats().exceptionsAcknowledged, 2U);
    EXPECT_EQ(h.queue.size(), 0U);
}

TEST(SasStation, HandpayInformationAndRemoteReset) {
    Host h;
    EXPECT_EQ(h.poll("01 94", true).substr(0, 8), "01 94 02");  // not in a hand-pay
    h.table.handpay = HandpayInfo{0, 0, 800'000, 0, 0};
    const std::string info = h.poll("01 1B");
    EXPECT_EQ(info.substr(0, 53), "01 1B 00 00 00 00 80 00 00 00 00 00 00 00 00 00 00 00");
    EXPECT_EQ(bytes(info).size(), 2 + 2 + 5 + 2 + 1 + 10 + 2U);
    EXPECT_TRUE(crcMatches(bytes(info)));
    EXPECT_EQ(h.poll("01 94", true).substr(0, 8), "01 94 00");  // reset
    EXPECT_FALSE(h.table.handpay.has_value());
}

}  // namespace
}  // namespace pitlink::sas
