#pragma once
// A player station as the table keeps it in memory. Credits are not here: they are the
// journal's ledger (projected for new bets, committed for what is shown).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/game/bet_rules.h"
#include "daemon/journal/read/round_history.h"
#include "daemon/journal/records/fact_views.h"

namespace pitlink::table {

struct PendingHandpay {
    game::Money amount = 0;
    std::string kind;         // "cancelled_credit" (cash-out above the ticket limit) or "jackpot"
    bool offCredits = false;  // a jackpot already off the credit meter (journal::HandpayFact)
};

struct Station {
    std::int64_t number = 0;
    std::vector<journal::RoundBet> bets;  // this round's, in the order placed
    // How many of `bets` each placing request added (bet, repeat, double, raise), in order: undo
    // takes back the last request's bets together (a double undone leaves the bets before it).
    std::vector<std::size_t> placements;
    game::BetSlip lastSlip;  // the previous round's, for "repeat"
    game::LosingStreak streak;
    game::PersonalLimits personal;
    std::optional<game::Money> denomination;  // chosen (minor units per credit); none: the table's first
    std::optional<PendingHandpay> handpay;    // locked until an attendant resets it
    // Seed 000 "Reserve table": no bets, cash-out or tickets until released or timed out.
    std::optional<journal::ReservationFact> reservation;
    // Seed 000 "Dispute": the player's open dispute, held until an operator resolves it.
    std::optional<journal::DisputeFact> dispute;
    std::int64_t hostDelayUntilMs = 0;  // the accounting host delays its next game (SAS LP 2E)
    int limitLevel = 1;
    int wrongPins = 0;        // wrong PINs tried on this reservation (three lock the player's release)
    bool autoRepeat = false;  // the last slip placed again at every round's opening
    bool keepBets = false;    // the same, without starting the round (start: deal)
    bool confirmed = false;   // confirm_bets: this round's bets, as they stand, confirmed
    bool attendantCalled = false;
    bool hostDisabled = false;  // the accounting host shut the station down (SAS LP 01)
    bool cashingOut = false;    // waiting for the host's validation number
    bool redeeming = false;     // a ticket in escrow, waiting for the host

    [[nodiscard]] game::BetSlip slip() const {
        game::BetSlip s;
        for (const auto& bet : bets) {
            s[bet.spot] += bet.stake;
        }
        return s;
    }
};

}  // namespace pitlink::table
