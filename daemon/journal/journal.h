#pragma once
// The journal as the logic thread sees it: build a transaction of facts, submit it, be called
// back once it has committed (the table acknowledges only then). Keeps two ledgers: `projected`
// includes everything submitted (balances of new credit records are computed on it) and
// `committed` only what the disk holds (what SAS and pitlinkctl are shown). A failed commit
// puts the journal in failure: nothing more is written and the table must tilt.
#include <nlohmann/json.hpp>

#include <any>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/journal/journal_sink.h"
#include "daemon/journal/ledger/ledger.h"
#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/typed_record.h"

namespace pitlink::journal {

class JournalStore;  // journal_store.h: SQLite stays behind it

struct Fact {
    std::string kind;
    std::optional<std::int64_t> roundId;
    std::optional<std::int64_t> station;
    nlohmann::json body = nlohmann::json::object();  // what is stored (canonical JSON on disk)
    // The typed record the body was made from, when this process wrote the fact (a struct of
    // records/*_records.h): what the table just did is read from it, not from the body's JSON.
    std::any record{};
};

// The fact as a record of kind R, or nullopt when it is of another kind: the struct its writer
// filled, else (a fact read back from the journal) the struct read from its body, which throws
// BodyError when the body does not fit.
template <ReadableRecord R>
[[nodiscard]] std::optional<R> recordOf(const Fact& fact) {
    if (fact.kind != R::kKind) {
        return std::nullopt;
    }
    if (const R* typed = std::any_cast<R>(&fact.record)) {
        return *typed;
    }
    return readBody<R>(fact.body);
}

// The game a fact names (JournalTransaction::nameGame); empty: none (a controller of one game, or
// a fact that belongs to no game).
[[nodiscard]] std::string gameNamedIn(const Fact& fact);

class Journal;

// When the active segment is sealed and the next begun (schema/README.md "Segments").
struct SegmentPolicy {
    std::int64_t maxAgeMs = 0;  // since the segment's first record; 0: no limit by age
    std::int64_t maxBytes = 0;  // of its records (approximately the file's size); 0: no limit by size
    [[nodiscard]] bool enabled() const { return maxAgeMs > 0 || maxBytes > 0; }
};

struct SegmentStats {
    std::uint64_t rotations = 0;  // segments begun by this daemon
    std::uint64_t postponed = 0;  // rotations that did not happen (the records went to the active one)
    std::string lastPostponed;    // why the last one did not
    std::int64_t segmentStartMs = 0;
    std::int64_t segmentBytes = 0;
};

class JournalTransaction {
public:
    // A typed record (records/*_records.h): the only way parts outside daemon/journal add one
    // (tests/lint/check_record_bodies.sh).
    template <TypedRecord R>
    JournalTransaction& add(const R& record, std::optional<std::int64_t> roundId = std::nullopt,
                            std::optional<std::int64_t> station = std::nullopt) {
        add(R::kKind, roundId, station, toBody(record));
        facts_.back().record = record;
        return *this;
    }
    // A body built inside daemon/journal (settlement, recovery, snapshots, segments).
    JournalTransaction& add(std::string_view kind, std::optional<std::int64_t> roundId,
                            std::optional<std::int64_t> station, nlohmann::json body);
    // A credit movement of a station with the balance after it, computed from the projected
    // ledger and this transaction's earlier movements. Throws LedgerError if the credits would go
    // below zero. `detail` adds what moved them (ref) and a settlement's wager.
    JournalTransaction& credit(std::int64_t station, Money amount, std::string_view why,
                               std::optional<std::int64_t> roundId = std::nullopt, CreditDetail detail = {});
    // A controller of several games: `game` named in the body of each record so far that belongs
    // to a game (kind::namesItsGame).
    void nameGame(const std::string& game);
    // Credits of the station after what this transaction has added so far.
    [[nodiscard]] Money balance(std::int64_t station) const;
    // Its promotional credits and stakes after what this transaction has added so far.
    [[nodiscard]] PromoCredits promo(std::int64_t station) const;
    [[nodiscard]] const std::vector<Fact>& facts() const { return facts_; }
    [[nodiscard]] bool empty() const { return facts_.empty(); }

private:
    friend class Journal;
    explicit JournalTransaction(const Journal& journal) : journal_(&journal) {}
    const Journal* journal_;
    std::vector<Fact> facts_;
};

class Journal {
public:
    using Clock = std::function<std::int64_t()>;  // UTC milliseconds
    // `snapshotEvery`: a meters.snapshot record is added after this many records (0: never by count).
    Journal(JournalSink& sink, Ledger committed, Clock clock, std::int64_t snapshotEvery = 2000);

    [[nodiscard]] JournalTransaction begin() const { return JournalTransaction(*this); }
    // Applies the transaction to the projected ledger (LedgerError leaves everything unchanged)
    // and sends it to be committed. If the journal has failed, `done` is called at once with the
    // failure and nothing is written.
    void submit(JournalTransaction transaction, JournalSink::Done done = {});
    // At start: the records the journal already holds after its last snapshot, so that a daemon
    // restarted more often than every `snapshotEvery` records still writes snapshots (and its
    // start-up replay does not grow with the journal).
    void countSinceSnapshot(std::int64_t records) { sinceSnapshot_ = records; }
    // Adds a meters snapshot now (clean shutdown, end of a shoe).
    void snapshot(JournalSink::Done done = {});

    // Segments: the policy, and where the active segment began and how big it is (at start-up).
    void setSegmentPolicy(SegmentPolicy policy, std::int64_t segmentStartMs, std::int64_t segmentBytes);
    // Where a segment may end (the table calls it once a round has ended and before the next
    // opens, so that a round's records are never split): when the active segment is due by the
    // policy, it is sealed after everything submitted so far and the next opens with a meters
    // snapshot. A rotation that could not happen is retried a minute later.
    void rotateIfDue();
    [[nodiscard]] bool rotationDue() const;
    [[nodiscard]] const SegmentStats& segments() const { return segments_; }
    // Runs `then` once every transaction submitted so far has completed, committed or failed
    // (at once when none is in flight): events that follow no transaction of their own keep
    // their place after the ones that do, and a stop waits for what it has submitted.
    void afterPending(std::function<void()> then);
    [[nodiscard]] std::uint64_t inFlight() const { return submitted_ - completed_; }
    // The sequence number of the last record committed (0: none since this journal was made).
    [[nodiscard]] std::int64_t lastCommittedSeq() const { return lastSeq_; }

    [[nodiscard]] const Ledger& committed() const { return committed_; }
    [[nodiscard]] const Ledger& projected() const { return projected_; }
    [[nodiscard]] bool failed() const { return failure_.has_value(); }

private:
    JournalSink& sink_;
    Ledger committed_;
    Ledger projected_;
    Clock clock_;
    std::int64_t snapshotEvery_;
    std::int64_t sinceSnapshot_ = 0;
    std::optional<std::string> failure_;
    std::int64_t lastSeq_ = 0;
    std::uint64_t submitted_ = 0;
    std::uint64_t completed_ = 0;
    std::deque<std::pair<std::uint64_t, std::function<void()>>> waiting_;  // (submitted_ to wait for, then)
    // The facts of the transactions sent and not yet completed, oldest first: what projected_
    // holds beyond committed_.
    std::deque<std::shared_ptr<const std::vector<Fact>>> unconfirmed_;
    SegmentPolicy segmentPolicy_;
    SegmentStats segments_;
    bool rotating_ = false;
    std::int64_t retryRotationAtMs_ = 0;
    void completed();
    void project(const std::vector<Fact>& facts);
    void send(JournalTransaction transaction, JournalSink::Done done, bool rotate);
};

// Start-up and tools, before the writer thread exists: builds one transaction on `ledger`,
// commits it on the calling thread and moves `ledger` on. Returns the error if it did not commit.
std::optional<std::string> commitNow(JournalStore& store, Ledger& ledger, const Journal::Clock& clock,
                                     const std::function<void(JournalTransaction&)>& build);

}  // namespace pitlink::journal
