#pragma once
// The byte-driven framer of host polls (frame, then parse, then decide): bytes with their wakeup
// bit in, whole polls out. A wakeup byte always starts a new poll (a partial one before it is
// dropped and counted): 0x80|a is a general poll to address a; any other value is the address
// of a long poll, whose command byte gives its length (long_poll_table.h). Type R polls (address
// and command) have no CRC; longer ones end with CRC-16/KERMIT. Polls to every address are
// framed: the link layer needs to see the others to resynchronise.
#include <cstdint>
#include <optional>
#include <vector>

#include "protocols/sas/wire_byte.h"

namespace pitlink::sas {

enum class PollKind : std::uint8_t {
    General,         // one byte, 0x80|address
    Long,            // a whole long poll, CRC good (or type R)
    BadCrc,          // a whole long poll whose CRC does not match: not answered
    UnknownCommand,  // a long poll command this station cannot frame: skipped, not answered
};

struct Poll {
    PollKind kind = PollKind::General;
    std::uint8_t address = 0;         // 0..127; 0 is broadcast
    std::uint8_t command = 0;         // long polls
    std::vector<std::uint8_t> bytes;  // as received, address to CRC (a general poll: its one byte)
    // The data between the command (and its length byte, if its command has one) and the CRC.
    [[nodiscard]] std::vector<std::uint8_t> data() const;
};

struct FramerStats {
    std::uint64_t polls = 0;
    std::uint64_t badCrc = 0;
    std::uint64_t unknownCommands = 0;
    std::uint64_t truncated = 0;   // a poll cut short by the next wakeup byte or an idle gap
    std::uint64_t strayBytes = 0;  // bytes outside any poll
};

class PollFramer {
public:
    // A complete poll, or nothing yet.
    std::optional<Poll> push(WireByte byte);
    // The line went quiet longer than the inter-byte limit (5 ms): a partial poll is dropped.
    void gap();
    [[nodiscard]] bool inPoll() const { return state_ != State::Idle && state_ != State::Skip; }
    [[nodiscard]] const FramerStats& stats() const { return stats_; }

private:
    enum class State : std::uint8_t { Idle, Command, Body, Skip };
    std::optional<Poll> finish(PollKind kind);

    State state_ = State::Idle;
    std::vector<std::uint8_t> bytes_;
    std::size_t expected_ = 0;
    bool lengthByte_ = false;
    FramerStats stats_;
};

}  // namespace pitlink::sas
