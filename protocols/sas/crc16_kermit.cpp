#include "protocols/sas/crc16_kermit.h"

#include <array>

namespace pitlink::sas {

namespace {

// The reflected polynomial's table, built at compile time: one lookup per byte.
constexpr std::array<std::uint16_t, 256> kTable = [] {
    std::array<std::uint16_t, 256> table{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t crc = i;
        for (int bit = 0; bit < 8; ++bit) {
            crc = (crc & 1U) != 0 ? (crc >> 1U) ^ 0x8408U : crc >> 1U;
        }
        table[i] = static_cast<std::uint16_t>(crc);
    }
    return table;
}();

}  // namespace

std::uint16_t crc16Kermit(std::span<const std::uint8_t> bytes, std::uint16_t crc) {
    for (const std::uint8_t b : bytes) {
        crc = static_cast<std::uint16_t>((crc >> 8U) ^ kTable[(crc ^ b) & 0xFFU]);
    }
    return crc;
}

void appendCrc(std::vector<std::uint8_t>& frame) {
    const std::uint16_t crc = crc16Kermit(frame);
    frame.push_back(static_cast<std::uint8_t>(crc & 0xFFU));
    frame.push_back(static_cast<std::uint8_t>(crc >> 8U));
}

bool crcMatches(std::span<const std::uint8_t> frame) {
    if (frame.size() < 3) {
        return false;
    }
    const std::uint16_t crc = crc16Kermit(frame.first(frame.size() - 2));
    return frame[frame.size() - 2] == (crc & 0xFFU) && frame[frame.size() - 1] == (crc >> 8U);
}

}  // namespace pitlink::sas
