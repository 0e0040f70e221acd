#pragma once
// Export of a round range or a time range of the journal for inspectors: JSON lines (one record
// per line, body as an object, chain link and the link before it, so any line can be checked on
// its own) or CSV (body as its canonical JSON text). Each record says the game it names (`game`,
// empty where it names none); a game's export holds the records of that game only.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "daemon/journal/read/recall.h"
#include "daemon/journal/segments/segmented_journal.h"

namespace pitlink::journal {

enum class ExportFormat : std::uint8_t { JsonLines, Csv };

struct ExportRange {
    // Rounds: every record from the first record of the first round to the last record of the
    // last round, including what happened between them (tickets, tips, doors).
    std::optional<std::int64_t> fromRound;
    std::optional<std::int64_t> toRound;
    // Time: records with from <= at_ms < to.
    std::optional<std::int64_t> fromMs;
    std::optional<std::int64_t> toMs;
    // One game's records: those naming it, and, for the first game, the records of a game
    // (kind::namesItsGame) naming none (written while the controller had one game).
    std::optional<GameOfRounds> game;
};

// Returns the number of records written.
std::int64_t exportJournal(SegmentedJournal& journal, const ExportRange& range, ExportFormat format, std::ostream& out);

// "2026-11-22T10:15:30.250Z"
[[nodiscard]] std::string formatUtc(std::int64_t atMs);

}  // namespace pitlink::journal
