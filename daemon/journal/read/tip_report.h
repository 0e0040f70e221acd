#pragma once
// The dealer tips of a journal by period, as some jurisdictions ask of electronic tables
// (docs/rules.md "Tips"): for each period (UTC days or hours of the journal's clock) the number
// of tips and their sum, in total and by station. Read from the `tip` records themselves, not
// from a meter, so that it covers exactly the period asked for.
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "daemon/game/settlement.h"
#include "daemon/journal/read/recall.h"
#include "daemon/journal/segments/segmented_journal.h"

namespace pitlink::journal {

struct TipTotal {
    std::int64_t count = 0;
    game::Money amount = 0;
};

struct TipPeriod {
    std::int64_t startMs = 0;  // UTC, inclusive
    std::int64_t endMs = 0;    // exclusive
    TipTotal total;
    std::map<std::int64_t, TipTotal> byStation;
};

// The periods of `periodMs` (a divisor of a day: an hour or a day) from `fromMs` to `toMs`
// (journal clock, UTC ms, half-open) that have a tip, in order.
// `game`: the tips to that game's dealer only (a controller of several games; the first game's
// also take the tips naming none).
[[nodiscard]] std::vector<TipPeriod> tipReport(SegmentedJournal& journal, std::int64_t fromMs, std::int64_t toMs,
                                               std::int64_t periodMs,
                                               const std::optional<GameOfRounds>& game = std::nullopt);

}  // namespace pitlink::journal
