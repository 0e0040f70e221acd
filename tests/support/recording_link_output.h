#pragma once
// A SAS link's output for tests and fuzzers: every answer kept in hex (to read in order) and as
// the last bytes sent, and every chirp's address.
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <vector>

#include "protocols/sas/station_link.h"
#include "tests/support/hex.h"

namespace pitlink::test {

struct RecordingLinkOutput final : sas::LinkOutput {
    void send(std::span<const std::uint8_t> data) override {
        if (keepHex) {
            sent.push_back(hex(data));
        }
        last.assign(data.begin(), data.end());
        ++sends;
    }
    void chirp(std::uint8_t address) override { chirps.push_back(address); }

    // The oldest answer not yet taken, or "(nothing)".
    std::string take() {
        if (sent.empty()) {
            return "(nothing)";
        }
        std::string s = sent.front();
        sent.pop_front();
        return s;
    }

    bool keepHex = true;  // fuzzers turn it off: they look at `last` only
    std::deque<std::string> sent;
    std::vector<std::uint8_t> last;
    int sends = 0;
    std::vector<std::uint8_t> chirps;
};

}  // namespace pitlink::test
