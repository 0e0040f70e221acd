#pragma once
// The length of every host-to-EGM long poll this station can frame, so that a poll is known
// complete the moment its last byte arrives (the 20 ms reply deadline runs from there). From
// the receive table of a production EGM platform (tests/fixtures/sas/lp_request_lengths.csv) plus the
// polls seen in the captured host traffic (A0, AF, B0-B2, B5). A command not here cannot be
// framed: its bytes are skipped until the next wakeup byte, and it is not answered.
#include <cstdint>
#include <optional>

namespace pitlink::sas {

struct RequestShape {
    std::uint8_t fixedLength = 2;  // with the address and, beyond type R, the 2 CRC bytes
    bool lengthByte = false;       // byte[2] counts the bytes after it (without the CRC)
    // The whole request: fixedLength, plus byte[2] when lengthByte.
    [[nodiscard]] std::size_t total(std::uint8_t lengthField) const {
        return fixedLength + (lengthByte ? lengthField : 0U);
    }
};

[[nodiscard]] std::optional<RequestShape> requestShape(std::uint8_t command);

}  // namespace pitlink::sas
