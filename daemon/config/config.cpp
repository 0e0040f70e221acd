#include "daemon/config/config.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <set>
#include <utility>

#include "daemon/config/modbus_config.h"
#include "daemon/config/protection_config.h"
#include "daemon/config/sas_config.h"
#include "daemon/config/yaml_map.h"

namespace pitlink::config {

std::filesystem::path resolved(const Config& c, const std::string& text) {
    std::filesystem::path path = text;
    return path.empty() || path.is_absolute() ? path : c.file.parent_path() / path;
}

namespace {
constexpr std::int64_t kMaxMoney = 1'000'000'000'000;  // 10^12 minor units: far above any table limit

// The keys a game has, over `g`'s values: read in table: (the one game, or the games' defaults)
// and in each games entry. `Game` is TableConfig or GameConfig (the same members).
template <typename Game>
void readGameKeys(YamlMap& map, const Config& c, Game& g) {
    const std::string source = map.string("source", g.rngShoe ? "rng" : "reader");
    if (source != "rng" && source != "reader") {
        throw map.error("source", "expected rng or reader");
    }
    g.rngShoe = source == "rng";
    g.rescanAttempts = static_cast<int>(map.integer("rescan_attempts", g.rescanAttempts, 0, 10));
    g.readerTimeout =
        std::chrono::milliseconds(map.integer("reader_timeout_ms", g.readerTimeout.count(), 0, 3'600'000));
    g.naturalsOnBigRoad = map.boolean("naturals_on_big_road", g.naturalsOnBigRoad);
    g.shoe.decks = static_cast<int>(map.integer("decks", g.shoe.decks, game::kMinDecks, game::kMaxDecks));
    g.shoe.cutCardFromEnd = static_cast<int>(map.integer("cut_card_from_end", g.shoe.cutCardFromEnd, 1,
                                                         std::int64_t{game::kMaxDecks} * game::kCardsPerDeck));
    if (const auto problem = game::shoeConfigProblem(g.shoe)) {
        // A game that sets only decks keeps table.cut_card_from_end: its decks cannot take it.
        const bool own = map.has("cut_card_from_end") || !map.has("decks");
        throw map.error(
            own ? "cut_card_from_end" : "decks",
            *problem + (own ? "" : " (cut_card_from_end " + std::to_string(g.shoe.cutCardFromEnd) + " from table)"));
    }
    std::filesystem::path paytable = map.string("paytable", g.paytableFile.string());
    if (paytable.is_relative()) {
        paytable = c.file.parent_path() / paytable;
    }
    g.paytableFile = paytable;
}

void readTable(YamlMap map, Config& c) {
    c.table.name = map.string("name", c.table.name);
    c.table.stations = static_cast<int>(map.integer("stations", c.table.stations, 1, 64));
    c.table.denomination = map.integer("denomination", c.table.denomination, 1, 1'000'000);
    c.table.denominations = {c.table.denomination};
    if (const auto list = map.node("denominations")) {
        if (!list->IsSequence() || list->size() == 0 || list->size() > 16) {
            throw map.error(*list, "denominations", "expected a list of 1 to 16 values (minor units per credit)");
        }
        c.table.denominations.clear();
        for (const YAML::Node& item : *list) {
            game::Money value = 0;
            if (!YAML::convert<game::Money>::decode(item, value) || value < 1 || value > 1'000'000 ||
                value % c.table.denomination != 0) {
                throw map.error(item, "denominations",
                                "each must be a whole multiple of table.denomination, up to 1000000 minor units");
            }
            if (std::find(c.table.denominations.begin(), c.table.denominations.end(), value) ==
                c.table.denominations.end()) {
                c.table.denominations.push_back(value);
            }
        }
        if (std::find(c.table.denominations.begin(), c.table.denominations.end(), c.table.denomination) ==
            c.table.denominations.end()) {
            throw map.error(*list, "denominations", "must include table.denomination (the stations' first)");
        }
    }
    c.table.reserveTimeout =
        std::chrono::minutes(map.integer("reserve_minutes", c.table.reserveTimeout.count(), 1, 240));
    readGameKeys(map, c, c.table);
    map.rejectUnknownKeys();
}

// rounds: (the one game's, or the games' defaults) or a games entry's, over `r`'s values;
// `sourceKey` names the key that made the game's shoe what it is (for the error).
void readRounds(YamlMap map, bool rngShoe, const std::string& sourceKey, RoundTiming& r) {
    r.betsOpen = std::chrono::milliseconds(map.integer("bets_open_ms", r.betsOpen.count(), 0, 600'000));
    r.lastBets = std::chrono::milliseconds(map.integer("last_bets_ms", r.lastBets.count(), 0, 600'000));
    const std::string start = map.string("start", r.startOnDeal ? "deal" : "timer");
    if (start != "timer" && start != "deal") {
        throw map.error("start", "expected timer or deal");
    }
    r.startOnDeal = start == "deal";
    if (r.startOnDeal && !rngShoe) {
        throw map.error("start",
                        "deal needs " + sourceKey + ": rng (at a live table the dealer deals when bets close)");
    }
    r.confirmBets = map.boolean("confirm_bets", r.confirmBets);
    if (r.confirmBets && r.startOnDeal) {
        throw map.error(map.has("confirm_bets") ? "confirm_bets" : "start",
                        "with start: deal, the station's DEAL is its confirmation");
    }
    map.rejectUnknownKeys();
}

// The min and max of a stake range (max >= min) from `map`; both required when `required`.
game::StakeRange readRange(YamlMap& map, game::StakeRange fallback, bool required) {
    if (required && (!map.has("min") || !map.has("max"))) {
        throw map.error(map.has("min") ? "max" : "min", "a range needs both min and max");
    }
    game::StakeRange range;
    range.min = map.integer("min", fallback.min, 1, kMaxMoney);
    range.max = map.integer("max", fallback.max, 1, kMaxMoney);
    if (range.max < range.min) {
        throw map.error("max", "must not be below " + map.keyPath("min") + " (" + std::to_string(range.min) + ")");
    }
    return range;
}

// {spot: {min, max}, ...}: the spots' own ranges.
game::SpotRanges readSpotRanges(YamlMap map) {
    game::SpotRanges ranges{};
    for (const std::string& key : map.keys()) {
        const auto spot = game::parseBetType(key);
        if (!spot) {
            throw map.error(key, "not a bet spot (player, banker, tie, player_pair, ...)");
        }
        YamlMap range = map.map(key);
        ranges[static_cast<std::size_t>(*spot)] = readRange(range, {}, true);
        range.rejectUnknownKeys();
    }
    return ranges;
}

// bets.min/bets.max (one level) or bets.levels, and bets.spots.
void readLimits(YamlMap& map, game::TableLimits& limits) {
    const auto levels = map.node("levels");
    if (levels && (map.has("min") || map.has("max"))) {
        throw map.error("levels", "give either bets.min/bets.max (one level) or bets.levels, not both");
    }
    if (!levels) {
        // min or max: one level (the other bound from the first level so far); neither: the
        // levels so far (the default one, or a game's from the top-level bets).
        if (map.has("min") || map.has("max")) {
            limits.levels = {game::LimitLevel{readRange(map, limits.levels.front().main, false), {}}};
        }
    } else {
        if (!levels->IsSequence() || levels->size() == 0 || levels->size() > 20) {
            throw map.error(*levels, "levels", "expected a list of 1 to 20 levels ({min, max, spots})");
        }
        limits.levels.clear();
        for (std::size_t i = 0; i < levels->size(); ++i) {
            YamlMap level((*levels)[i], map.keyPath("levels") + "[" + std::to_string(i) + "]", map.file());
            game::LimitLevel read;
            read.main = readRange(level, {}, true);
            read.spots = readSpotRanges(level.map("spots"));
            level.rejectUnknownKeys();
            limits.levels.push_back(read);
        }
    }
    if (map.has("spots")) {
        limits.spots = readSpotRanges(map.map("spots"));
    }
}

// bets: (the one game's, or the games' defaults) or a games entry's, over `b`'s values.
void readBets(YamlMap map, game::BetRulesConfig& b) {
    readLimits(map, b.limits);
    b.maxPayout = map.integer("max_payout", b.maxPayout, 1, kMaxMoney);
    b.tieNeedsMainBet = map.boolean("tie_needs_main_bet", b.tieNeedsMainBet);
    b.forbidPlayerAndBanker = map.boolean("forbid_player_and_banker", b.forbidPlayerAndBanker);
    b.bigSmallLastRound = static_cast<int>(map.integer("big_small_last_round", b.bigSmallLastRound, 0, 1000));
    b.luckyNinesNeedsMainBet = map.boolean("lucky_nines_needs_main_bet", b.luckyNinesNeedsMainBet);
    b.antiDoubling = map.boolean("anti_doubling", b.antiDoubling);
    map.rejectUnknownKeys();
}

// games: 1..game::kMaxGames entries over the defaults of table:, rounds: and bets: (read before);
// absent: the one game those sections describe.
void readGames(YamlMap& top, Config& c) {
    const GameConfig defaults = tableGame(c);
    const auto list = top.node("games");
    if (!list) {
        c.games = {defaults};
        return;
    }
    if (!list->IsSequence() || list->size() == 0 || list->size() > game::kMaxGames) {
        throw top.error(*list, "games",
                        "expected a list of 1 to " + std::to_string(game::kMaxGames) + " games ({name, ...})");
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        YamlMap entry((*list)[i], top.keyPath("games") + "[" + std::to_string(i) + "]", top.file());
        GameConfig g = defaults;
        g.name = entry.requiredString("name");
        if (!game::isGameName(g.name)) {
            throw entry.error("name", "expected 1 to 32 characters of a-z, 0-9, _ and -, got '" + g.name + "'");
        }
        for (std::size_t j = 0; j < c.games.size(); ++j) {
            if (c.games[j].name == g.name) {
                throw entry.error("name", "'" + g.name + "' is games[" + std::to_string(j) + "]'s name too");
            }
        }
        readGameKeys(entry, c, g);
        YamlMap rounds = entry.map("rounds");
        const std::string sourceKey = entry.has("source") ? entry.keyPath("source") : "table.source";
        if (g.rounds.startOnDeal && !g.rngShoe && !rounds.has("start")) {
            throw entry.error("source", "reader needs rounds.start: timer (this game takes start: deal from rounds)");
        }
        readRounds(std::move(rounds), g.rngShoe, sourceKey, g.rounds);
        readBets(entry.map("bets"), g.bets);
        entry.rejectUnknownKeys();
        c.games.push_back(std::move(g));
    }
}

void readCashier(YamlMap map, Config& c) {
    auto& k = c.cashier;
    k.ticketLimit = map.integer("ticket_limit", k.ticketLimit, 0, kMaxMoney);
    k.jackpotLimit = map.integer("jackpot_limit", k.jackpotLimit, 0, kMaxMoney);
    k.ticketInLocal = map.boolean("ticket_in_local", k.ticketInLocal);
    k.ticketInMax = map.integer("ticket_in_max", k.ticketInMax, 1, kMaxMoney);
    map.rejectUnknownKeys();
}

void readJournal(YamlMap map, Config& c) {
    auto& j = c.journal;
    j.path = resolved(c, map.string("path", j.path.string()));
    if (j.path.empty()) {
        throw map.error("path", "must name the journal file");
    }
    j.keyFile = resolved(c, map.string("key_file", j.keyFile.string()));
    j.snapshotEvery = map.integer("snapshot_every", j.snapshotEvery, 100, 1'000'000);
    j.fullChainCheckAtStart = map.boolean("full_chain_check_at_start", j.fullChainCheckAtStart);
    j.segmentMaxAgeHours = map.integer("segment_max_age_hours", j.segmentMaxAgeHours, 0, std::int64_t{24} * 366);
    constexpr std::int64_t kMb = 1'000'000;
    j.segmentMaxBytes = map.integer("segment_max_mb", j.segmentMaxBytes / kMb, 0, std::int64_t{1024} * 1024) * kMb;
    map.rejectUnknownKeys();
}

void readEngine(YamlMap map, Config& c) {
    c.engine.socket = resolved(c, map.string("socket", c.engine.socket.string()));
    c.engine.tcpPort = static_cast<std::uint16_t>(map.integer("tcp_port", c.engine.tcpPort, 0, 65535));
    map.rejectUnknownKeys();
}

void readControl(YamlMap map, Config& c) {
    c.control.socket = resolved(c, map.string("socket", c.control.socket.string()));
    c.control.inspectorGroup = map.string("inspector_group", c.control.inspectorGroup);
    c.control.operatorGroup = map.string("operator_group", c.control.operatorGroup);
    map.rejectUnknownKeys();
}

void readLog(YamlMap map, Config& c) {
    static constexpr std::array<const char*, 6> kLevels{"trace", "debug", "info", "warn", "error", "critical"};
    c.log.level = map.string("level", c.log.level);
    for (const char* level : kLevels) {
        if (c.log.level == level) {
            map.rejectUnknownKeys();
            return;
        }
    }
    throw map.error("level", "expected one of trace, debug, info, warn, error, critical");
}
void readScheduling(YamlMap map, Config& c) {
    platform::SchedulingSettings& s = c.scheduling;
    const std::string policy = map.string("policy", "fifo");
    if (policy == "fifo") {
        s.policy = platform::SchedulingPolicy::Fifo;
    } else if (policy == "rr") {
        s.policy = platform::SchedulingPolicy::RoundRobin;
    } else if (policy == "other") {
        s.policy = platform::SchedulingPolicy::Other;
    } else {
        throw map.error("policy", "expected fifo, rr or other");
    }
    s.priority = static_cast<int>(map.integer("priority", s.priority, 1, 99));
    s.lockMemory = map.boolean("lock_memory", s.lockMemory);
    map.rejectUnknownKeys();
}
}  // namespace

GameConfig tableGame(const Config& c) {
    GameConfig game;
    game.name = c.table.name;
    game.rngShoe = c.table.rngShoe;
    game.shoe = c.table.shoe;
    game.paytableFile = c.table.paytableFile;
    game.rescanAttempts = c.table.rescanAttempts;
    game.readerTimeout = c.table.readerTimeout;
    game.naturalsOnBigRoad = c.table.naturalsOnBigRoad;
    game.rounds = c.rounds;
    game.bets = c.bets;
    return game;
}

Config loadConfig(std::istream& in, const std::filesystem::path& sourceName) {
    Config c;
    c.file = sourceName;
    YamlMap top(parseYaml(in, sourceName.string()), "", sourceName.string());
    readTable(top.map("table"), c);
    readRounds(top.map("rounds"), c.table.rngShoe, "table.source", c.rounds);
    readBets(top.map("bets"), c.bets);
    readGames(top, c);
    readCashier(top.map("cashier"), c);
    readJournal(top.map("journal"), c);
    readEngine(top.map("engine"), c);
    readControl(top.map("control"), c);
    readLog(top.map("log"), c);
    readScheduling(top.map("scheduling"), c);
    readSas(top.map("sas"), c);
    readModbus(top.map("modbus"), c);
    readProtection(top.map("protection"), c.protection);
    top.rejectUnknownKeys();
    return c;
}

Config loadConfigFile(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) {
        throw ConfigError(path.string(), 0, 0, "", "cannot open configuration file");
    }
    return loadConfig(in, path);
}

}  // namespace pitlink::config
