#pragma once
// The tests' own CRC-16/KERMIT (reflected polynomial 0x1021, initial 0, sent low byte first),
// written from SAS's definition and not the production code's, so that a hex test checks a frame
// against an independent computation.
#include <cstdint>
#include <cstdio>
#include <string>

#include "tests/support/hex.h"

namespace pitlink::test {

// "01 72 02 FF 00" -> "01 72 02 FF 00 lo hi".
inline std::string withCrc(const std::string& frame) {
    std::uint16_t crc = 0;
    for (const std::uint8_t b : bytes(frame)) {
        crc ^= b;
        for (int i = 0; i < 8; ++i) {
            crc = (crc & 1U) != 0 ? static_cast<std::uint16_t>((crc >> 1U) ^ 0x8408U)
                                  : static_cast<std::uint16_t>(crc >> 1U);
        }
    }
    char tail[8];
    std::snprintf(tail, sizeof tail, " %02X %02X", crc & 0xFFU, crc >> 8U);
    return frame + tail;
}

}  // namespace pitlink::test
