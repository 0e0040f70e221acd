#pragma once
// A station's SAS line in the simulation, as the accounting host sees it (docs/sas.md): the
// host writes polls into the station's port byte by byte (the first with the wakeup bit) and
// reads what the station answers here. CRC-16/KERMIT and BCD are the simulation's own.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "protocols/sas/station_link.h"

namespace pitlink::sim {

// CRC-16/KERMIT: polynomial 0x1021 reflected (0x8408), initial 0, no final XOR.
inline std::uint16_t kermit(std::span<const std::uint8_t> bytes) {
    std::uint16_t crc = 0;
    for (const std::uint8_t b : bytes) {
        crc ^= b;
        for (int i = 0; i < 8; ++i) {
            crc = (crc & 1U) != 0 ? static_cast<std::uint16_t>((crc >> 1U) ^ 0x8408U)
                                  : static_cast<std::uint16_t>(crc >> 1U);
        }
    }
    return crc;
}

inline std::vector<std::uint8_t> withCrc(std::vector<std::uint8_t> frame) {
    const std::uint16_t crc = kermit(frame);
    frame.push_back(static_cast<std::uint8_t>(crc & 0xFFU));
    frame.push_back(static_cast<std::uint8_t>(crc >> 8U));
    return frame;
}

// An answer ends with its CRC, low byte first, over everything before it.
inline bool crcHolds(const std::vector<std::uint8_t>& answer) {
    if (answer.size() < 3) {
        return false;
    }
    const std::uint16_t crc = kermit(std::span(answer.data(), answer.size() - 2));
    return answer[answer.size() - 2] == (crc & 0xFFU) && answer.back() == (crc >> 8U);
}

// BCD, most significant byte first.
inline std::int64_t fromBcd(std::span<const std::uint8_t> bytes) {
    std::int64_t n = 0;
    for (const std::uint8_t b : bytes) {
        n = n * 100 + std::int64_t{b >> 4U} * 10 + (b & 0x0FU);
    }
    return n;
}

// Packed BCD of `value` in `bytes` bytes, most significant first.
inline std::vector<std::uint8_t> toBcd(std::uint64_t value, std::size_t bytes) {
    std::vector<std::uint8_t> out(bytes);
    for (std::size_t i = bytes; i-- > 0;) {
        const auto low = static_cast<std::uint8_t>(value % 10);
        value /= 10;
        out[i] = static_cast<std::uint8_t>((value % 10) << 4U | low);
        value /= 10;
    }
    return out;
}

// BCD bytes as their digits ("0123..."): validation numbers keep their leading zeros.
inline std::string bcdDigits(std::span<const std::uint8_t> bytes) {
    std::string out;
    for (const std::uint8_t b : bytes) {
        out.push_back(static_cast<char>('0' + (b >> 4U)));
        out.push_back(static_cast<char>('0' + (b & 0x0FU)));
    }
    return out;
}

struct SimSasLine final : sas::LinkOutput {
    void send(std::span<const std::uint8_t> bytes) override { answer.insert(answer.end(), bytes.begin(), bytes.end()); }
    void chirp(std::uint8_t) override { ++chirps; }
    std::vector<std::uint8_t> answer;  // what the station wrote since the host last looked
    std::uint64_t chirps = 0;
};

}  // namespace pitlink::sim
