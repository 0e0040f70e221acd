#pragma once
// A hex frame (without its CRC) framed as a SAS station reads it: the tests' own CRC appended,
// each byte through the real PollFramer (the first with the wakeup bit). For hex tests of a long
// poll's layout; a frame the framer does not take fails the test.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "protocols/sas/poll_framer.h"
#include "tests/support/hex.h"
#include "tests/support/test_crc.h"

namespace pitlink::test {

inline sas::Poll pollOf(const std::string& frame) {
    sas::PollFramer framer;
    std::optional<sas::Poll> poll;
    bool first = true;
    for (const std::uint8_t b : bytes(withCrc(frame))) {
        if (auto p = framer.push(sas::WireByte{b, first})) {
            poll = std::move(p);
        }
        first = false;
    }
    EXPECT_TRUE(poll.has_value()) << frame;
    return poll.value_or(sas::Poll{});
}

}  // namespace pitlink::test
