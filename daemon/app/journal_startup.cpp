#include "daemon/app/journal_startup.h"

#include <algorithm>
#include <set>

#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/paytable_codec.h"
#include "daemon/journal/records/start_records.h"
#include "daemon/journal/resume_facts.h"
#include "daemon/journal/segments/segment_rotation.h"
#include "daemon/journal/store/chain_hasher.h"

namespace pitlink::app {

namespace {

// Stations whose last hand-pay record is a pending one stay locked across a restart; calls for
// an attendant not yet cleared stay raised; open disputes stay held for an operator; reserved
// stations stay reserved (until their time-out, which may have passed while pitlinkd was down).
void restoreStations(const journal::ResumeFacts& facts, table::TableStart& start) {
    for (const auto& [station, lock] : facts.handpays) {
        start.handpays[station] = table::PendingHandpay{lock.amount, lock.kind, lock.offCredits};
    }
    start.attendantCalls = facts.attendantCalls;
    start.stationStates = facts.stations;
    start.walletStates = facts.wallets;
    start.disputes = facts.disputes;
    start.reservations = facts.reservations;
    start.joinedGames = facts.games;
}

}  // namespace

JournalStartup openJournal(const config::Config& config, const journal::Journal::Clock& clock, const char* vfs) {
    journal::StoreOptions options;
    options.vfs = vfs;
    if (!config.journal.keyFile.empty()) {
        options.key = journal::loadChainKey(config.journal.keyFile);
    }
    options.createdAtMs = clock();
    JournalStartup startup;
    startup.readOptions.key = options.key;
    startup.readOptions.readOnly = true;
    startup.readOptions.vfs = vfs;
    startup.writeOptions = options;
    // A rotation that died half-way is finished or undone before the journal is opened.
    startup.tidied = journal::tidySegments(config.journal.path.string(), options);
    startup.store = std::make_unique<journal::JournalStore>(config.journal.path.string(), options);
    // quick_check and the whole chain are the integrity scan's, on its own thread.
    startup.recovery = journal::inspectJournal(*startup.store, journal::RecoveryOptions{false, false});
    return startup;
}

table::TableStart gameStart(const JournalStartup& startup, const std::string& name) {
    table::TableStart start = startup.resume;
    const journal::GameFacts game = startup.facts.game(name);
    start.shoe = game.shoe;
    start.stationStates = game.stations;
    start.disputes = game.disputes;
    start.nextShoeNumber = game.lastShoe.value_or(0) + 1;  // the game's own: whether it had a shoe
    start.lastRound = game.lastRound;
    // The stations' wallets (denomination, personal limits) are the controller's, built from
    // startup.resume: the first game's station states, which the wallet's requests journal.
    return start;
}

void resumeJournal(JournalStartup& startup, const journal::IntegrityResult& scan, const config::Config& config,
                   const std::vector<const game::Paytable*>& paytables, const std::string& configText,
                   const journal::Journal::Clock& clock) {
    startup.recovery.quickCheck = scan.quickCheck;
    if (scan.chain) {
        startup.recovery.chain = *scan.chain;
    }
    journal::finishRecovery(*startup.store, startup.recovery, clock);
    if (!startup.recovery.ok()) {
        return;
    }
    startup.resume.nextRoundId = startup.facts.lastRoundId.value_or(0) + 1;
    // Shoe numbers are the controller's: the next is after every game's last.
    std::uint32_t lastShoe = startup.facts.lastShoe.value_or(0);
    for (const auto& [name, game] : startup.facts.otherGames) {
        lastShoe = std::max(lastShoe, game.lastShoe.value_or(0));
    }
    startup.resume.nextShoeNumber = lastShoe + 1;
    startup.resume.nextTicketNumber = startup.facts.ticketsIssued + 1;
    restoreStations(startup.facts, startup.resume);
    // Read again now that the recovery has finished the round left unfinished: its settlement is
    // one of the shoe's results, its cards out of the shoe.
    if (!startup.recovery.actions.empty()) {
        const auto carried = journal::carriedState(*startup.store);
        const std::string& first = config::firstGameName(config);
        startup.facts.shoe = journal::resumeShoe(*startup.store, carried, first, first);
        for (const config::GameConfig& game : config.games) {
            if (game.name != first) {
                startup.facts.otherGames[game.name].shoe =
                    journal::resumeShoe(*startup.store, carried, game.name, first);
            }
        }
    }
    startup.resume.shoe = startup.facts.shoe;

    const auto failure =
        journal::commitNow(*startup.store, startup.recovery.ledger, clock, [&](journal::JournalTransaction& tx) {
            std::vector<std::string> games;
            for (const config::GameConfig& g : config.games) {
                games.push_back(g.name);
            }
            tx.add(journal::DaemonStartedRecord{PITLINK_VERSION, config.table.name, games});
            tx.add(journal::ConfigLoadedRecord{config.file.string(), journal::toHex(journal::sha256(configText)),
                                               std::nullopt, std::nullopt, std::nullopt});
            // Each paytable a game settles with, once (a round names it by its hash).
            std::set<std::string> loaded;
            for (std::size_t i = 0; i < paytables.size(); ++i) {
                if (loaded.insert(journal::paytableSha256(*paytables[i])).second) {
                    tx.add(journal::PaytableLoadedRecord{*paytables[i], i < config.games.size()
                                                                            ? config.games[i].paytableFile.string()
                                                                            : config.table.paytableFile.string()});
                }
            }
        });
    if (failure) {
        startup.recovery.tilt = "journal cannot be written: " + *failure;
    }
}

}  // namespace pitlink::app
