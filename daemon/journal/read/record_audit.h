#pragma once
// The audit's checks of records in order, whatever reads them and checks their links: the meters
// replayed against every snapshot, and every round followed to its end. One RecordAuditor follows
// a whole journal; a segment audited on its own, beside the others (audit.cpp), is followed by one
// that does not know what came before it and is then joined to the one that does (absorb), with
// the same outcome as one auditor reading every record in turn.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "daemon/game/wide_int.h"
#include "daemon/journal/ledger/ledger_replay.h"
#include "daemon/journal/records/body_parser.h"
#include "daemon/journal/records/round_records.h"
#include "daemon/journal/store/record.h"

namespace pitlink::journal {

struct AuditReport;

// A problem with the record at which it was found (the order of one auditor reading every record).
using FoundProblem = std::pair<std::int64_t, std::string>;

// Follows one round at a time per game (a game's round opens only when its round before has
// ended; a controller of several games names each round's game, schema/README.md "Games") and
// checks it when the game's next opens: settled or voided once; every bet standing covered by
// exactly one settlement of its round, of its station and spot and for the sum of the stakes it
// covers (by spot: one settlement per station's spot); and the credits of the round equal to what
// its settlement or void says.
class RoundAuditor {
public:
    // `fresh`: it follows records from the middle of a journal without the rounds open before
    // them; it keeps what it cannot place for absorb().
    explicit RoundAuditor(bool fresh = false) : fresh_(fresh) {}
    // Whether visit() reads the body of a record of this kind.
    [[nodiscard]] static bool readsBody(std::string_view kind);
    void visit(const JournalRecord& record, const nlohmann::json& body);
    // `next` followed the records right after this one's, fresh: what it could not place is
    // placed here (its records of rounds it never saw open, each game's first opening), then its
    // rounds, counts and problems become this one's. This one is not fresh (std::logic_error).
    void absorb(RoundAuditor&& next);
    // False when a round this auditor holds open has the number of one `next` opened: a record
    // of that number is then placed by which round one pass holds open, which `next` cannot know
    // (only in a journal whose round numbers repeat).
    [[nodiscard]] bool canAbsorb(const RoundAuditor& next) const;
    // At the journal's end: each game's last round may still be running.
    void finish();

    [[nodiscard]] std::int64_t rounds() const { return rounds_; }
    [[nodiscard]] const std::map<std::string, std::int64_t>& roundsByGame() const { return roundsByGame_; }
    // In the order one auditor reading every record would have found them.
    [[nodiscard]] std::vector<std::string> problems() const;

private:
    struct StandingBet {
        std::int64_t station = 0;
        std::string spot;
        Money stake = 0;
    };
    // One bet.settled: whom and what it settled, and the bets it says it covers.
    struct Settlement {
        std::int64_t seq = 0;
        std::int64_t station = 0;
        std::string spot;
        Money stake = 0;
        std::vector<std::int64_t> covers;
    };
    // Sums of a round's money by station, on 128 bits: a forged journal may hold any number of records.
    using Sums = std::map<std::int64_t, game::Int128>;
    // What the auditor follows of a round in progress.
    struct Track {
        std::int64_t id = 0;
        game::SettleRule rule = game::SettleRule::PerBet;
        std::map<std::int64_t, StandingBet> stakes;  // bet index -> the bet, while it stands
        std::vector<Settlement> settlements;
        Sums expectedByStation;
        Sums creditedByStation;
        int endings = 0;
        bool voided = false;
    };
    // A record a fresh auditor could not place: of a round opened before its first record.
    struct Unplaced {
        JournalRecord record;
        nlohmann::json body;
    };

    void place(Track& t, const JournalRecord& record, const nlohmann::json& body);
    // `last`: the game's last round, which may still be running; `at`: the record that ended it.
    void finish(const Track& t, bool last, std::int64_t at);
    void checkCoverage(const Track& t, std::int64_t at);
    void problem(const Track& t, std::int64_t at, const std::string& what);

    bool fresh_;
    std::map<std::string, Track> open_;  // by game ("": a round that names none)
    std::int64_t rounds_ = 0;
    std::map<std::string, std::int64_t> roundsByGame_;  // the rounds naming a game, by game
    std::vector<FoundProblem> problems_;
    // Fresh only: each game's first round.opened, and the records of rounds not open here.
    std::map<std::string, std::int64_t> firstOpening_;
    std::set<std::int64_t> openedIds_;
    std::vector<Unplaced> unplaced_;
};

// Meters and rounds, record by record.
class RecordAuditor {
public:
    // Where the records start.
    enum class Start {
        FromFirst,          // record 1: the meters are replayed from zero
        FromFirstSnapshot,  // the oldest records archived away: replayed from the first snapshot on
        Unknown,            // a segment audited beside those before it, joined to them by absorb()
    };
    explicit RecordAuditor(Start start);

    // Empty, or what is wrong with the record.
    std::string visit(const JournalRecord& record);
    // `next` audited the records right after this one's from Start::Unknown. False, with nothing
    // changed here, when it cannot be joined: its meters started from a snapshot that the replay
    // here does not reach without a problem and exactly, or it found none soon enough. Its
    // records are then to be visited here again, as one auditor reads them.
    [[nodiscard]] bool absorb(RecordAuditor&& next);
    void finish(AuditReport& report);

private:
    // Records kept before the first snapshot by an auditor of Start::Unknown, at most this many.
    static constexpr std::size_t kMostKept = 20000;

    Start start_;
    bool replaying_;
    LedgerReplay replay_;
    RoundAuditor rounds_;
    std::vector<JournalRecord> beforeSnapshot_;  // Start::Unknown: the records before the first snapshot
    bool keptAll_ = true;                        // Start::Unknown: beforeSnapshot_ holds them all
    std::optional<Ledger> startedFrom_;          // Start::Unknown: the first snapshot's ledger
    BodyParser bodies_;
};

}  // namespace pitlink::journal
