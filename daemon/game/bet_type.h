#pragma once
// The bet spots of the table, and the pay tiers of each (which payout of a bet's table applies).

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "daemon/game/outcome.h"

namespace pitlink::game {

enum class BetType : std::uint8_t {
    Player,
    Banker,
    Tie,
    PlayerPair,
    BankerPair,
    AnyPair,
    Big,
    Small,
    Gold7,
    Jade8,
    Ruby9,
    LuckyNines,
};
inline constexpr int kBetTypes = 12;
inline constexpr std::array<BetType, kBetTypes> kAllBetTypes{
    BetType::Player, BetType::Banker, BetType::Tie,   BetType::PlayerPair, BetType::BankerPair, BetType::AnyPair,
    BetType::Big,    BetType::Small,  BetType::Gold7, BetType::Jade8,      BetType::Ruby9,      BetType::LuckyNines,
};

// Paytable key of the bet: "player", "banker_pair", "gold_7", "lucky_nines", ...
[[nodiscard]] std::string_view betTypeName(BetType type);
[[nodiscard]] std::optional<BetType> parseBetType(std::string_view name);

// Player and Banker: the bets the anti-doubling rule and the main-bet requirements speak of.
[[nodiscard]] constexpr bool isMainBet(BetType type) {
    return type == BetType::Player || type == BetType::Banker;
}

// A pay tier: one line of a bet's paytable. Tier 0 is the bet's basic win; a bet's later tiers
// are either required lines (Ruby 9, Lucky Nines) or optional overrides of tier 0 (Banker).
struct PayTier {
    std::string_view name;
    bool optional;  // when absent from a paytable, tier 0 applies
};
inline constexpr int kMaxPayTiers = 7;
[[nodiscard]] std::span<const PayTier> payTiers(BetType type);

// What happened to a bet in a round, before money: lost, pushed by the rules, or won on a tier.
struct BetEvent {
    enum class Kind : std::uint8_t { Loss, Push, Win };
    Kind kind = Kind::Loss;
    std::uint8_t tier = 0;

    static constexpr BetEvent loss() { return {Kind::Loss, 0}; }
    static constexpr BetEvent push() { return {Kind::Push, 0}; }
    static constexpr BetEvent win(int tier = 0) { return {Kind::Win, static_cast<std::uint8_t>(tier)}; }
    friend bool operator==(BetEvent, BetEvent) = default;
};

[[nodiscard]] BetEvent classifyBet(BetType type, const Outcome& outcome);

}  // namespace pitlink::game
