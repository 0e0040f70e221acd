#pragma once
// One player station's SAS stack, assembled once for the daemon, the tests and the fuzzers, in
// the order a byte climbs it: framer (whole polls from wire bytes) -> link (address, timing,
// implied ACK/NACK, loop break) -> station protocol (answers from the meters, the table and the
// ticketing, and the exception queue). What is below (a transport) and what the station reaches
// (MeterSource, StationHost, TicketHost) are given; the stack owns the rest.
#include <cstdint>
#include <optional>

#include "protocols/sas/exception_queue.h"
#include "protocols/sas/poll_framer.h"
#include "protocols/sas/sas_station.h"
#include "protocols/sas/station_link.h"
#include "protocols/sas/wire_byte.h"

namespace pitlink::sas {

class StationStack {
public:
    StationStack(std::uint8_t address, MachineInfo info, const MeterSource& meters, StationHost& host,
                 TicketHost& tickets, LinkOutput& output, std::int64_t nowMs);
    StationStack(const StationStack&) = delete;
    StationStack& operator=(const StationStack&) = delete;

    // One wire byte; `idleBefore`: the line was quiet beyond the inter-byte limit before it (a poll
    // in progress is dropped). Returns the poll it completed, which the link has already handled.
    std::optional<Poll> receive(WireByte byte, bool idleBefore, std::int64_t nowMs);
    // The link's timers (loop break, chirps); at least every StationLink::kChirpEveryMs.
    void tick(std::int64_t nowMs) { link_.tick(nowMs); }

    [[nodiscard]] std::uint8_t address() const { return link_.address(); }
    [[nodiscard]] ExceptionQueue& exceptions() { return queue_; }
    [[nodiscard]] const ExceptionQueue& exceptions() const { return queue_; }
    [[nodiscard]] SasStation& station() { return station_; }
    [[nodiscard]] const SasStation& station() const { return station_; }
    [[nodiscard]] const StationLink& link() const { return link_; }
    [[nodiscard]] const FramerStats& framerStats() const { return framer_.stats(); }

private:
    ExceptionQueue queue_;
    SasStation station_;
    PollFramer framer_;
    StationLink link_;
};

}  // namespace pitlink::sas
