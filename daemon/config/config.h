#pragma once
// pitlink.yaml, loaded once at start into validated immutable structs (etc/pitlink.yaml
// documents every key: type, default, range).

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <istream>
#include <string>
#include <vector>

#include "daemon/config/modbus_settings.h"
#include "daemon/config/sas_settings.h"
#include "daemon/game/bet_rules.h"
#include "daemon/game/game_name.h"
#include "daemon/game/paytable.h"
#include "daemon/game/shoe.h"
#include "daemon/game/side_bet_guard.h"
#include "daemon/platform/scheduling.h"

namespace pitlink::config {

struct TableConfig {
    std::string name = "table-1";
    bool rngShoe = true;  // false: a game engine reports the cards of a physical shoe
    int stations = 8;
    game::Money denomination = 1;  // minor units per credit: a station's first, SAS's accounting one
    // Seed 000's Denomination button: the values of one credit a station may choose (each a
    // multiple of `denomination`, which is among them); empty in the file: just `denomination`.
    std::vector<game::Money> denominations{1};
    int rescanAttempts = 3;
    std::chrono::milliseconds reserveTimeout{600'000};  // reserve_minutes: a reserved station frees itself
    std::chrono::milliseconds readerTimeout{60'000};    // reader_timeout_ms: a silent reader tilts the table
    bool naturalsOnBigRoad = true;                      // seed 000: naturals marked on the big road, or not
    game::ShoeConfig shoe;
    std::filesystem::path paytableFile = "/etc/pitlink/paytables/standard.yaml";
};

struct RoundTiming {
    std::chrono::milliseconds betsOpen{20'000};  // "BETS PLEASE" (seed 002)
    std::chrono::milliseconds lastBets{5'000};   // "LAST BETS"
    bool startOnDeal = false;                    // start: deal (seed 003 "click on DEAL"), RNG tables
    bool confirmBets = false;                    // confirm_bets: seed 002's multiplayer confirmation
    bool operator==(const RoundTiming&) const = default;
};

// One baccarat game of the controller (issue 34): its shoe, paytable, reader, roads, rounds and
// bets. `games:` in pitlink.yaml, each key defaulting to table:, rounds: and bets:; without it,
// the one game those sections describe (named table.name).
struct GameConfig {
    std::string name{};   // games[i].name: 1..32 of [a-z0-9_-], unique
    bool rngShoe = true;  // false: a game engine reports the cards of a physical shoe
    game::ShoeConfig shoe{};
    std::filesystem::path paytableFile{};
    int rescanAttempts = 3;
    std::chrono::milliseconds readerTimeout{60'000};
    bool naturalsOnBigRoad = true;
    RoundTiming rounds{};
    game::BetRulesConfig bets{};
    bool operator==(const GameConfig&) const = default;
};

struct JournalConfig {
    std::filesystem::path path = "/var/lib/pitlink/journal.db";
    std::filesystem::path keyFile;       // empty: plain SHA-256 chain; else HMAC-SHA-256 with this key
    std::int64_t snapshotEvery = 2000;   // records between meter snapshots
    bool fullChainCheckAtStart = false;  // the start-up integrity scan checks the whole chain too
    // Segments (schema/README.md "Segments"): the active one is sealed and the next begun, between
    // two rounds, once it is this old or this big; 0 and 0: one file for ever.
    std::int64_t segmentMaxAgeHours = 24;
    std::int64_t segmentMaxBytes = 32'000'000;  // segment_max_mb in pitlink.yaml
};

struct CashierConfig {
    game::Money ticketLimit = 1'000'000;  // cash-out above: hand-pay
    game::Money jackpotLimit = 120'000;   // a win at or above: hand-pay lock
    bool ticketInLocal = true;            // redeem tickets without the accounting host (false with SAS)
    game::Money ticketInMax = 1'000'000;
};

struct EngineConfig {
    std::filesystem::path socket = "/run/pitlink/engine.sock";  // empty: no Unix socket
    std::uint16_t tcpPort = 0;                                  // 127.0.0.1:port as well; 0: no TCP
};

struct ControlConfig {
    std::filesystem::path socket = "/run/pitlink/control.sock";  // empty: no control socket
    std::string inspectorGroup = "pitlink-inspector";
    std::string operatorGroup = "pitlink-operator";
};

struct LogConfig {
    std::string level = "info";
};

struct Config {
    std::filesystem::path file;  // where it was loaded from; relative paths inside resolve against it
    // The controller's settings (name, stations, denominations, reservations) and the games'
    // defaults; without `games:` also the one game's.
    TableConfig table;
    RoundTiming rounds;
    game::BetRulesConfig bets;
    std::vector<GameConfig> games{};  // 1..game::kMaxGames once loaded, in the file's order
    CashierConfig cashier;
    JournalConfig journal;
    EngineConfig engine;
    ControlConfig control;
    LogConfig log;
    platform::SchedulingSettings scheduling;  // the logic thread's (issue 18)
    sas::FloorSettings sas;                   // no links: no SAS
    modbus::TableIoSettings modbus;           // not enabled: no Modbus
    game::ProtectionRules protection;         // game protection, for every game; not enabled: none
};

// The one game `table:`, `rounds:` and `bets:` describe: the controller's game without `games:`,
// and the defaults of each entry of `games:`.
[[nodiscard]] GameConfig tableGame(const Config& c);

// The controller's first game: the one a station plays until it joins another, whose records
// are also those that name no game (a Config built in code, with no games, is its table's).
[[nodiscard]] inline const std::string& firstGameName(const Config& c) {
    return c.games.empty() ? c.table.name : c.games.front().name;
}

// The paytable the first game settles with (pitlinkd reads it at start and at SIGHUP).
[[nodiscard]] inline const std::filesystem::path& firstGamePaytable(const Config& c) {
    return c.games.empty() ? c.table.paytableFile : c.games.front().paytableFile;
}

// A path from the file as written: relative paths resolve against the file's directory.
std::filesystem::path resolved(const Config& c, const std::string& text);

// `sourceName` names the file in errors and anchors relative paths.
Config loadConfig(std::istream& in, const std::filesystem::path& sourceName);
Config loadConfigFile(const std::filesystem::path& path);

}  // namespace pitlink::config
