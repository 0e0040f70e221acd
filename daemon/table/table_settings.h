#pragma once
// What the table is configured to be (pitlink.yaml `table`, `rounds`, `bets`, `cashier`).
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "daemon/game/bet_rules.h"
#include "daemon/game/shoe.h"
#include "daemon/game/side_bet_guard.h"

namespace pitlink::table {

enum class CardSource : std::uint8_t {
    Rng,     // the table shuffles its own shoe and deals by itself
    Reader,  // a game engine reports the cards of a physical shoe
};

struct TableSettings {
    std::string name = "table-1";
    CardSource source = CardSource::Rng;
    game::ShoeConfig shoe;
    int stations = 8;
    game::Money denomination = 1;                // minor units per credit: a station's first, SAS's accounting one
    std::vector<game::Money> denominations{1};   // what a station may choose (seed 000's Denomination button)
    std::chrono::milliseconds betsOpen{20'000};  // "BETS PLEASE" (seed 002)
    std::chrono::milliseconds lastBets{5'000};   // "LAST BETS"
    // RNG tables: no betting window; a station's DEAL closes bets and deals (seed 003), and an
    // auto-repeating station's bets are dealt `betsOpen` after they were placed.
    bool startOnDeal = false;
    // Seed 002's multiplayer mode: a station's bets play only if it confirmed them before bets
    // close; the rest are returned at the close.
    bool confirmBets = false;
    game::BetRulesConfig bets;
    game::Money ticketLimit = 1'000'000;  // cash-out above this: hand-pay
    game::Money jackpotLimit = 120'000;   // a win at or above: the station locks for a hand-pay
    bool ticketInLocal = true;            // redeem tickets without the accounting host (false with SAS)
    game::Money ticketInMax = 1'000'000;
    int rescanAttempts = 3;
    std::chrono::milliseconds reserveTimeout{600'000};  // a reserved station frees itself after this
    std::chrono::milliseconds readerTimeout{60'000};    // no card this long while dealing: tilt (0: never)
    bool naturalsOnBigRoad = true;                      // the live roads mark naturals on the big road
    game::ProtectionRules protection;                   // game protection (docs/protection.md); restart-only
};

}  // namespace pitlink::table
