#pragma once
// Start-up of the journal for pitlinkd: open (migrations), recovery, the records that say the
// daemon started with this configuration and paytable, and where the table resumes (next round
// id, next shoe number).
#include <memory>
#include <optional>
#include <string>

#include "daemon/app/auto_dealer.h"
#include "daemon/app/config.h"
#include "daemon/game/paytable.h"
#include "daemon/journal/journal.h"
#include "daemon/journal/journal_store.h"
#include "daemon/journal/recovery.h"

namespace pitlink::app {

struct JournalStartup {
    std::unique_ptr<journal::JournalStore> store;  // to hand to the writer thread
    journal::RecoveryReport recovery;              // !ok(): the table stays in tilt
    DealerStart resume;
};

// Throws journal::JournalError when the file cannot be opened at all (permissions, not SQLite,
// wrong key): the daemon cannot even tilt safely then, and says so.
JournalStartup startJournal(const Config& config, const game::Paytable& paytable, const std::string& configText,
                            const journal::Journal::Clock& clock);

}  // namespace pitlink::app
