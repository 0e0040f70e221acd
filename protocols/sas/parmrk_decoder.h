#pragma once
// The byte stream a Linux tty gives with space parity and PARMRK (docs/sas.md): a byte
// received with the 9th bit set (a parity "error" under space parity) arrives as FF 00 b, a
// data byte FF as FF FF. The serial transport reads a real UART this way; the pty transport
// and the test host write the same escapes, so the decoding is byte-for-byte the same.
#include <cstdint>
#include <optional>
#include <vector>

#include "protocols/sas/wire_byte.h"

namespace pitlink::sas {

class ParmrkDecoder {
public:
    // The wire byte this input byte completes, if any.
    std::optional<WireByte> push(std::uint8_t byte);
    [[nodiscard]] std::uint64_t malformed() const { return malformed_; }  // FF followed by neither 00 nor FF

private:
    enum class State : std::uint8_t { Data, Escape, Marked };
    State state_ = State::Data;
    std::uint64_t malformed_ = 0;
};

// The escapes a host writes: FF 00 b for a wakeup byte, FF FF for data FF.
void appendEscaped(std::vector<std::uint8_t>& out, WireByte byte);

}  // namespace pitlink::sas
