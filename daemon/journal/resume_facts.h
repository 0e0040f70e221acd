#pragma once
// What the daemon resumes at start that is not in the ledger's snapshots, read from the journal
// with one query each (the journal owns its SQL: no other folder writes a statement). Each reader
// gives typed facts; a body whose fields do not fit stops the start-up with journal::BodyError
// naming the record, as everywhere else.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/journal/records/body_parser.h"
#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/fact_views.h"
#include "daemon/journal/records/sas_records.h"
#include "daemon/journal/records/station_state.h"
#include "daemon/journal/segments/segmented_journal.h"
#include "daemon/journal/shoe_in_play.h"
#include "daemon/journal/store/journal_store.h"

namespace pitlink::journal {

// What one game of a controller of several resumes of its own (records naming it, `game`).
struct GameFacts {
    std::optional<std::uint32_t> lastShoe;
    std::map<std::int64_t, StationState> stations;  // each station's last station.state in the game
    std::map<std::int64_t, DisputeFact> disputes;
    std::optional<ShoeInPlay> shoe;
    std::optional<std::int64_t> lastRound;  // its last round opened: the "last deal" a dispute may name
};

// What the daemon resumes at start that is not in the ledger's snapshots. A segment after the
// first carries these over from the segments before it (its `segment.carried` "table" part), so
// that a start-up reads the active segment only: the carried facts, then the segment's records.
struct ResumeFacts {
    std::optional<std::int64_t> lastRoundId;
    std::optional<std::uint32_t> lastShoe;  // the number of the last shoe started
    std::int64_t ticketsIssued = 0;         // the next ticket's number is one more
    std::int64_t clockOffsetMs = 0;         // of the last clock.set (0 when there is none)
    // Stations whose last hand-pay record is a pending one: they stay locked across a restart.
    std::map<std::int64_t, HandpayPendingRecord> handpays;
    // Stations whose last attendant record is a call not yet cleared.
    std::set<std::int64_t> attendantCalls;
    // Each station's last station.state.
    std::map<std::int64_t, StationState> stations;
    // Each station's last station.state in any game, whose denomination and personal limits are
    // its wallet's (a change made through another game than the first is in that game's record).
    // Carried as `wallets` once a record named another game; a station without one: `stations`.
    std::map<std::int64_t, StationState> wallets;
    // Stations whose last dispute record is a dispute.raised not yet resolved.
    std::map<std::int64_t, DisputeFact> disputes;
    // Stations whose last station.reserved reserved them (until when, on the table clock).
    std::map<std::int64_t, ReservationFact> reservations;
    // Each station's games after its last station.game (absent: the station never joined or left
    // one, and plays the first game).
    std::map<std::int64_t, std::vector<std::string>> games;
    // The last paytable.loaded body: a round left unfinished in the next segment is settled with it.
    std::optional<nlohmann::json> paytable;
    // A reader's shoe in play (shoe_in_play.h); none when the last shoe started is an RNG shoe, or
    // when it started in a segment sealed before issue 33 (whose carried state holds no shoe).
    std::optional<ShoeInPlay> shoe;
    // The first game's last round opened (segment.carried `game_last_round` where it is not
    // `last_round`, and always on a controller of several games).
    std::optional<std::int64_t> gameLastRound;
    // A controller of several games (schema/README.md "Games"): the fields above are the first
    // game's (records naming it or no game: journals from before games, or from when the
    // controller had one); each other game's own are here, by name.
    std::string firstGame;  // empty: no record named another game
    std::map<std::string, GameFacts> otherGames;
    // What game `name` resumes: the fields above for the first game (or `name` empty).
    [[nodiscard]] GameFacts game(const std::string& name) const;
};
// The records of a segment that its resume facts take the last of (resumeFacts scans the segment
// for them), taken instead from a pass that reads every record of the segment anyway: the
// inspector's audit, which then needs no second scan of each segment.
class ResumeRecordScan {
public:
    // One record of those kinds, with the game its body names where its kind names one.
    struct Row {
        std::int64_t seq = 0;
        std::string_view kind;  // a kind::k... constant
        std::optional<std::int64_t> station;
        std::optional<std::int64_t> round;
        std::optional<std::string> game;  // as json_extract(body, '$.game') gives it; nullopt: NULL
    };
    // Each record of the segment, in order.
    void visit(const JournalRecord& record);

private:
    friend ResumeFacts resumeFacts(JournalStore&, const std::optional<nlohmann::json>&, const std::string&,
                                   ResumeRecordScan&&);
    std::vector<Row> rows_;
    std::vector<std::size_t> gamesToRead_;  // rows whose game SQLite itself is to read
    BodyParser bodies_;
};

// `firstGame`: the controller's first game (pitlink.yaml), whose records are also those that
// name no game; empty: the one the carried state names, else none (records naming a game are
// then all other games').
[[nodiscard]] ResumeFacts resumeFacts(JournalStore& store, const std::string& firstGame = {});
// The same from the segment's `segment.carried` body as the caller already read it (carriedState).
[[nodiscard]] ResumeFacts resumeFacts(JournalStore& store, const std::optional<nlohmann::json>& carried,
                                      const std::string& firstGame = {});
// The same from `scan`, which visited every record of the segment.
[[nodiscard]] ResumeFacts resumeFacts(JournalStore& store, const std::optional<nlohmann::json>& carried,
                                      const std::string& firstGame, ResumeRecordScan&& scan);
[[nodiscard]] nlohmann::json resumeFactsJson(const ResumeFacts& facts);
// The "table" part of segment.carried back; a field that does not fit throws json::exception.
[[nodiscard]] ResumeFacts resumeFactsFromJson(const nlohmann::json& table);

// The reader's shoe in play alone, as resumeFacts reads it: after a start-up's recovery finished
// the round left unfinished (its settlement is one of the shoe's results).
// `game` as in ResumeFacts::game.
[[nodiscard]] std::optional<ShoeInPlay> resumeShoe(JournalStore& store, const std::optional<nlohmann::json>& carried,
                                                   const std::string& game = {}, const std::string& firstGame = {});

// The body of a segment's `segment.carried` record: the table's part and the SAS floor's.
[[nodiscard]] nlohmann::json segmentCarriedBody(const ResumeFacts& table, const CarriedSasState& sas);

// The body of the segment's `segment.carried` record, if it has one (segments after the first).
[[nodiscard]] std::optional<nlohmann::json> carriedState(JournalStore& store);

// One record about a station, for a resume that replays them in journal order.
struct StationRecord {
    std::string_view kind;
    std::int64_t station = 0;
    const nlohmann::json& body;  // discarded (not an object) when it did not parse
    std::int64_t atMs = 0;
};
// Every record of these kinds that names a station, in journal order.
void forEachStationRecord(JournalStore& store, std::span<const std::string_view> kinds,
                          const std::function<void(const StationRecord&)>& visit);

// The rounds of one shoe, in order.
[[nodiscard]] std::vector<std::int64_t> roundsOfShoe(SegmentedJournal& journal, std::int64_t shoe);

}  // namespace pitlink::journal
