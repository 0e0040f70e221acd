#pragma once
// The SAS link layer of one player station (the EGM side): it owns timing and acknowledgement,
// and leaves what to answer to the station's protocol above it (frame, then parse, then decide).
//
// Rules (docs/sas.md; the behaviour of a production EGM, tejvirc/Platform's
// HostAcknowledgementProvider, which cites SAS 6.02 section 3.1):
// - Synchronisation: after start-up or a link down, polls to this address are ignored until a
//   poll to another address or to 0 has been seen; the first poll to this address after that
//   synchronises the link.
// - Implied ACK: every answer stays pending until the host's next poll. A poll to another
//   address, a broadcast, or a poll to this address with a different head (address and command;
//   a general poll's one byte) acknowledges it. The same head again is an implied NACK: the very
//   same bytes are sent again (not recomputed), at most kMaxResends times.
// - Loop break: no poll for 5 s -> link down; the station chirps its own address (with the
//   wakeup bit) every 200 ms until polled again. 30 s with no implied ACK -> link down.
// - A broadcast (address 0) is never answered; neither is a poll with a bad CRC or a command
//   this station does not support.
// No clock of its own: every call says what time it is (milliseconds, steady).
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "protocols/sas/poll_framer.h"

namespace pitlink::sas {

// What the station answers; called by the link on the logic thread.
class StationProtocol {
public:
    virtual ~StationProtocol() = default;
    // The answer to a general poll: one exception byte (00: none), or a real-time event frame.
    virtual std::vector<std::uint8_t> generalPoll() = 0;
    // The answer to a long poll, or nullopt to stay silent (unsupported, or nothing to say).
    virtual std::optional<std::vector<std::uint8_t>> longPoll(const Poll& poll) = 0;
    // The host took the last answer (implied ACK).
    virtual void acknowledged() = 0;
};

// Where the link's bytes go (a transport).
class LinkOutput {
public:
    virtual ~LinkOutput() = default;
    virtual void send(std::span<const std::uint8_t> bytes) = 0;
    virtual void chirp(std::uint8_t address) = 0;  // the address with the wakeup bit
};

enum class LinkSync : std::uint8_t { AwaitOtherAddress, AwaitFirstPoll, Synchronized };

struct LinkStats {
    std::uint64_t pollsToUs = 0;
    std::uint64_t answers = 0;
    std::uint64_t resends = 0;          // implied NACKs answered with the same bytes
    std::uint64_t answeredAfresh = 0;   // LP 72/73/74 repeated: answered anew, not resent
    std::uint64_t ignoredUnsynced = 0;  // polls to us before resynchronisation
    std::uint64_t badCrc = 0;
    std::uint64_t unsupported = 0;  // long polls not answered
    std::uint64_t chirps = 0;
    std::uint64_t linkDowns = 0;
};

class StationLink {
public:
    static constexpr std::int64_t kLoopBreakMs = 5'000;
    static constexpr std::int64_t kChirpEveryMs = 200;
    static constexpr std::int64_t kNoAckDownMs = 30'000;
    static constexpr int kMaxResends = 2;

    StationLink(std::uint8_t address, StationProtocol& protocol, LinkOutput& output, std::int64_t nowMs);

    // A poll from the framer (to any address).
    void onPoll(const Poll& poll, std::int64_t nowMs);
    // Timers: loop break, chirps, the no-ACK limit. Call at least every kChirpEveryMs.
    void tick(std::int64_t nowMs);

    [[nodiscard]] std::uint8_t address() const { return address_; }
    [[nodiscard]] bool up() const { return sync_ == LinkSync::Synchronized; }
    [[nodiscard]] LinkSync sync() const { return sync_; }
    [[nodiscard]] const LinkStats& stats() const { return stats_; }

private:
    struct Pending {
        std::vector<std::uint8_t> head;  // the poll's first byte(s) that tell a repeat
        std::vector<std::uint8_t> answer;
        int resends = 0;
    };
    void acknowledgePending(std::int64_t nowMs);
    void linkDown(std::int64_t nowMs);
    void answer(const Poll& poll, std::vector<std::uint8_t> bytes);

    std::uint8_t address_;
    StationProtocol& protocol_;
    LinkOutput& output_;
    LinkSync sync_ = LinkSync::AwaitOtherAddress;
    std::optional<Pending> pending_;
    std::int64_t lastPollMs_;  // any valid poll on the line
    std::int64_t lastAckMs_;
    std::int64_t lastChirpMs_ = 0;
    bool chirping_ = false;
    LinkStats stats_;
};

}  // namespace pitlink::sas
