#include "daemon/app/config_effects.h"

#include "daemon/journal/records/paytable_codec.h"

namespace pitlink::app {

journal::SegmentPolicy segmentPolicy(const config::Config& config) {
    constexpr std::int64_t kHourMs = 3'600'000;
    return journal::SegmentPolicy{config.journal.segmentMaxAgeHours * kHourMs, config.journal.segmentMaxBytes};
}

table::TableSettings gameSettings(const config::Config& config, std::size_t index) {
    // A Config built in code has no games: its table is its one game.
    const config::GameConfig game = index < config.games.size() ? config.games[index] : config::tableGame(config);
    table::TableSettings t;
    t.name = game.name;
    t.source = game.rngShoe ? table::CardSource::Rng : table::CardSource::Reader;
    t.shoe = game.shoe;
    t.betsOpen = game.rounds.betsOpen;
    t.lastBets = game.rounds.lastBets;
    t.startOnDeal = game.rounds.startOnDeal;
    t.confirmBets = game.rounds.confirmBets;
    t.bets = game.bets;
    t.rescanAttempts = game.rescanAttempts;
    t.readerTimeout = game.readerTimeout;
    t.naturalsOnBigRoad = game.naturalsOnBigRoad;
    // The controller's: every game's stations, denominations, cashier and reservations.
    t.stations = config.table.stations;
    t.denomination = config.table.denomination;
    t.denominations = config.table.denominations;
    t.ticketLimit = config.cashier.ticketLimit;
    t.jackpotLimit = config.cashier.jackpotLimit;
    t.ticketInLocal = config.cashier.ticketInLocal;
    t.ticketInMax = config.cashier.ticketInMax;
    t.reserveTimeout = config.table.reserveTimeout;
    t.protection = config.protection;
    return t;
}

std::optional<std::size_t> gameIndex(const config::Config& config, const std::string& name) {
    if (config.games.empty()) {
        return config.table.name == name ? std::optional<std::size_t>(0) : std::nullopt;  // the table's one game
    }
    for (std::size_t i = 0; i < config.games.size(); ++i) {
        if (config.games[i].name == name) {
            return i;
        }
    }
    return std::nullopt;
}

std::vector<std::string> restartNeeded(const config::Config& running, const game::Paytable& runningPaytable,
                                       const config::Config& fresh, const game::Paytable& freshPaytable) {
    std::vector<std::string> keys;
    if (journal::paytableSha256(freshPaytable) != journal::paytableSha256(runningPaytable)) {
        keys.emplace_back("table.paytable");  // every round names the one paytable it is settled with
    }
    // The games and their paytables are set up once, at start (the first game's paytable's
    // content is compared above).
    const auto gameList = [](const config::Config& c) {
        std::vector<std::pair<std::string, std::filesystem::path>> list;
        for (const config::GameConfig& g : c.games) {
            list.emplace_back(g.name, list.empty() ? std::filesystem::path{} : g.paytableFile);
        }
        return list;
    };
    if (gameList(fresh) != gameList(running)) {
        keys.emplace_back("games");
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

}  // namespace pitlink::app
