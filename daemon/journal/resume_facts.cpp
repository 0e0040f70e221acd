#include "daemon/journal/resume_facts.h"

#include <algorithm>
#include <iterator>
#include <map>

#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/round_records.h"
#include "daemon/journal/records/station_records.h"

namespace pitlink::journal {

using nlohmann::json;

namespace {

// "?, ?, ?" for an IN list of `n` bound values.
std::string placeholders(std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i) {
        out += i == 0 ? "?" : ", ?";
    }
    return out;
}

// The records a start-up resumes from, found in one pass over the segment (a segment is read
// once, not once per kind; a year's journal starts in the time of one scan of its active
// segment): the last of each kind or, per station, of each pair of kinds. Their bodies are read
// afterwards by sequence number.
struct LastRecord {
    std::int64_t seq = 0;
    std::string kind;
    std::optional<std::int64_t> round;
};
GameFacts firstGameFacts(const ResumeFacts& facts) {
    return GameFacts{facts.lastShoe, facts.stations, facts.disputes, facts.shoe, facts.gameLastRound};
}

void setFirstGameFacts(ResumeFacts& facts, GameFacts game) {
    facts.lastShoe = game.lastShoe;
    facts.stations = std::move(game.stations);
    facts.disputes = std::move(game.disputes);
    facts.shoe = std::move(game.shoe);
    facts.gameLastRound = game.lastRound;
}

// A game's own: "" for the first game's (also records naming no game), else the game's name.
struct GameLast {
    std::optional<std::int64_t> shoe;
    std::optional<std::int64_t> round;           // the round id of its last round.opened
    std::map<std::int64_t, LastRecord> state;    // station.state
    std::map<std::int64_t, LastRecord> dispute;  // dispute.raised or dispute.resolved
};
struct LastRecords {
    std::map<std::string, GameLast> games;
    std::optional<std::int64_t> clock;
    std::optional<std::int64_t> paytable;
    std::int64_t ticketsIssued = 0;
    std::map<std::int64_t, LastRecord> handpay;       // handpay.pending or handpay.reset
    std::map<std::int64_t, LastRecord> attendant;     // attendant.called or attendant.cleared
    std::map<std::int64_t, LastRecord> reserved;      // station.reserved
    std::map<std::int64_t, LastRecord> stationGames;  // station.games
    std::map<std::int64_t, LastRecord> walletState;   // station.state of any game
};

// The key of a game's facts for a record naming `game` (or none): "" for the first game.
std::string gameKey(std::optional<std::string_view> game, const std::string& firstGame) {
    return !game || *game == firstGame ? std::string() : std::string(*game);
}

std::string gameKeyOf(const json& body, const std::string& firstGame) {
    const auto game = body.find("game");
    if (game == body.end()) {
        return {};
    }
    return gameKey(gameNameValue(*game, "\"game\""), firstGame);
}

using ResumeRow = ResumeRecordScan::Row;

// The kinds whose last records a start-up resumes from, and those of them whose body names a game.
constexpr std::string_view kResumeKinds[] = {kind::kShoeStarted,     kind::kTicketIssued,     kind::kClockSet,
                                             kind::kPaytableLoaded,  kind::kHandpayPending,   kind::kHandpayReset,
                                             kind::kAttendantCalled, kind::kAttendantCleared, kind::kStationState,
                                             kind::kDisputeRaised,   kind::kDisputeResolved,  kind::kStationReserved,
                                             kind::kStationGames,    kind::kRoundOpened};
bool namesGame(std::string_view k) {
    return k == kind::kShoeStarted || k == kind::kStationState || k == kind::kDisputeRaised ||
           k == kind::kDisputeResolved || k == kind::kRoundOpened;
}

// The segment's records of those kinds, in order, in one scan.
std::vector<ResumeRow> scanResumeRows(JournalStore& store) {
    // The game a record names is read only for the kinds that name one (a game's own facts).
    auto scan = store.connection().prepare(
        "SELECT seq, kind, station, round_id, CASE WHEN kind IN ('shoe.started', 'station.state', 'dispute.raised', "
        "'dispute.resolved', 'round.opened') THEN json_extract(body, '$.game') END FROM record WHERE kind IN (" +
        placeholders(std::size(kResumeKinds)) + ") ORDER BY seq");
    for (std::size_t i = 0; i < std::size(kResumeKinds); ++i) {
        scan.bind(static_cast<int>(i) + 1, kResumeKinds[i]);
    }
    std::vector<ResumeRow> rows;
    while (scan.step()) {
        const auto k = std::find(std::begin(kResumeKinds), std::end(kResumeKinds), scan.text(1));
        rows.push_back(ResumeRow{scan.integer(0), *k, scan.optionalInteger(2), scan.optionalInteger(3),
                                 scan.isNull(4) ? std::nullopt : std::optional<std::string>(scan.text(4))});
    }
    return rows;
}

LastRecords lastRecords(const std::vector<ResumeRow>& rows, const std::string& firstGame) {
    LastRecords last;
    for (const ResumeRow& row : rows) {
        const std::string_view k = row.kind;
        const std::string game =
            gameKey(row.game ? std::optional<std::string_view>(*row.game) : std::nullopt, firstGame);
        const auto lastOf = [&] { return LastRecord{row.seq, std::string(k), row.round}; };
        if (k == kind::kShoeStarted) {
            last.games[game].shoe = row.seq;
        } else if (k == kind::kRoundOpened) {
            if (row.round) {
                last.games[game].round = *row.round;
            }
        } else if (k == kind::kStationState && row.station) {
            last.games[game].state[*row.station] = lastOf();
            last.walletState[*row.station] = lastOf();
        } else if ((k == kind::kDisputeRaised || k == kind::kDisputeResolved) && row.station) {
            last.games[game].dispute[*row.station] = lastOf();
        } else if (k == kind::kTicketIssued) {
            ++last.ticketsIssued;
        } else if (k == kind::kClockSet) {
            last.clock = row.seq;
        } else if (k == kind::kPaytableLoaded) {
            last.paytable = row.seq;
        } else if (row.station) {
            std::map<std::int64_t, LastRecord>& of =
                k == kind::kHandpayPending || k == kind::kHandpayReset        ? last.handpay
                : k == kind::kAttendantCalled || k == kind::kAttendantCleared ? last.attendant
                : k == kind::kStationReserved                                 ? last.reserved
                                                                              : last.stationGames;
            of[*row.station] = lastOf();
        }
    }
    return last;
}

// The facts from what the segment carried and its records of kResumeKinds (`rows`, called once
// the carried facts are read).
ResumeFacts resumeFactsFrom(JournalStore& store, const std::optional<json>& carried, const std::string& firstGame,
                            const std::function<std::vector<ResumeRow>()>& rows);

// The body of record `seq`, read as `read` reads it (BodyError when it does not fit).
template <typename Read>
auto readBodyOf(JournalStore& store, std::int64_t seq, std::string_view kind, Read&& read) {
    auto body = store.connection().prepare("SELECT body FROM record WHERE seq = ?");
    body.bind(1, seq);
    if (!body.step()) {
        throw BodyError("record " + std::to_string(seq) + " (" + std::string(kind) + ") went while it was read");
    }
    return readRecordBody(seq, kind, body.text(0), std::forward<Read>(read));
}

}  // namespace

std::optional<json> carriedState(JournalStore& store) {
    // The segment opens with it: the first few records, found by sequence number.
    const std::int64_t first = store.firstSeq();
    if (first <= 1) {
        return std::nullopt;  // the first segment, or a single-file journal
    }
    auto carried = store.connection().prepare(
        "SELECT seq, body FROM record WHERE seq BETWEEN ? AND ? AND kind = 'segment.carried' ORDER BY seq LIMIT 1");
    carried.bind(1, first).bind(2, first + 1);
    if (!carried.step()) {
        return std::nullopt;
    }
    return readRecordBody(carried.integer(0), kind::kSegmentCarried, carried.text(1), [](const json& body) {
        (void)objectField(body, "table");
        return body;
    });
}

namespace {

// A hundred years either way: far beyond what the host's clock settings can add up to, and the
// table clock's arithmetic cannot overflow.
constexpr std::int64_t kMaxOffsetMs = 100LL * 366 * 24 * 3600 * 1000;

}  // namespace

ResumeFacts resumeFactsFromJson(const json& table) {
    ResumeFacts facts;
    facts.lastRoundId = optionalIntegerField(table, "last_round", 0, kMaxInt64);
    // A game's own last round where it is not the journal's (a controller of several games);
    // absent, one game's is the journal's.
    facts.gameLastRound = table.contains("game_last_round")
                              ? optionalIntegerField(table, "game_last_round", 1, kMaxInt64)
                          : table.contains("other_games") ? std::nullopt
                                                          : facts.lastRoundId;
    if (const auto shoe = optionalIntegerField(table, "last_shoe", 0, kMaxShoeNumber)) {
        facts.lastShoe = static_cast<std::uint32_t>(*shoe);
    }
    facts.ticketsIssued = integerField(table, "tickets_issued", 0, kMaxInt64);
    facts.clockOffsetMs = integerField(table, "clock_offset_ms", -kMaxOffsetMs, kMaxOffsetMs);
    for (const auto& [station, lock] : objectField(table, "handpays").items()) {
        facts.handpays[stationKey(station)] = readBody<HandpayPendingRecord>(lock);
    }
    for (const json& station : arrayField(table, "attendant_calls")) {
        facts.attendantCalls.insert(integerValue(station, "an attendant call's station", 1, kMaxInt64));
    }
    if (table.contains("paytable")) {
        facts.paytable = objectField(table, "paytable");
    }
    if (table.contains("stations")) {  // segments sealed before issue 20 have none
        for (const auto& [station, state] : objectField(table, "stations").items()) {
            facts.stations[stationKey(station)] = stationStateFact(state);
        }
    }
    if (table.contains("wallets")) {  // only once a record named another game
        for (const auto& [station, state] : objectField(table, "wallets").items()) {
            facts.wallets[stationKey(station)] = stationStateFact(state);
        }
    }
    if (table.contains("disputes")) {  // the same: absent when none is open
        for (const auto& [station, dispute] : objectField(table, "disputes").items()) {
            facts.disputes[stationKey(station)] =
                DisputeFact{integerField(dispute, "round", 1, kMaxInt64), stringField(dispute, "text")};
        }
    }
    if (table.contains("games")) {
        for (const auto& [station, games] : objectField(table, "games").items()) {
            facts.games[stationKey(station)] = gameNamesField(json{{"games", games}}, "games");
        }
    }
    if (table.contains("reserved")) {
        for (const auto& [station, reservation] : objectField(table, "reserved").items()) {
            if (ReservationFact fact = reservationFact(reservation); fact.reserved) {  // a release carries nothing
                facts.reservations[stationKey(station)] = std::move(fact);
            }
        }
    }
    if (table.contains("shoe")) {  // segments sealed before issue 33, and RNG tables, carry none
        facts.shoe = shoeInPlayFromJson(objectField(table, "shoe"));
    }
    if (table.contains("other_games")) {  // a controller of several games
        facts.firstGame = gameNameValue(table.at("first_game"), "\"first_game\"");
        for (const auto& [name, game] : objectField(table, "other_games").items()) {
            // A game's part holds the fields of a game's own; the wallet's are the first part's.
            json part{{"tickets_issued", 0},
                      {"clock_offset_ms", 0},
                      {"handpays", json::object()},
                      {"attendant_calls", json::array()}};
            part.update(objectField(table.at("other_games"), name));
            const ResumeFacts own = resumeFactsFromJson(part);
            facts.otherGames[gameNameValue(name, "a game in \"other_games\"")] = firstGameFacts(own);
        }
    }
    return facts;
}

json segmentCarriedBody(const ResumeFacts& table, const CarriedSasState& sas) {
    return json{{"table", resumeFactsJson(table)}, {"sas", carriedSasJson(sas)}};
}

json resumeFactsJson(const ResumeFacts& facts) {
    json handpays = json::object();
    for (const auto& [station, lock] : facts.handpays) {
        json body{{"amount", lock.amount}, {"kind", lock.kind}};
        if (lock.offCredits) {
            body["off_credits"] = true;
        }
        handpays[std::to_string(station)] = std::move(body);
    }
    json table{{"tickets_issued", facts.ticketsIssued},
               {"clock_offset_ms", facts.clockOffsetMs},
               {"handpays", std::move(handpays)},
               {"attendant_calls", facts.attendantCalls}};
    if (facts.lastRoundId) {
        table["last_round"] = *facts.lastRoundId;
    }
    if (facts.lastShoe) {
        table["last_shoe"] = *facts.lastShoe;
    }
    if (facts.gameLastRound && (facts.gameLastRound != facts.lastRoundId || !facts.otherGames.empty())) {
        table["game_last_round"] = *facts.gameLastRound;
    }
    if (facts.paytable) {
        table["paytable"] = *facts.paytable;
    }
    // Absent when empty, as in segments sealed before station states existed: the audit compares
    // what a segment carried with what it recomputes, byte for byte.
    if (!facts.stations.empty()) {
        json stations = json::object();
        for (const auto& [station, state] : facts.stations) {
            stations[std::to_string(station)] = stationStateJson(state);
        }
        table["stations"] = std::move(stations);
    }
    if (!facts.otherGames.empty() && !facts.wallets.empty()) {
        json wallets = json::object();
        for (const auto& [station, state] : facts.wallets) {
            wallets[std::to_string(station)] = stationStateJson(state);
        }
        table["wallets"] = std::move(wallets);
    }
    if (!facts.disputes.empty()) {
        json disputes = json::object();
        for (const auto& [station, dispute] : facts.disputes) {
            disputes[std::to_string(station)] = json{{"round", dispute.round}, {"text", dispute.text}};
        }
        table["disputes"] = std::move(disputes);
    }
    if (!facts.games.empty()) {
        json games = json::object();
        for (const auto& [station, names] : facts.games) {
            games[std::to_string(station)] = names;
        }
        table["games"] = std::move(games);
    }
    if (!facts.reservations.empty()) {
        json reserved = json::object();
        for (const auto& [station, reservation] : facts.reservations) {
            reserved[std::to_string(station)] = reservationJson(reservation);
        }
        table["reserved"] = std::move(reserved);
    }
    if (facts.shoe) {
        table["shoe"] = shoeInPlayJson(*facts.shoe);
    }
    // Absent on a controller whose records never named a game (one game, or journals from before).
    if (!facts.otherGames.empty()) {
        json others = json::object();
        for (const auto& [name, game] : facts.otherGames) {
            ResumeFacts own;
            setFirstGameFacts(own, game);
            json part = resumeFactsJson(own);
            for (const char* wallet : {"tickets_issued", "clock_offset_ms", "handpays", "attendant_calls"}) {
                part.erase(wallet);
            }
            others[name] = std::move(part);
        }
        table["first_game"] = facts.firstGame;
        table["other_games"] = std::move(others);
    }
    return table;
}

namespace {

// The shoe in play: what the segment carried, followed through the shoe's records in the segment
// from its last shoe.started (`lastStarted`), or from the segment's first record when the shoe
// started in a segment before it. Only the records since the shoe started are read: a start-up
// reads about a shoe's worth of the active segment, however long the journal. Records of another
// game than `game` (its key, gameKey) are passed over.
std::optional<ShoeInPlay> followShoeFrom(JournalStore& store, std::optional<ShoeInPlay> carried,
                                         std::optional<std::int64_t> lastStarted, const std::string& game,
                                         const std::string& firstGame) {
    if (!lastStarted && !carried) {
        return std::nullopt;
    }
    const std::vector<std::string_view> kinds = shoeRecordKinds();
    // "+kind": the range of sequence numbers, not an index on kind, picks the rows.
    auto records = store.connection().prepare("SELECT seq, kind, body FROM record WHERE seq >= ? AND +kind IN (" +
                                              placeholders(kinds.size()) + ") ORDER BY seq");
    records.bind(1, lastStarted.value_or(store.firstSeq()));
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        records.bind(static_cast<int>(i) + 2, kinds[i]);
    }
    std::optional<ShoeInPlay> shoe = std::move(carried);
    while (records.step()) {
        const std::string_view kind = records.text(1);
        readRecordBody(records.integer(0), kind, records.text(2), [&](const json& body) {
            if (gameKeyOf(body, firstGame) == game) {
                followShoe(shoe, kind, body);
            }
            return 0;
        });
    }
    return shoe;
}

// What the segment carried over ("table" part), or nothing for the first segment.
ResumeFacts carriedFacts(const std::optional<json>& carried) {
    if (!carried) {
        return {};
    }
    try {
        return resumeFactsFromJson(objectField(*carried, "table"));
    } catch (const json::exception& error) {
        throw BodyError(std::string("the segment's carried state (segment.carried): ") + error.what());
    }
}

// A game's own facts: what the segment carried for it, then its records in the segment.
void readGameFacts(JournalStore& store, const GameLast& last, GameFacts& facts) {
    if (last.round) {
        facts.lastRound = last.round;
    }
    if (last.shoe) {
        facts.lastShoe = readBodyOf(store, *last.shoe, kind::kShoeStarted, [](const json& body) {
            return static_cast<std::uint32_t>(integerField(body, "shoe", 0, kMaxShoeNumber));
        });
    }
    for (const auto& [station, record] : last.state) {
        facts.stations[station] = readBodyOf(store, record.seq, kind::kStationState, stationStateFact);
    }
    for (const auto& [station, record] : last.dispute) {
        // Journals before issue 20 noted disputes without holding the table (no "held").
        const auto held = record.kind == kind::kDisputeRaised && record.round
                              ? readBodyOf(store, record.seq, kind::kDisputeRaised,
                                           [](const json& body) {
                                               return body.contains("held") && booleanField(body, "held")
                                                          ? std::optional(stringField(body, "text"))
                                                          : std::nullopt;
                                           })
                              : std::nullopt;
        if (held) {
            facts.disputes[station] = DisputeFact{*record.round, *held};
        } else {
            facts.disputes.erase(station);
        }
    }
}

// The first game: the caller's, else the one the carried state names.
std::string firstGameOf(const std::string& firstGame, const ResumeFacts& carried) {
    return firstGame.empty() ? carried.firstGame : firstGame;
}

}  // namespace

GameFacts ResumeFacts::game(const std::string& name) const {
    if (const auto it = otherGames.find(name); it != otherGames.end()) {
        return it->second;
    }
    if (name.empty() || name == firstGame || firstGame.empty()) {
        return firstGameFacts(*this);
    }
    return {};  // a game that has written nothing yet
}

std::optional<ShoeInPlay> resumeShoe(JournalStore& store, const std::optional<json>& carried, const std::string& game,
                                     const std::string& firstGame) {
    const ResumeFacts before = carriedFacts(carried);
    const std::string first = firstGameOf(firstGame, before);
    const std::string key = gameKey(game.empty() ? std::nullopt : std::optional<std::string_view>(game), first);
    // The game's last shoe.started: the newest first, the first one of the game.
    auto last = store.connection().prepare(
        "SELECT seq, json_extract(body, '$.game') FROM record WHERE kind = 'shoe.started' ORDER BY seq DESC");
    std::optional<std::int64_t> lastStarted;
    while (last.step()) {
        if (gameKey(last.isNull(1) ? std::nullopt : std::optional<std::string_view>(last.text(1)), first) == key) {
            lastStarted = last.integer(0);
            break;
        }
    }
    const GameFacts carriedGame = key.empty() ? firstGameFacts(before) : before.game(key);
    return followShoeFrom(store, carriedGame.shoe, lastStarted, key, first);
}

ResumeFacts resumeFacts(JournalStore& store, const std::string& firstGame) {
    return resumeFacts(store, carriedState(store), firstGame);
}

ResumeFacts resumeFacts(JournalStore& store, const std::optional<json>& carried, const std::string& firstGame) {
    return resumeFactsFrom(store, carried, firstGame, [&] { return scanResumeRows(store); });
}

void ResumeRecordScan::visit(const JournalRecord& record) {
    const auto k = std::find(std::begin(kResumeKinds), std::end(kResumeKinds), record.kind);
    if (k == std::end(kResumeKinds)) {
        return;
    }
    Row row{record.seq, *k, record.station, record.roundId, std::nullopt};
    if (namesGame(*k)) {
        if (auto game = bodies_.memberAsSqlText(record.body, "game")) {
            row.game = std::move(*game);
        } else {
            gamesToRead_.push_back(rows_.size());
        }
    }
    rows_.push_back(std::move(row));
}

ResumeFacts resumeFacts(JournalStore& store, const std::optional<json>& carried, const std::string& firstGame,
                        ResumeRecordScan&& scan) {
    return resumeFactsFrom(store, carried, firstGame, [&] {
        // What the scan could not read as SQLite reads it, SQLite reads (a body with escapes).
        auto game = store.connection().prepare("SELECT json_extract(body, '$.game') FROM record WHERE seq = ?");
        for (const std::size_t i : scan.gamesToRead_) {
            ResumeRecordScan::Row& row = scan.rows_[i];
            game.reset();
            game.bind(1, row.seq);
            if (!game.step()) {
                throw BodyError("record " + std::to_string(row.seq) + " (" + std::string(row.kind) +
                                ") went while it was read");
            }
            row.game = game.isNull(0) ? std::nullopt : std::optional<std::string>(game.text(0));
        }
        return std::move(scan.rows_);
    });
}

namespace {

ResumeFacts resumeFactsFrom(JournalStore& store, const std::optional<json>& carried, const std::string& firstGame,
                            const std::function<std::vector<ResumeRow>()>& rows) {
    ResumeFacts facts = carriedFacts(carried);
    const std::string first = firstGameOf(firstGame, facts);
    // The newest round number: the segment's may be an older round's (a re-settlement of a round
    // of a segment before it is the only round record of the segment).
    if (const auto round = store.lastRoundId()) {
        facts.lastRoundId = std::max(facts.lastRoundId.value_or(0), *round);
    }
    const LastRecords last = lastRecords(rows(), first);
    facts.ticketsIssued += last.ticketsIssued;
    if (last.clock) {
        facts.clockOffsetMs = readBodyOf(store, *last.clock, kind::kClockSet, [](const json& body) {
            return integerField(body, "offset_ms", -kMaxOffsetMs, kMaxOffsetMs);
        });
    }
    for (const auto& [station, record] : last.handpay) {
        if (record.kind == kind::kHandpayPending) {
            facts.handpays[station] =
                readBodyOf(store, record.seq, kind::kHandpayPending, readBody<HandpayPendingRecord>);
        } else {
            facts.handpays.erase(station);
        }
    }
    for (const auto& [station, record] : last.attendant) {
        if (record.kind == kind::kAttendantCalled) {
            facts.attendantCalls.insert(station);
        } else {
            facts.attendantCalls.erase(station);
        }
    }
    for (const auto& [station, record] : last.reserved) {
        const ReservationFact reservation = readBodyOf(store, record.seq, kind::kStationReserved, reservationFact);
        if (reservation.reserved && reservation.untilMs > 0) {  // before issue 20 a reservation locked nothing
            facts.reservations[station] = reservation;
        } else {
            facts.reservations.erase(station);
        }
    }
    for (const auto& [station, record] : last.walletState) {
        facts.wallets[station] = readBodyOf(store, record.seq, kind::kStationState, stationStateFact);
    }
    for (const auto& [station, record] : last.stationGames) {
        facts.games[station] = readBodyOf(store, record.seq, kind::kStationGames, readBody<StationGamesRecord>).games;
    }
    if (last.paytable) {
        facts.paytable = readBodyOf(store, *last.paytable, kind::kPaytableLoaded, [](const json& body) {
            (void)objectField(body, "content");
            return body;
        });
    }
    // Each game's own, the first game's in the fields of old. Every game the carried state or the
    // segment knows is followed.
    std::set<std::string> games{""};
    for (const auto& [name, game] : facts.otherGames) {
        games.insert(name);
    }
    for (const auto& [name, game] : last.games) {
        games.insert(name);
    }
    for (const std::string& key : games) {
        GameFacts game = key.empty() ? firstGameFacts(facts) : facts.otherGames[key];
        const auto it = last.games.find(key);
        if (it != last.games.end()) {
            readGameFacts(store, it->second, game);
        }
        game.shoe = followShoeFrom(store, std::move(game.shoe), it != last.games.end() ? it->second.shoe : std::nullopt,
                                   key, first);
        if (key.empty()) {
            setFirstGameFacts(facts, std::move(game));
        } else {
            facts.otherGames[key] = std::move(game);
        }
    }
    facts.firstGame = first;
    return facts;
}

}  // namespace

void forEachStationRecord(JournalStore& store, std::span<const std::string_view> kinds,
                          const std::function<void(const StationRecord&)>& visit) {
    auto records = store.connection().prepare(
        "SELECT kind, station, body, at_ms FROM record WHERE station IS NOT NULL "
        "AND kind IN (" +
        placeholders(kinds.size()) + ") ORDER BY seq");
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        records.bind(static_cast<int>(i) + 1, kinds[i]);
    }
    while (records.step()) {
        const json body = json::parse(records.text(2), nullptr, false);
        visit(StationRecord{records.text(0), records.integer(1), body, records.integer(3)});
    }
}

std::vector<std::int64_t> roundsOfShoe(SegmentedJournal& journal, std::int64_t shoe) {
    // The newest segment first; a shoe's rounds lie in one segment or a few consecutive ones.
    std::vector<std::int64_t> rounds;
    for (std::size_t i = journal.size(); i-- > 0;) {
        auto query = journal.segment(i).connection().prepare(
            "SELECT round_id FROM record WHERE kind = 'round.opened' AND json_extract(body, '$.shoe') = ? "
            "ORDER BY round_id");
        query.bind(1, shoe);
        std::vector<std::int64_t> part;
        while (query.step()) {
            part.push_back(query.integer(0));
        }
        if (part.empty() && !rounds.empty()) {
            break;
        }
        rounds.insert(rounds.begin(), part.begin(), part.end());
    }
    return rounds;
}

}  // namespace pitlink::journal
