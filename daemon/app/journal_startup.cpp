#include "daemon/app/journal_startup.h"

#include "daemon/journal/chain_hasher.h"
#include "daemon/journal/paytable_codec.h"
#include "daemon/journal/record_kinds.h"

namespace pitlink::app {

using nlohmann::json;

namespace {

std::uint32_t nextShoeNumber(journal::JournalStore& store) {
    auto last = store.connection().prepare(
        "SELECT json_extract(body, '$.shoe') FROM record WHERE kind = 'shoe.started' ORDER BY seq DESC LIMIT 1");
    return last.step() ? static_cast<std::uint32_t>(last.integer(0)) + 1 : 1;
}

}  // namespace

JournalStartup startJournal(const Config& config, const game::Paytable& paytable, const std::string& configText,
                            const journal::Journal::Clock& clock) {
    journal::StoreOptions options;
    if (!config.journal.keyFile.empty()) {
        options.key = journal::loadChainKey(config.journal.keyFile);
    }
    options.createdAtMs = clock();
    JournalStartup startup;
    startup.store = std::make_unique<journal::JournalStore>(config.journal.path.string(), std::move(options));
    startup.recovery = journal::recover(*startup.store,
                                        journal::RecoveryOptions{config.journal.fullChainCheckAtStart, true}, clock);
    if (!startup.recovery.ok()) {
        return startup;
    }
    startup.resume.nextRoundId = startup.recovery.lastRoundId.value_or(0) + 1;
    startup.resume.nextShoeNumber = nextShoeNumber(*startup.store);

    const auto failure = journal::commitNow(
        *startup.store, startup.recovery.ledger, clock, [&](journal::JournalTransaction& tx) {
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
    return startup;
}

}  // namespace pitlink::app
