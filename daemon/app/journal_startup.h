#pragma once
// Start-up of the journal for pitlinkd, in two steps so that the daemon is back in milliseconds
// on a journal of millions of rounds while nothing is written before every check has passed:
//   openJournal:   open (migrations), state rebuilt from the last snapshots (read-only);
//   resumeJournal: after the integrity scan passed: the unfinished round finished, the verdict
//                  and the records that say the daemon started with this configuration and
//                  paytable, and where the table resumes (next round id, next shoe number).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/config/config.h"
#include "daemon/game/paytable.h"
#include "daemon/journal/journal.h"
#include "daemon/journal/recovery.h"
#include "daemon/journal/resume_facts.h"
#include "daemon/journal/store/integrity_scan.h"
#include "daemon/journal/store/journal_store.h"
#include "daemon/table/table.h"

namespace pitlink::app {

struct JournalStartup {
    std::unique_ptr<journal::JournalStore> store;  // to hand to the writer thread
    journal::StoreOptions readOptions;             // for the integrity scan's own connection
    journal::StoreOptions writeOptions;            // for the segments the writer begins
    journal::RecoveryReport recovery;              // !ok(): the table stays in tilt
    journal::ResumeFacts facts;                    // read after the scan passed (resumeFacts)
    table::TableStart resume;
    std::vector<std::string> tidied;  // what tidySegments did to an interrupted rotation
};

// Throws journal::JournalError when the file cannot be opened at all (permissions, not SQLite,
// wrong key): the daemon cannot even tilt safely then, and says so.
// `vfs`: a SQLite VFS for every connection to the journal (the simulation tier's power-loss VFS).
JournalStartup openJournal(const config::Config& config, const journal::Journal::Clock& clock,
                           const char* vfs = nullptr);

// Call only with a passed scan and startup.facts read; sets startup.recovery.tilt when the journal cannot be written.
// `paytables`: each game's (config.games' order; the first game's alone when the daemon runs one).
void resumeJournal(JournalStartup& startup, const journal::IntegrityResult& scan, const config::Config& config,
                   const std::vector<const game::Paytable*>& paytables, const std::string& configText,
                   const journal::Journal::Clock& clock);

// Where game `name` resumes: startup.resume with the game's own shoe, station states and disputes.
[[nodiscard]] table::TableStart gameStart(const JournalStartup& startup, const std::string& name);

}  // namespace pitlink::app
