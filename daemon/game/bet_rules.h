#pragma once
// The bet rules of docs/rules.md ("Bet rules"): each refusal names the rule that refused.

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "daemon/game/bet_limits.h"
#include "daemon/game/paytable.h"
#include "daemon/game/settlement.h"

namespace pitlink::game {

struct BetRulesConfig {
    TableLimits limits;                  // min/max per spot and level, minor units
    Money maxPayout = 10'000'000;        // per spot: stake x highest ratio of the spot
    bool tieNeedsMainBet = false;        // seed 002 (égalité only with P or B)
    bool forbidPlayerAndBanker = true;   // seed 003
    int bigSmallLastRound = 31;          // seed 004: Big/Small refused after this round of a shoe
    bool luckyNinesNeedsMainBet = true;  // seed 001
    bool antiDoubling = false;           // seed 002
    bool operator==(const BetRulesConfig&) const = default;
};

enum class BetRule : std::uint8_t {
    BettingClosed,
    NotOffered,
    NotPositive,
    NotWholeCredits,
    BelowMinimum,
    AboveMaximum,
    AbovePayoutLimit,
    InsufficientCredits,
    TieWithoutMainBet,
    PlayerAndBanker,
    BigSmallTooLate,
    LuckyNinesWithoutMainBet,
    AntiDoubling,
    // Game protection (side_bet_guard.h): a side bet closed for the round under its `close` rule,
    // or waiting for the edge of the round's shoe.
    SideBetClosed,
    SideBetEdgePending,
};

[[nodiscard]] std::string_view betRuleName(BetRule rule);  // "insufficient_credits", ...

struct BetRefusal {
    BetRule rule;
    BetType spot;
    std::string message;
};

// Consecutive lost even-money (Player/Banker) bets of a station, for the anti-doubling rule.
struct LosingStreak {
    int losses = 0;
    Money lastStake = 0;  // the last losing even-money stake

    // Records the station's even-money stake of a settled round (0 when it had none).
    void record(Money evenMoneyStake, BetResult result);
};

// What a station proposes for a round: a stake per spot (0 = no bet).
struct BetSlip {
    std::array<Money, kBetTypes> stakes{};

    Money& operator[](BetType t) { return stakes[static_cast<std::size_t>(t)]; }
    Money operator[](BetType t) const { return stakes[static_cast<std::size_t>(t)]; }
    [[nodiscard]] Money total() const;
    [[nodiscard]] bool has(BetType t) const { return (*this)[t] > 0; }
};

struct StationBetContext {
    bool bettingOpen = true;  // "BETS PLEASE" / "LAST BETS"
    int roundInShoe = 1;      // 1-based number of the round within its shoe
    Money credits = 0;        // station balance in minor units, before this slip
    Money denomination = 1;   // minor units per credit
    LosingStreak streak;
    int level = 1;            // the limit level the station plays at (1-based)
    PersonalLimits personal;  // its player's own limits
};

// The most `stake` on `spot` can win: stake times the spot's highest ratio, rounded down
// (saturated at the largest Money).
[[nodiscard]] Money mostWon(const Paytable& table, BetType spot, Money stake);

// Checks a whole slip as it would stand after a change (place, undo, repeat, double).
// nullopt: every rule passes.
[[nodiscard]] std::optional<BetRefusal> checkSlip(const BetSlip& slip, const StationBetContext& context,
                                                  const Paytable& table, const BetRulesConfig& rules);

}  // namespace pitlink::game
