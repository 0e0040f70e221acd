#pragma once
// What a new journal segment carries over from the one it seals (schema/README.md "Segments"):
// everything a start-up resumes that no meters snapshot holds, read from the sealed segment as a
// start-up would read it (its own carried state, then its records): the journal's facts and the
// SAS stations' state in `segment.carried`, and each station's exception queue as a `sas.queue`.
// A start-up on the new segment then resumes the same state from it alone.
#include <cstdint>
#include <string>
#include <vector>

#include "daemon/journal/store/journal_store.h"
#include "daemon/journal/store/record.h"

namespace pitlink::app {

[[nodiscard]] std::vector<journal::PendingRecord> carryOver(journal::JournalStore& sealing, std::int64_t atMs);
// A controller of several games: `firstGame` is the one whose records also are those naming none.
[[nodiscard]] std::vector<journal::PendingRecord> carryOverFor(journal::JournalStore& sealing, std::int64_t atMs,
                                                               const std::string& firstGame);

}  // namespace pitlink::app
