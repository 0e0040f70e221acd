#pragma once
// Game numbers in type M long polls (2 BCD bytes). A station plays games 1..N (the controller's
// games, in its configuration's order: protocols/sas/README.md "Games and denominations"); game 0
// is the whole machine. Any other number is a game this station does not have, and the poll is
// not answered.
#include <cstdint>
#include <optional>
#include <span>

#include "protocols/sas/bcd.h"

namespace pitlink::sas {

// The game number in `bcd` (its first 2 bytes) if it is 0..games.
[[nodiscard]] inline std::optional<std::uint16_t> stationGame(std::span<const std::uint8_t> bcd, std::uint16_t games) {
    if (bcd.size() < 2) {
        return std::nullopt;
    }
    const auto game = fromBcd(bcd.first(2));
    if (!game || *game > games) {
        return std::nullopt;
    }
    return static_cast<std::uint16_t>(*game);
}

}  // namespace pitlink::sas
