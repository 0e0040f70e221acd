#pragma once
// The inspector's audit: the whole chain verified (first bad record reported), every meter and
// credit recomputed from the records and compared with every stored snapshot, and every round
// checked for completeness (each bet settled or returned exactly once, credits matching).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "daemon/journal/ledger/ledger.h"
#include "daemon/journal/segments/segmented_journal.h"
#include "daemon/journal/store/chain_verifier.h"

namespace pitlink::journal {

struct AuditReport {
    ChainCheck chain;
    int snapshotsCompared = 0;
    std::int64_t roundsChecked = 0;
    // A controller of several games: the rounds checked of each game (those naming none are the
    // first game's and counted in roundsChecked only).
    std::map<std::string, std::int64_t> roundsByGame;
    std::vector<std::string> roundProblems;
    Ledger ledger;  // recomputed from every record
    [[nodiscard]] bool ok() const { return chain.ok && roundProblems.empty(); }
};

// Across every segment: each segment's seal checked against the segment before it (its last record
// and link, the carried facts recomputed from it), the chain and the meters followed on.
[[nodiscard]] AuditReport auditJournal(SegmentedJournal& journal);
[[nodiscard]] nlohmann::json auditReportJson(const AuditReport& report);

// What the seal of segment `index` (> 0) says of the segment before it, checked against that
// segment itself: its last record and link, and the facts it carried over, recomputed from it.
// Empty when sound, else the problem. `carried`, when given: segment index-1's segment.carried
// as the call for index-1 left it, replaced by segment index's (a walk over every seal then
// reads and parses each once).
[[nodiscard]] std::string checkSegmentSeal(SegmentedJournal& journal, std::size_t index,
                                           std::optional<nlohmann::json>* carried = nullptr);

}  // namespace pitlink::journal
