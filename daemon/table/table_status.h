#pragma once
// The table as `status` shows it (engine link and control socket): what is in memory and the
// committed credits of every station.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "daemon/game/bet_rules.h"
#include "daemon/journal/ledger/credit_types.h"
#include "daemon/journal/read/round_history.h"
#include "daemon/table/round_phase.h"
#include "daemon/table/station.h"

namespace pitlink::table {

struct StationStatus {
    std::int64_t station = 0;
    game::Money credits = 0;              // committed
    std::vector<journal::RoundBet> bets;  // this round's, in the order placed
    std::optional<PendingHandpay> handpay;
    bool attendant = false;
    std::optional<std::int64_t> reservedUntilMs;  // reserved: until when (table clock)
    std::optional<journal::DisputeFact> dispute;  // open, held for an operator
    bool hostDisabled = false;
    int limitLevel = 1;
    game::PersonalLimits personal;
    bool autoRepeat = false;
    bool keepBets = false;
    bool confirmed = false;
    game::Money denomination = 1;    // the station's value of one credit
    std::vector<std::string> games;  // the games it plays, on a controller of several (else empty)
    journal::PromoParts promo;       // of `credits`, the promotional parts
    bool aftLocked = false;          // held by the accounting host's cashless lock (SAS LP 74)
};

struct TableStatus {
    std::string table;
    bool rngSource = false;  // cards from the table's RNG, not a reader
    RoundPhase phase = RoundPhase::Idle;
    std::int64_t round = 0;
    std::uint32_t shoe = 0;
    std::int64_t roundInShoe = 0;
    std::int64_t cardsLeft = 0;  // in the shoe in play (0: none)
    std::string shoeReason;      // why it started ("" when none has started since the journal began)
    bool shoeResumed = false;    // resumed from the journal at this start
    std::uint64_t roundsFinished = 0;
    std::string paytable;
    std::map<std::string, std::string> tilts;  // cause -> message
    std::vector<StationStatus> stations;
    std::vector<game::Money> denominations;  // what a station may choose
    int limitLevels = 1;
    // Game protection (docs/protection.md), when on: the side bets closed for the round, and those
    // waiting for its edge. No figures: a station may read this.
    struct SideBets {
        std::vector<game::BetType> closed;
        std::vector<game::BetType> waiting;
    };
    std::optional<SideBets> sideBets;
};

}  // namespace pitlink::table
