#pragma once
// Game numbers in type M long polls (2 BCD bytes). A station is one game, number 1; game 0 is the
// whole machine and reports the same. Any other number is a game this station does not have, and
// the poll is not answered.
#include <cstdint>
#include <optional>
#include <span>

#include "protocols/sas/bcd.h"

namespace pitlink::sas {

// The game number in `bcd` (its first 2 bytes) if it is 0 or 1.
[[nodiscard]] inline std::optional<std::uint64_t> stationGame(std::span<const std::uint8_t> bcd) {
    if (bcd.size() < 2) {
        return std::nullopt;
    }
    const auto game = fromBcd(bcd.first(2));
    if (!game || *game > 1) {
        return std::nullopt;
    }
    return game;
}

}  // namespace pitlink::sas
