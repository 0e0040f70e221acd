#include "protocols/sas/bcd.h"

namespace pitlink::sas {

std::vector<std::uint8_t> toBcd(std::uint64_t value, std::size_t bytes) {
    std::vector<std::uint8_t> out(bytes, 0);
    for (std::size_t i = bytes; i-- > 0;) {
        const auto low = static_cast<std::uint8_t>(value % 10);
        value /= 10;
        const auto high = static_cast<std::uint8_t>(value % 10);
        value /= 10;
        out[i] = static_cast<std::uint8_t>((high << 4U) | low);
    }
    return out;
}

void appendBcd(std::vector<std::uint8_t>& out, std::uint64_t value, std::size_t bytes) {
    const std::vector<std::uint8_t> bcd = toBcd(value, bytes);
    out.insert(out.end(), bcd.begin(), bcd.end());
}

std::optional<std::uint64_t> fromBcd(std::span<const std::uint8_t> bytes) {
    std::uint64_t value = 0;
    int digits = 0;
    for (const std::uint8_t b : bytes) {
        for (const unsigned nibble : {static_cast<unsigned>(b >> 4U), static_cast<unsigned>(b & 0x0FU)}) {
            if (nibble > 9) {
                return std::nullopt;
            }
            if (value != 0 || nibble != 0) {
                if (++digits > 19) {
                    return std::nullopt;
                }
            }
            value = value * 10 + nibble;
        }
    }
    return value;
}

}  // namespace pitlink::sas
