#pragma once
// Turns what a station's port delivers into wire bytes (byte + wakeup bit), for the three ways a
// SAS line can reach pitlink (docs/sas.md "Line and wakeup bit"):
// - Serial: a UART with space parity and PARMRK: FF 00 b is a wakeup byte, FF FF a data FF.
// - Pty: no parity on a pty, so the peer writes the same escapes itself: decoded the same way.
// - Gap: the 9th bit is lost on the way (USB adapters, bridges): the first byte after an idle gap
//   is taken as the wakeup byte.
#include <cstdint>
#include <optional>
#include <string_view>

#include "protocols/sas/parmrk_decoder.h"
#include "protocols/sas/wire_byte.h"

namespace pitlink::sas {

enum class TransportMode : std::uint8_t { Serial, Pty, Gap };

[[nodiscard]] std::optional<TransportMode> parseTransportMode(std::string_view name);
[[nodiscard]] std::string_view transportModeName(TransportMode mode);

class WireDecoder {
public:
    explicit WireDecoder(TransportMode mode) : mode_(mode) {}
    // `afterGap`: the line was idle for at least the configured gap before this byte.
    std::optional<WireByte> push(std::uint8_t byte, bool afterGap);
    [[nodiscard]] std::uint64_t malformed() const { return parmrk_.malformed(); }

private:
    TransportMode mode_;
    ParmrkDecoder parmrk_;
};

}  // namespace pitlink::sas
