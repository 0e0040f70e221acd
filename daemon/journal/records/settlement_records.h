#pragma once
// The records that settle or void a round, written in one place for the live table, for recovery
// (settling from journaled cards) and, as differences, for re-settlement. The settlement itself is
// the game's (game::settleCoup), computed once by the caller.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/game/hand.h"
#include "daemon/game/outcome.h"
#include "daemon/game/paytable.h"
#include "daemon/game/round_settlement.h"
#include "daemon/journal/journal.h"
#include "daemon/journal/read/round_history.h"

namespace pitlink::journal {

[[nodiscard]] nlohmann::json outcomeToJson(const game::Outcome& outcome);
[[nodiscard]] nlohmann::json handToJson(const game::Hand& hand);

// The body of the bet.settled (or, with its previous return, bet.adjusted) of one stake the rule
// settled: per bet {"bet": index, ...}; per spot {"bets": [indexes], ...} with the spot's stake.
[[nodiscard]] nlohmann::json settledStakeJson(game::SettleRule rule, std::span<const RoundBet> bets,
                                              const game::SettledStake& stake, const game::BetSettlement& settlement);

// The game's bets of a round (game::settleCoup settles them).
[[nodiscard]] std::vector<game::Bet> gameBets(std::span<const RoundBet> bets);

// The round's bets settled on `coup` under `rule` (game::settleCoup of gameBets(bets)).
[[nodiscard]] game::RoundSettlement settleBets(const game::Coup& coup, std::span<const RoundBet> bets,
                                               const game::Paytable& paytable, game::SettleRule rule);

// The records of a round settled by settleBets(coup, bets, ...): round.settled (cards, outcome,
// paytable hash, plus `extra`), one bet.settled per stake settled (a bet, or a station's spot),
// then one credit per station with a bet: what settlement paid back (0 when everything lost) and
// what was wagered, so that games and coin in/out are metered from the credit record.
void addSettlement(JournalTransaction& tx, std::int64_t roundId, const game::Coup& coup, std::span<const RoundBet> bets,
                   const game::RoundSettlement& settled, const game::Paytable& paytable, std::string_view paytableSha,
                   nlohmann::json extra = nlohmann::json::object());

// round.voided with the reason, then each station's stakes returned in one credit.
void addVoid(JournalTransaction& tx, std::int64_t roundId, std::span<const RoundBet> bets, std::string_view why,
             nlohmann::json extra = nlohmann::json::object());

}  // namespace pitlink::journal
