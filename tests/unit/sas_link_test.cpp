// The station's SAS link layer and its exception queue, speaking hex on a manual clock.
#include <gtest/gtest.h>

#include <deque>

#include "protocols/sas/exception_queue.h"
#include "protocols/sas/station_link.h"
#include "tests/support/hex.h"
#include "tests/support/recording_link_output.h"

namespace pitlink::sas {
namespace {

using test::bytes;
using test::hex;

TEST(SasExceptionQueue, PriorityFirstThenFifoAndAnExceptionLeavesOnlyWhenAcknowledged) {
    ExceptionQueue q;
    q.raise(0x11);                  // door open (FIFO)
    q.raise(0x7E, bytes("00 01"));  // game started (FIFO)
    q.raise(0x51);                  // hand-pay pending (priority)
    q.raise(0x57);                  // system validation request (priority, ranked first)
    ASSERT_TRUE(q.next());
    EXPECT_EQ(q.next()->code, 0x57);
    const SasException first = *q.next();
    EXPECT_EQ(q.next()->code, 0x57);  // not acknowledged: reported again
    EXPECT_TRUE(q.acknowledge(first));
    EXPECT_FALSE(q.acknowledge(first));  // only once
    EXPECT_EQ(q.next()->code, 0x51);
    q.acknowledge(*q.next());
    EXPECT_EQ(q.next()->code, 0x11);
    q.acknowledge(*q.next());
    EXPECT_EQ(hex(q.next()->eventData), "00 01");
    q.acknowledge(*q.next());
    EXPECT_FALSE(q.next().has_value());
}

TEST(SasExceptionQueue, OverflowDropsTheOldestAndRaises70) {
    ExceptionQueue q(20);
    for (int i = 0; i < 25; ++i) {
        q.raise(i % 2 == 0 ? 0x7E : 0x7F);
    }
    EXPECT_EQ(q.overflows(), 5U);
    EXPECT_EQ(q.next()->code, kBufferOverflow);
    q.acknowledge(*q.next());
    EXPECT_EQ(q.size(), 20U);
    EXPECT_EQ(q.next()->serial, 6U);  // the five oldest are gone
    // What survives a restart comes back in the same order, serials kept.
    ExceptionQueue restored(20);
    restored.restore(q.pending());
    EXPECT_EQ(restored.pending(), q.pending());
    EXPECT_GT(restored.raise(0x11).serial, q.pending().back().serial);
}

// A station whose answers the test scripts; a transport that records what was sent.
struct ScriptedStation : StationProtocol {
    std::vector<std::uint8_t> generalPoll() override {
        reported = queue.next();
        return {reported ? reported->code : std::uint8_t{0x00}};
    }
    std::optional<std::vector<std::uint8_t>> longPoll(const Poll& poll) override {
        ++longPolls;
        if (poll.command == 0x1A) {
            return bytes("01 1A 00 01 66 60 9C F4");
        }
        if (poll.command == 0x72 || poll.command == 0x74) {  // an answer that tells each computation
            return std::vector<std::uint8_t>{0x01, poll.command, static_cast<std::uint8_t>(longPolls)};
        }
        return std::nullopt;
    }
    void acknowledged() override {
        ++acks;
        if (reported) {
            queue.acknowledge(*reported);
            reported.reset();
        }
    }
    ExceptionQueue queue;
    std::optional<SasException> reported;  // the exception of the last general poll answer
    int acks = 0;
    int longPolls = 0;
};

using RecordingOutput = test::RecordingLinkOutput;

struct LinkFixture {
    LinkFixture() : link(1, station, out, 0) {}
    void host(const std::string& poll, std::int64_t atMs) {
        bool first = true;
        for (const std::uint8_t b : bytes(poll)) {
            if (auto p = framer.push(WireByte{b, first})) {
                link.onPoll(*p, atMs);
            }
            first = false;
        }
    }
    ScriptedStation station;
    RecordingOutput out;
    PollFramer framer;
    StationLink link;
};

TEST(SasStationLink, IgnoresItsPollsUntilTheHostHasPolledAnotherAddress) {
    LinkFixture f;
    f.host("81", 10);
    f.host("01 1A", 20);
    EXPECT_EQ(f.out.take(), "(nothing)");
    EXPECT_EQ(f.link.stats().ignoredUnsynced, 2U);
    f.host("80", 30);                      // the broadcast resync the capture shows
    EXPECT_EQ(f.out.take(), "(nothing)");  // a broadcast is never answered
    f.host("01 1A", 40);
    EXPECT_EQ(f.out.take(), "01 1A 00 01 66 60 9C F4");
    EXPECT_TRUE(f.link.up());
}

TEST(SasStationLink, ARepeatedPollIsAnsweredWithTheSameBytesAndADifferentOneAcknowledges) {
    LinkFixture f;
    f.host("8C", 0);
    f.station.queue.raise(0x11);
    f.station.queue.raise(0x12);
    f.host("81", 10);
    EXPECT_EQ(f.out.take(), "11");
    // The host missed it: the same general poll again is an implied NACK.
    f.station.queue.raise(0x57);  // a priority exception arriving meanwhile does not change the resend
    f.host("81", 20);
    EXPECT_EQ(f.out.take(), "11");
    EXPECT_EQ(f.station.acks, 0);
    // A long poll acknowledges the 11; its answer is then pending in turn.
    f.host("01 1A", 30);
    EXPECT_EQ(f.out.take(), "01 1A 00 01 66 60 9C F4");
    EXPECT_EQ(f.station.acks, 1);
    f.host("01 1A", 40);  // repeated: resent
    EXPECT_EQ(f.out.take(), "01 1A 00 01 66 60 9C F4");
    EXPECT_EQ(f.station.longPolls, 1);  // not recomputed
    f.host("01 1A", 50);
    EXPECT_EQ(f.out.take(), "01 1A 00 01 66 60 9C F4");
    f.host("01 1A", 60);  // beyond the host's three tries: silence
    EXPECT_EQ(f.out.take(), "(nothing)");
    EXPECT_EQ(f.link.stats().resends, 3U);
    // A poll to another address acknowledges too; the priority exception comes next.
    f.host("82", 70);
    f.host("81", 80);
    EXPECT_EQ(f.out.take(), "57");
    f.host("81", 90);
    EXPECT_EQ(f.out.take(), "57");  // NACK: again
    f.host("83", 100);              // ACK
    f.host("81", 110);
    EXPECT_EQ(f.out.take(), "12");
}

TEST(SasStationLink, TheAftPollsRepeatedAreAnsweredAnewAndLeaveTheAnswerBeforeUnacknowledged) {
    LinkFixture f;
    f.host("8C", 0);
    f.host("01 72 02 FF 00 0F 22", 10);
    EXPECT_EQ(f.out.take(), "01 72 01");
    f.host("01 72 02 FF 00 0F 22", 20);  // a host repeating 72 FF until the status is final
    EXPECT_EQ(f.out.take(), "01 72 02");
    f.host("01 72 02 FF 00 0F 22", 30);
    EXPECT_EQ(f.out.take(), "01 72 03");
    EXPECT_EQ(f.station.acks, 0);  // a repeat acknowledges nothing
    EXPECT_EQ(f.link.stats().answeredAfresh, 2U);
    EXPECT_EQ(f.link.stats().resends, 0U);
    f.host("01 74 FF 00 00 00 1A F9", 40);  // another command: the last 72 answer is acknowledged
    EXPECT_EQ(f.out.take(), "01 74 04");
    EXPECT_EQ(f.station.acks, 1);
    f.host("01 74 FF 00 00 00 1A F9", 50);
    EXPECT_EQ(f.out.take(), "01 74 05");
    // Any other poll keeps the implied NACK: the same bytes again.
    f.host("01 1A", 60);
    f.host("01 1A", 70);
    EXPECT_EQ(f.out.take(), "01 1A 00 01 66 60 9C F4");
    EXPECT_EQ(f.out.take(), "01 1A 00 01 66 60 9C F4");
    EXPECT_EQ(f.station.longPolls, 6);
}

TEST(SasStationLink, BadCrcAndUnsupportedPollsAreNotAnswered) {
    LinkFixture f;
    f.host("80", 0);
    f.host("01 02 CA 3B", 10);  // LP 02, CRC wrong
    f.host("01 B2", 20);        // a poll this station does not support
    f.host("05 1A", 30);        // another station's
    EXPECT_EQ(f.out.take(), "(nothing)");
    EXPECT_EQ(f.link.stats().badCrc, 1U);
    EXPECT_EQ(f.link.stats().unsupported, 1U);
}

TEST(SasStationLink, LoopBreakChirpsEvery200MsAndTheLinkMustResync) {
    LinkFixture f;
    f.host("80", 0);
    f.host("81", 100);
    EXPECT_EQ(f.out.take(), "00");
    EXPECT_TRUE(f.link.up());
    f.link.tick(5'099);
    EXPECT_TRUE(f.out.chirps.empty());
    f.link.tick(5'100);
    EXPECT_FALSE(f.link.up());
    f.link.tick(5'200);  // 100 ms after the first chirp: not yet
    f.link.tick(5'300);
    f.link.tick(5'500);
    EXPECT_EQ(f.out.chirps, (std::vector<std::uint8_t>{1, 1, 1}));
    f.host("81", 5'400);  // polled again, but not yet after another address
    EXPECT_EQ(f.out.take(), "(nothing)");
    f.host("80", 5'500);
    f.host("81", 5'600);
    EXPECT_EQ(f.out.take(), "00");
    f.link.tick(5'900);
    EXPECT_EQ(f.out.chirps.size(), 3U);  // chirping stopped
}

TEST(SasStationLink, ThirtySecondsWithoutAnImpliedAckTakesTheLinkDown) {
    LinkFixture f;
    f.host("80", 0);
    f.host("81", 10);
    for (std::int64_t t = 1'000; t <= 31'000; t += 1'000) {
        f.host("81", t);  // the same poll forever: never an ACK
        f.link.tick(t);
    }
    EXPECT_FALSE(f.link.up());
    EXPECT_EQ(f.link.stats().linkDowns, 1U);
}

}  // namespace
}  // namespace pitlink::sas
