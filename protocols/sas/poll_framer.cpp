#include "protocols/sas/poll_framer.h"

#include "protocols/sas/crc16_kermit.h"
#include "protocols/sas/long_poll_table.h"

namespace pitlink::sas {

std::vector<std::uint8_t> Poll::data() const {
    const auto shape = requestShape(command);
    const std::size_t begin = shape && shape->lengthByte ? 3 : 2;
    const std::size_t end = bytes.size() >= 4 ? bytes.size() - 2 : bytes.size();
    if (begin >= end) {
        return {};
    }
    return {bytes.begin() + static_cast<std::ptrdiff_t>(begin), bytes.begin() + static_cast<std::ptrdiff_t>(end)};
}

void PollFramer::gap() {
    if (inPoll()) {
        ++stats_.truncated;
    }
    state_ = State::Idle;
    bytes_.clear();
}

std::optional<Poll> PollFramer::finish(PollKind kind) {
    Poll poll;
    poll.kind = kind;
    poll.address = bytes_[0];
    poll.command = bytes_.size() > 1 ? bytes_[1] : 0;
    poll.bytes = std::move(bytes_);
    bytes_.clear();
    state_ = kind == PollKind::UnknownCommand ? State::Skip : State::Idle;
    switch (kind) {
        case PollKind::General:
        case PollKind::Long:
            ++stats_.polls;
            break;
        case PollKind::BadCrc:
            ++stats_.badCrc;
            break;
        case PollKind::UnknownCommand:
            ++stats_.unknownCommands;
            break;
    }
    return poll;
}

std::optional<Poll> PollFramer::push(WireByte byte) {
    if (byte.wakeup) {
        if (inPoll()) {
            ++stats_.truncated;
        }
        bytes_.assign(1, byte.value);
        if ((byte.value & 0x80U) != 0) {
            bytes_[0] = static_cast<std::uint8_t>(byte.value & 0x7FU);
            Poll poll = *finish(PollKind::General);
            poll.bytes.assign(1, byte.value);
            return poll;
        }
        state_ = State::Command;
        return std::nullopt;
    }
    switch (state_) {
        case State::Idle:
            ++stats_.strayBytes;
            return std::nullopt;
        case State::Skip:
            return std::nullopt;  // the rest of a poll this station cannot frame
        case State::Command: {
            bytes_.push_back(byte.value);
            const auto shape = requestShape(byte.value);
            if (!shape) {
                return finish(PollKind::UnknownCommand);
            }
            expected_ = shape->fixedLength;
            lengthByte_ = shape->lengthByte;
            if (expected_ <= 2 && !lengthByte_) {
                return finish(PollKind::Long);  // type R: address and command only
            }
            state_ = State::Body;
            return std::nullopt;
        }
        case State::Body:
            bytes_.push_back(byte.value);
            if (lengthByte_ && bytes_.size() == 3) {
                expected_ += byte.value;
            }
            if (bytes_.size() < expected_) {
                return std::nullopt;
            }
            return finish(crcMatches(bytes_) ? PollKind::Long : PollKind::BadCrc);
    }
    return std::nullopt;
}

}  // namespace pitlink::sas
