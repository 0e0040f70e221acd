#pragma once
// A byte of the SAS line with its 9th (wakeup) bit. The host sets the bit on the first byte of
// every poll only; the EGM never sets it, except when it chirps its own address (loop break).
// Transports turn the line into these (serial: PARMRK escapes; pty: the same escaped stream;
// gap mode: the first byte after an idle gap).
#include <cstdint>

namespace pitlink::sas {

struct WireByte {
    std::uint8_t value = 0;
    bool wakeup = false;
    bool operator==(const WireByte&) const = default;
};

}  // namespace pitlink::sas
