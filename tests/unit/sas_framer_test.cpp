// The poll framer on the captured host traffic and on broken input.
#include <gtest/gtest.h>

#include "protocols/sas/poll_framer.h"
#include "tests/support/fixture_csv.h"
#include "tests/support/hex.h"

namespace pitlink::sas {
namespace {

using test::bytes;
using test::hex;

// Feeds a poll as the line carries it: the first byte with the wakeup bit.
std::vector<Poll> feed(PollFramer& framer, const std::string& frameHex) {
    std::vector<Poll> polls;
    bool first = true;
    for (const std::uint8_t b : bytes(frameHex)) {
        if (auto poll = framer.push(WireByte{b, first})) {
            polls.push_back(*poll);
        }
        first = false;
    }
    return polls;
}

TEST(SasFramer, EveryCapturedHostPollIsFramedWhole) {
    PollFramer framer;
    int polls = 0;
    for (const auto& cells : test::fixtureCsv("sas/capture_ncompass_aristocrat_addr1.csv")) {
        const std::string line = cells.at(0) + ": " + cells.at(3);
        if (cells.at(2) != "host_to_egm") {
            continue;
        }
        const std::vector<Poll> got = feed(framer, cells.at(3));
        ASSERT_EQ(got.size(), 1U) << line;
        const Poll& poll = got[0];
        EXPECT_EQ(hex(poll.bytes), cells.at(3)) << line;
        if (cells.at(4) == "GP") {
            EXPECT_EQ(poll.kind, PollKind::General);
            EXPECT_EQ(poll.address, bytes(cells.at(3))[0] & 0x7F);
        } else {
            EXPECT_EQ(poll.kind, PollKind::Long) << line;
            EXPECT_EQ(poll.address, 1);
            EXPECT_EQ(poll.command, std::stoul(cells.at(4), nullptr, 16));
        }
        ++polls;
    }
    EXPECT_GE(polls, 25);
    EXPECT_EQ(framer.stats().truncated, 0U);
    EXPECT_EQ(framer.stats().badCrc, 0U);
}

TEST(SasFramer, VariableLengthPollsUseTheirLengthByte) {
    PollFramer framer;
    const auto polls = feed(framer, "01 AF 04 00 00 0C 00 2E A6");  // LP AF, 4 bytes after the length
    ASSERT_EQ(polls.size(), 1U);
    EXPECT_EQ(hex(polls[0].data()), "00 00 0C 00");
    const auto redeem = feed(framer, "01 71 01 FF 1F D0");  // LP 71 transfer code FF
    ASSERT_EQ(redeem.size(), 1U);
    EXPECT_EQ(redeem[0].kind, PollKind::Long);
    EXPECT_EQ(hex(redeem[0].data()), "FF");
}

TEST(SasFramer, BadCrcUnknownCommandsStrayBytesAndCutPollsAreCounted) {
    PollFramer framer;
    auto polls = feed(framer, "01 02 CA 3B");  // LP 02 with its CRC's last byte wrong
    ASSERT_EQ(polls.size(), 1U);
    EXPECT_EQ(polls[0].kind, PollKind::BadCrc);
    polls = feed(framer, "01 FE 12 34 56");  // no such command: skipped to the next wakeup byte
    ASSERT_EQ(polls.size(), 1U);
    EXPECT_EQ(polls[0].kind, PollKind::UnknownCommand);
    EXPECT_EQ(feed(framer, "81")[0].kind, PollKind::General);  // the framer is back in step
    framer.push(WireByte{0x33, false});                        // outside any poll
    EXPECT_EQ(framer.stats().strayBytes, 1U);
    // A poll cut by the next wakeup byte: dropped, and the new one framed.
    EXPECT_TRUE(feed(framer, "01 7F 11 27").empty());
    polls = feed(framer, "01 1A");
    ASSERT_EQ(polls.size(), 1U);
    EXPECT_EQ(polls[0].command, 0x1A);
    EXPECT_EQ(framer.stats().truncated, 1U);
    // ...or by an idle gap.
    EXPECT_TRUE(feed(framer, "01 7F 11").empty());
    framer.gap();
    EXPECT_EQ(framer.stats().truncated, 2U);
    EXPECT_EQ(framer.stats().badCrc, 1U);
    EXPECT_EQ(framer.stats().unknownCommands, 1U);
}

}  // namespace
}  // namespace pitlink::sas
