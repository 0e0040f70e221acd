#pragma once
// Start-up of the journal (docs/rules.md "Rounds, journal and accounting"): integrity check, chain
// check, meters and credits rebuilt and compared with the stored snapshots, then the round left
// unfinished by a crash or power loss is finished: settled from its journaled cards when they
// are complete and legal, otherwise voided with every bet returned. Each step is journaled. A
// journal that fails a check is never repaired or written to: the report says why, and the
// table stays in tilt.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/game/paytable.h"
#include "daemon/journal/journal.h"
#include "daemon/journal/ledger/ledger.h"
#include "daemon/journal/segments/segmented_journal.h"
#include "daemon/journal/store/chain_verifier.h"
#include "daemon/journal/store/journal_store.h"

namespace pitlink::journal {

struct RecoveryOptions {
    // false: the chain is checked from the second-to-last meters snapshot (start-up stays fast on
    // a journal of millions of rounds; `pitlinkctl audit verify` checks all of it). true: all.
    bool fullChainCheck = false;
    bool quickCheck = true;
};

struct RecoveryReport {
    std::optional<std::string> tilt;  // why the table must not run; nothing was written
    std::string quickCheck;           // "ok", what SQLite found, or "skipped"
    ChainCheck chain;
    int snapshotsCompared = 0;
    Ledger ledger;                            // committed credits and meters after recovery
    std::vector<std::string> actions;         // what recovery did to the unfinished round, if anything
    std::optional<std::int64_t> lastRoundId;  // the journal's, also when it is in a sealed segment
    [[nodiscard]] bool ok() const { return !tilt.has_value(); }
};

// Both steps below, one after the other (tools, tests, the crash child).
[[nodiscard]] RecoveryReport recover(JournalStore& store, const RecoveryOptions& options, const Journal::Clock& clock);

// Step 1, read-only: the checks, the ledger rebuilt and compared with the snapshots, the last
// round found. pitlinkd runs it at once and the long scans (IntegrityScan) after it, so that its
// state is back in milliseconds while nothing is written before every check has passed.
[[nodiscard]] RecoveryReport inspectJournal(JournalStore& store, const RecoveryOptions& options);
// Step 2, only after step 1 and every other check passed: the unfinished round finished and the
// verdict journaled (journal.checked). Sets report.tilt if the journal cannot be written.
void finishRecovery(JournalStore& store, RecoveryReport& report, const Journal::Clock& clock);

// The paytable journaled with this content hash (paytable.loaded), if any.
[[nodiscard]] std::optional<game::Paytable> findJournaledPaytable(JournalStore& store, std::string_view sha256);
// The same in every segment, the newest first.
[[nodiscard]] std::optional<game::Paytable> findJournaledPaytable(SegmentedJournal& journal, std::string_view sha256);

}  // namespace pitlink::journal
