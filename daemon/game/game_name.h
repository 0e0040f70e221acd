#pragma once
// A game of a controller (pitlink.yaml `games`; seed 000's multi-game station) is named by its
// configuration, the engine link's requests and the journal's records alike: one rule for all.
#include <cstddef>
#include <string_view>

namespace pitlink::game {

inline constexpr std::size_t kMaxGames = 8;             // on one controller
inline constexpr std::size_t kMaxGameName = 32;         // characters
inline constexpr std::size_t kMostGamesPerStation = 4;  // seed 000: "up to four games"

// 1 to kMaxGameName characters of a-z, 0-9, '-' and '_'.
[[nodiscard]] constexpr bool isGameName(std::string_view name) {
    return !name.empty() && name.size() <= kMaxGameName &&
           name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") == std::string_view::npos;
}

}  // namespace pitlink::game
