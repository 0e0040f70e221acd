#include "daemon/app/journal_startup.h"

#include "daemon/journal/body_fields.h"
#include "daemon/journal/chain_hasher.h"
#include "daemon/journal/paytable_codec.h"
#include "daemon/journal/record_kinds.h"
#include "daemon/journal/resume_facts.h"
#include "daemon/journal/segment_rotation.h"

namespace pitlink::app {

using nlohmann::json;

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
    start.disputes = facts.disputes;
    start.reservations = facts.reservations;
}

}  // namespace

journal::SegmentPolicy segmentPolicy(const config::Config& config) {
    constexpr std::int64_t kHourMs = 3'600'000;
    return journal::SegmentPolicy{config.journal.segmentMaxAgeHours * kHourMs, config.journal.segmentMaxBytes};
}

table::TableSettings tableSettings(const config::Config& config) {
    table::TableSettings t;
    t.name = config.table.name;
    t.source = config.table.rngShoe ? table::CardSource::Rng : table::CardSource::Reader;
    t.shoe = config.table.shoe;
    t.stations = config.table.stations;
    t.denomination = config.table.denomination;
    t.denominations = config.table.denominations;
    t.betsOpen = config.rounds.betsOpen;
    t.lastBets = config.rounds.lastBets;
    t.startOnDeal = config.rounds.startOnDeal;
    t.confirmBets = config.rounds.confirmBets;
    t.bets = config.bets;
    t.ticketLimit = config.cashier.ticketLimit;
    t.jackpotLimit = config.cashier.jackpotLimit;
    t.ticketInLocal = config.cashier.ticketInLocal;
    t.ticketInMax = config.cashier.ticketInMax;
    t.rescanAttempts = config.table.rescanAttempts;
    t.reserveTimeout = config.table.reserveTimeout;
    t.readerTimeout = config.table.readerTimeout;
    t.naturalsOnBigRoad = config.table.naturalsOnBigRoad;
    return t;
}

std::vector<std::string> restartNeeded(const config::Config& running, const game::Paytable& runningPaytable,
                                       const config::Config& fresh, const game::Paytable& freshPaytable) {
    std::vector<std::string> keys;
    if (journal::paytableSha256(freshPaytable) != journal::paytableSha256(runningPaytable)) {
        keys.emplace_back("table.paytable");  // every round names the one paytable it is settled with
    }
    if (fresh.journal.path != running.journal.path || fresh.journal.keyFile != running.journal.keyFile ||
        fresh.journal.snapshotEvery != running.journal.snapshotEvery ||
        fresh.journal.fullChainCheckAtStart != running.journal.fullChainCheckAtStart ||
        fresh.journal.segmentMaxAgeHours != running.journal.segmentMaxAgeHours ||
        fresh.journal.segmentMaxBytes != running.journal.segmentMaxBytes) {
        keys.emplace_back("journal");
    }
    if (fresh.engine.socket != running.engine.socket || fresh.engine.tcpPort != running.engine.tcpPort) {
        keys.emplace_back("engine");
    }
    if (fresh.control.socket != running.control.socket ||
        fresh.control.inspectorGroup != running.control.inspectorGroup ||
        fresh.control.operatorGroup != running.control.operatorGroup) {
        keys.emplace_back("control");
    }
    // The SAS links and the Modbus module are opened once, at start.
    if (!(fresh.sas == running.sas)) {
        keys.emplace_back("sas");
    }
    if (!(fresh.modbus == running.modbus)) {
        keys.emplace_back("modbus");
    }
    return keys;
}

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

void resumeJournal(JournalStartup& startup, const journal::IntegrityResult& scan, const config::Config& config,
                   const game::Paytable& paytable, const std::string& configText,
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
    startup.resume.nextShoeNumber = startup.facts.lastShoe.value_or(0) + 1;
    startup.resume.nextTicketNumber = startup.facts.ticketsIssued + 1;
    restoreStations(startup.facts, startup.resume);

    const auto failure =
        journal::commitNow(*startup.store, startup.recovery.ledger, clock, [&](journal::JournalTransaction& tx) {
            tx.add(journal::kind::kDaemonStarted, std::nullopt, std::nullopt,
                   json{{"version", PITLINK_VERSION}, {"table", config.table.name}});
            tx.add(journal::kind::kConfigLoaded, std::nullopt, std::nullopt,
                   json{{"file", config.file.string()}, {"sha256", journal::toHex(journal::sha256(configText))}});
            tx.add(journal::kind::kPaytableLoaded, std::nullopt, std::nullopt,
                   json{{"id", paytable.id},
                        {"file", config.table.paytableFile.string()},
                        {"sha256", journal::paytableSha256(paytable)},
                        {"content", journal::paytableToJson(paytable)}});
        });
    if (failure) {
        startup.recovery.tilt = "journal cannot be written: " + *failure;
    }
}

}  // namespace pitlink::app
