#pragma once
// A whole SAS station at address 1 (framer, link, SasStation) on a table without ticketing, for
// hex tests that write a host's polls byte by byte (40 ms apart) and read what the station
// answered; a test plugs in the host its polls reach (AFT, legacy bonusing). Synchronised at
// once by a poll to another address.
#include <cstdint>
#include <string>

#include "protocols/sas/station_stack.h"
#include "tests/support/hex.h"
#include "tests/support/no_tickets_host.h"
#include "tests/support/recording_link_output.h"

namespace pitlink::test {

struct PolledStation {
    explicit PolledStation(sas::MachineInfo info = {}) : stack(1, std::move(info), table, table, table, wire, 0) {
        poll("80");
    }
    // The station's answer ("(nothing)" when it kept quiet).
    std::string poll(const std::string& frame) {
        now += 40;
        bool first = true;
        for (const std::uint8_t b : bytes(frame)) {
            stack.receive(sas::WireByte{b, first}, false, now);
            first = false;
        }
        return wire.take();
    }
    NoTicketsHost table;
    RecordingLinkOutput wire;
    sas::StationStack stack;
    std::int64_t now = 0;
};

}  // namespace pitlink::test
