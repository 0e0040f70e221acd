#pragma once
// The records that settle or void a round, written in one place for the live table, for recovery
// (settling from journaled cards) and, as differences, for re-settlement. The settlement itself is
// the game's (game::settleCoup), computed once by the caller.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/game/hand.h"
#include "daemon/game/outcome.h"
#include "daemon/game/paytable.h"
#include "daemon/game/round_settlement.h"
#include "daemon/game/settlement.h"
#include "daemon/journal/journal.h"
#include "daemon/journal/read/round_history.h"
#include "daemon/journal/records/round_records.h"

namespace pitlink::journal {

[[nodiscard]] nlohmann::json outcomeToJson(const game::Outcome& outcome);
[[nodiscard]] nlohmann::json handToJson(const game::Hand& hand);

// One stake's settlement as bet.settled (and bet.adjusted) has it: per bet {"bet": index, ...};
// per spot {"bets": [indexes], ...} with the spot's summed stake.
struct StakeSettlement {
    game::SettleRule rule = game::SettleRule::PerSpot;
    std::vector<std::int64_t> bets;  // the indexes of the round's bets it settles
    game::Bet stake;                 // the station, the spot and the (summed) stake
    game::BetSettlement settlement;
};
// The settlement of `stake`, one of those the rule settled of `bets`.
[[nodiscard]] StakeSettlement stakeSettlement(game::SettleRule rule, std::span<const RoundBet> bets,
                                              const game::SettledStake& stake, const game::BetSettlement& settlement);
[[nodiscard]] nlohmann::json stakeSettlementJson(const StakeSettlement& settled);

// bet.adjusted: a re-settlement's change to one settlement of the round.
struct BetAdjustedRecord {
    static constexpr std::string_view kKind = kind::kBetAdjusted;
    StakeSettlement settled;           // as the correction settles it
    game::Money previousReturned = 0;  // by the settlement in force before
    game::Money delta = 0;
};
[[nodiscard]] nlohmann::json toBody(const BetAdjustedRecord& record);

// round.resettled: a finished round settled again with corrected cards (resettlement.h).
struct RoundResettledRecord {
    static constexpr std::string_view kKind = kind::kRoundResettled;
    std::int64_t step = 0;  // 1 for the first re-settlement of the round
    std::string reason;
    std::string operatorName;
    game::Hand player;
    game::Hand banker;
    game::Outcome outcome;
    // The outcome of the settlement in force before, as its record has it: kept verbatim, so
    // that a round settled by an older version shows the outcome it was paid by.
    nlohmann::json previousOutcome = nlohmann::json::object();
    std::string paytable;
    std::string paytableSha;
};
[[nodiscard]] nlohmann::json toBody(const RoundResettledRecord& record);

// The game's bets of a round (game::settleCoup settles them).
[[nodiscard]] std::vector<game::Bet> gameBets(std::span<const RoundBet> bets);

// The round's bets settled on `coup` under `rule` (game::settleCoup of gameBets(bets)).
[[nodiscard]] game::RoundSettlement settleBets(const game::Coup& coup, std::span<const RoundBet> bets,
                                               const game::Paytable& paytable, game::SettleRule rule);

// What addSettlement adds to round.settled's cards, outcome and paytable.
struct SettlementDetail {
    bool recovered = false;  // settled at start-up from journaled cards
    // The value of one credit each station played the round at (its credit's `denomination`);
    // a station not in it: none written.
    std::map<std::int64_t, game::Money> denominations{};
};

// The records of a round settled by settleBets(coup, bets, ...): round.settled (cards, outcome,
// paytable hash, plus `detail`), one bet.settled per stake settled (a bet, or a station's spot),
// then one credit per station with a bet: what settlement paid back (0 when everything lost) and
// what was wagered, so that games and coin in/out are metered from the credit record.
void addSettlement(JournalTransaction& tx, std::int64_t roundId, const game::Coup& coup, std::span<const RoundBet> bets,
                   const game::RoundSettlement& settled, const game::Paytable& paytable, std::string_view paytableSha,
                   SettlementDetail detail = {});

// round.voided with the reason, then each station's stakes returned in one credit.
void addVoid(JournalTransaction& tx, std::int64_t roundId, std::span<const RoundBet> bets, std::string_view why,
             VoidDetail detail = {});

}  // namespace pitlink::journal
