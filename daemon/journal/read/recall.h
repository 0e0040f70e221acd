#pragma once
// Game recall (docs/rules.md): the last rounds of the table or of one station, each with its cards,
// outcome, every bet, every win, the station's credits before and after, and the paytable used.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "daemon/journal/read/round_history.h"
#include "daemon/journal/segments/segmented_journal.h"

namespace pitlink::journal {

struct StationCredits {
    game::Money before = 0;
    game::Money after = 0;
};

struct RecalledRound {
    RoundHistory round;
    std::map<std::int64_t, StationCredits> credits;  // stations whose credits the round moved
};

// The rounds of one game of a controller of several (schema/README.md "Games"): those whose
// round.opened names it, and, when it is the first game, those naming none (written while the
// controller had one game).
struct GameOfRounds {
    std::string name;
    bool first = false;
};

// Newest first. `station`: only the rounds in which that station had a bet accepted; `game`: only
// that game's rounds.
[[nodiscard]] std::vector<RecalledRound> recallRounds(SegmentedJournal& journal, int count,
                                                      std::optional<std::int64_t> station = std::nullopt,
                                                      const std::optional<GameOfRounds>& game = std::nullopt);
// The controller's first game as the newest daemon.started says (its `games`' first, or, before
// games existed, its `table`); nullopt when the journal holds no daemon.started.
[[nodiscard]] std::optional<std::string> firstGameOf(SegmentedJournal& journal);
[[nodiscard]] RecalledRound recallRound(SegmentedJournal& journal, std::int64_t roundId);

[[nodiscard]] nlohmann::json recalledRoundJson(const RecalledRound& recalled);
// The round as one station's bet list shows it (seeds 002/003; engine op bet_list): the cards and
// outcome, that station's bets only, its stake and return totals and its credits before and after.
[[nodiscard]] nlohmann::json stationBetListJson(const RecalledRound& recalled, std::int64_t station);

}  // namespace pitlink::journal
