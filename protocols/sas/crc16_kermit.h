#pragma once
// CRC-16/KERMIT, the check of every SAS frame: polynomial 0x1021 reflected (0x8408), initial
// value 0, no final XOR, over the address byte through the last data byte; sent low byte first.
// Check value: "123456789" -> 0x2189 (docs/sas.md "Framing"). Also the mixing step of secure enhanced
// validation numbers.
#include <cstdint>
#include <span>
#include <vector>

namespace pitlink::sas {

[[nodiscard]] std::uint16_t crc16Kermit(std::span<const std::uint8_t> bytes, std::uint16_t crc = 0);

// Appends the CRC of `frame` to it, low byte first.
void appendCrc(std::vector<std::uint8_t>& frame);

// True when the last two bytes of `frame` are the CRC of the bytes before them.
[[nodiscard]] bool crcMatches(std::span<const std::uint8_t> frame);

}  // namespace pitlink::sas
