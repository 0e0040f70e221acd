#include "protocols/sas/station_stack.h"

#include <utility>

namespace pitlink::sas {

StationStack::StationStack(std::uint8_t address, MachineInfo info, const MeterSource& meters, StationHost& host,
                           TicketHost& tickets, LinkOutput& output, std::int64_t nowMs)
    : station_(address, std::move(info), meters, host, tickets, queue_), link_(address, station_, output, nowMs) {}

std::optional<Poll> StationStack::receive(WireByte byte, bool idleBefore, std::int64_t nowMs) {
    if (idleBefore) {
        framer_.gap();
    }
    std::optional<Poll> poll = framer_.push(byte);
    if (poll) {
        link_.onPoll(*poll, nowMs);
    }
    return poll;
}

}  // namespace pitlink::sas
