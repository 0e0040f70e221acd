#include "protocols/sas/secure_enhanced_validation.h"

#include "protocols/sas/bcd.h"
#include "protocols/sas/crc16_kermit.h"

namespace pitlink::sas {

namespace {

// A 24-bit half as 8 BCD digits; the sum of its digits mod 5 goes into the three free top bits
// of the first byte (its first digit is at most 1).
void appendHalf(std::array<std::uint8_t, 9>& out, std::size_t at, std::uint32_t half) {
    const std::vector<std::uint8_t> bcd = toBcd(half, 4);
    unsigned digitSum = 0;
    for (const std::uint8_t b : bcd) {
        digitSum += (b >> 4U) + (b & 0x0FU);
    }
    for (std::size_t i = 0; i < 4; ++i) {
        out[at + i] = bcd[i];
    }
    out[at] = static_cast<std::uint8_t>(out[at] | ((digitSum % 5U) << 5U));
}

}  // namespace

std::array<std::uint8_t, 9> secureEnhancedValidation(std::uint32_t machineId, std::uint32_t sequence) {
    // A: sequence then ID, 3 bytes each, least significant first.
    std::array<std::uint8_t, 6> a{};
    for (unsigned i = 0; i < 3; ++i) {
        a[i] = static_cast<std::uint8_t>(sequence >> (8U * i));
        a[3 + i] = static_cast<std::uint8_t>(machineId >> (8U * i));
    }
    const std::array<std::uint8_t, 6> b = {a[0],
                                           a[1],
                                           static_cast<std::uint8_t>(a[0] ^ a[2]),
                                           static_cast<std::uint8_t>(a[1] ^ a[3]),
                                           static_cast<std::uint8_t>(a[0] ^ a[4]),
                                           static_cast<std::uint8_t>(a[1] ^ a[5])};
    // C: the CRC of each pair of B, read as one 48-bit little-endian number split into halves.
    std::uint64_t c = 0;
    for (unsigned pair = 0; pair < 3; ++pair) {
        const std::uint16_t crc = crc16Kermit(std::span<const std::uint8_t>(b).subspan(std::size_t{2} * pair, 2));
        c |= static_cast<std::uint64_t>(crc) << (16U * pair);
    }
    std::array<std::uint8_t, 9> out{};  // out[0]: system ID 00
    appendHalf(out, 1, static_cast<std::uint32_t>(c >> 24U));
    appendHalf(out, 5, static_cast<std::uint32_t>(c & 0xFFFFFFU));
    return out;
}

std::string secureEnhancedValidationNumber(std::uint32_t machineId, std::uint32_t sequence) {
    std::string digits;
    for (const std::uint8_t byte : secureEnhancedValidation(machineId, sequence)) {
        digits += static_cast<char>('0' + (byte >> 4U));
        digits += static_cast<char>('0' + (byte & 0x0FU));
    }
    return digits;
}

}  // namespace pitlink::sas
