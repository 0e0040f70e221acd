#pragma once
// A player station as the games keep it in memory. Credits are not here: they are the
// journal's ledger (projected for new bets, committed for what is shown), one per station
// whichever games it plays.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/game/bet_rules.h"
#include "daemon/game/game_name.h"
#include "daemon/journal/read/round_history.h"
#include "daemon/journal/records/fact_views.h"

namespace pitlink::table {

// The hand-pay of an AFT bonus jackpot (LP 72 type 11) at or above the jackpot limit.
inline constexpr std::string_view kBonusJackpotHandpay = "bonus_jackpot";

struct PendingHandpay {
    game::Money amount = 0;
    // "cancelled_credit" (cash-out above the ticket limit), "jackpot" (a win at the jackpot
    // limit) or "bonus_jackpot" (kBonusJackpotHandpay)
    std::string kind;
    bool offCredits = false;  // already off the credit meter (journal::HandpayFact)
};

// What a station keeps whichever game it plays (seed 000: one credit meter, one cash-out button
// for up to four games): shared by every game of the controller (table::Controller).
struct StationWallet {
    std::int64_t number = 0;
    // The games the station has joined, in the order joined (at most game::kMostGamesPerStation).
    std::vector<std::string> games;
    game::PersonalLimits personal;
    std::optional<game::Money> denomination;  // chosen (minor units per credit); none: the table's first
    std::optional<PendingHandpay> handpay;    // locked until an attendant resets it
    // Seed 000 "Reserve table": no bets, cash-out or tickets until released or timed out.
    std::optional<journal::ReservationFact> reservation;
    std::int64_t hostDelayUntilMs = 0;  // the accounting host delays its next game (SAS LP 2E)
    int wrongPins = 0;                  // wrong PINs tried on this reservation (three lock the player's release)
    bool attendantCalled = false;
    bool hostDisabled = false;    // the accounting host shut the station down (SAS LP 01)
    bool cashingOut = false;      // waiting for the host's validation number
    bool hostCashingOut = false;  // a cash-out offered to the host (SAS AFT host cash-out)
    bool redeeming = false;       // a ticket in escrow, waiting for the host
    bool aftLocked = false;       // SAS AFT (LP 74): locked for a transfer, no bet, cash-out or ticket

    [[nodiscard]] bool joined(const std::string& game) const {
        return std::find(games.begin(), games.end(), game) != games.end();
    }
};

// The station in one game: its bets and what it keeps there.
struct Station {
    std::int64_t number = 0;
    std::vector<journal::RoundBet> bets;  // this round's, in the order placed
    // How many of `bets` each placing request added (bet, repeat, double, raise), in order: undo
    // takes back the last request's bets together (a double undone leaves the bets before it).
    std::vector<std::size_t> placements;
    game::BetSlip lastSlip;  // the previous round's, for "repeat"
    game::LosingStreak streak;
    // Seed 000 "Dispute": the player's open dispute, held until an operator resolves it.
    std::optional<journal::DisputeFact> dispute;
    int limitLevel = 1;
    bool autoRepeat = false;  // the last slip placed again at every round's opening
    bool keepBets = false;    // the same, without starting the round (start: deal)
    bool confirmed = false;   // confirm_bets: this round's bets, as they stand, confirmed
    // Game protection: its standing slip holds a side bet waiting for the round's edge; it is
    // placed when the edge comes (table_protection.cpp), not refused.
    bool standingWaitsForEdge = false;

    [[nodiscard]] game::BetSlip slip() const {
        game::BetSlip s;
        for (const auto& bet : bets) {
            s[bet.spot] += bet.stake;
        }
        return s;
    }
};

}  // namespace pitlink::table
