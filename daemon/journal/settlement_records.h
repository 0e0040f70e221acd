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
#include "daemon/journal/round_history.h"

namespace pitlink::journal {

[[nodiscard]] nlohmann::json outcomeToJson(const game::Outcome& outcome);
[[nodiscard]] nlohmann::json handToJson(const game::Hand& hand);
[[nodiscard]] nlohmann::json settledBetJson(const RoundBet& bet, const game::BetSettlement& settlement);

// The game's bets of a round (game::settleCoup settles them).
[[nodiscard]] std::vector<game::Bet> gameBets(std::span<const RoundBet> bets);

// The records of a round settled by game::settleCoup (of `coup` and gameBets(bets)): round.settled
// (cards, outcome, paytable hash, plus `extra`), one bet.settled per bet, then one credit per
// station with a bet: what settlement paid back (0 when everything lost) and what was wagered,
// so that games and coin in/out are metered from the credit record.
void addSettlement(JournalTransaction& tx, std::int64_t roundId, const game::Coup& coup, std::span<const RoundBet> bets,
                   const game::RoundSettlement& settled, const game::Paytable& paytable, std::string_view paytableSha,
                   nlohmann::json extra = nlohmann::json::object());

// round.voided with the reason, then each station's stakes returned in one credit.
void addVoid(JournalTransaction& tx, std::int64_t roundId, std::span<const RoundBet> bets, std::string_view why,
             nlohmann::json extra = nlohmann::json::object());

}  // namespace pitlink::journal
