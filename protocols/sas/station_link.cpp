#include "protocols/sas/station_link.h"

namespace pitlink::sas {

namespace {

// What tells a repeat: a general poll's byte, or a long poll's address and command.
std::vector<std::uint8_t> headOf(const Poll& poll) {
    const std::size_t n = poll.kind == PollKind::General ? 1 : 2;
    return {poll.bytes.begin(), poll.bytes.begin() + static_cast<std::ptrdiff_t>(std::min(n, poll.bytes.size()))};
}

// The AFT polls: a repeat is a new question, not an implied NACK (protocols/sas/README.md "Link rules").
bool answeredAfresh(const Poll& poll) {
    return poll.kind == PollKind::Long && (poll.command == 0x72 || poll.command == 0x73 || poll.command == 0x74);
}

}  // namespace

StationLink::StationLink(std::uint8_t address, StationProtocol& protocol, LinkOutput& output, std::int64_t nowMs)
    : address_(address), protocol_(protocol), output_(output), lastPollMs_(nowMs), lastAckMs_(nowMs) {}

void StationLink::acknowledgePending(std::int64_t nowMs) {
    if (pending_) {
        pending_.reset();
        lastAckMs_ = nowMs;
        protocol_.acknowledged();
    }
}

void StationLink::linkDown(std::int64_t nowMs) {
    if (sync_ != LinkSync::AwaitOtherAddress) {
        ++stats_.linkDowns;
    }
    sync_ = LinkSync::AwaitOtherAddress;
    pending_.reset();  // not acknowledged: an exception stays queued and is reported again
    lastAckMs_ = nowMs;
}

void StationLink::answer(const Poll& poll, std::vector<std::uint8_t> bytes) {
    output_.send(bytes);
    ++stats_.answers;
    pending_ = Pending{headOf(poll), std::move(bytes), 0};
}

void StationLink::onPoll(const Poll& poll, std::int64_t nowMs) {
    if (poll.kind == PollKind::BadCrc) {
        if (poll.address == address_) {
            ++stats_.badCrc;
        }
        return;  // not a poll the host meant: changes nothing
    }
    lastPollMs_ = nowMs;
    chirping_ = false;
    if (poll.address == 0 || poll.address != address_) {
        acknowledgePending(nowMs);
        if (sync_ == LinkSync::AwaitOtherAddress) {
            sync_ = LinkSync::AwaitFirstPoll;
        }
        return;
    }
    ++stats_.pollsToUs;
    if (sync_ == LinkSync::AwaitOtherAddress) {
        ++stats_.ignoredUnsynced;
        return;
    }
    if (sync_ == LinkSync::AwaitFirstPoll) {
        sync_ = LinkSync::Synchronized;
        lastAckMs_ = nowMs;
    }
    if (pending_) {
        if (pending_->head != headOf(poll)) {
            acknowledgePending(nowMs);
        } else if (answeredAfresh(poll)) {
            // LP 72, 73, 74 (AFT): the same command again is not acknowledged but answered anew
            // (an interrogation repeated until its status leaves 40 gets the current status; a
            // transfer repeated after a lost answer is known by its transaction ID).
            ++stats_.answeredAfresh;
            pending_.reset();
        } else {
            // Implied NACK: the host did not get the answer; the same bytes again.
            if (pending_->resends < kMaxResends) {
                ++pending_->resends;
                ++stats_.resends;
                output_.send(pending_->answer);
            }
            return;
        }
    }
    if (poll.kind == PollKind::General) {
        answer(poll, protocol_.generalPoll());
        return;
    }
    if (poll.kind == PollKind::Long) {
        if (auto bytes = protocol_.longPoll(poll)) {
            answer(poll, std::move(*bytes));
            return;
        }
    }
    ++stats_.unsupported;
}

void StationLink::tick(std::int64_t nowMs) {
    if (nowMs - lastPollMs_ >= kLoopBreakMs) {
        if (!chirping_) {
            linkDown(nowMs);
            chirping_ = true;
            lastChirpMs_ = nowMs - kChirpEveryMs;
        }
        if (nowMs - lastChirpMs_ >= kChirpEveryMs) {
            output_.chirp(address_);
            ++stats_.chirps;
            lastChirpMs_ = nowMs;
        }
        return;
    }
    if (sync_ == LinkSync::Synchronized && nowMs - lastAckMs_ >= kNoAckDownMs) {
        linkDown(nowMs);
    }
}

}  // namespace pitlink::sas
