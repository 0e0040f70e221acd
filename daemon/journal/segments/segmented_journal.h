#pragma once
// The whole journal as its readers see it (recall, roads, re-settlement, export, the tip report,
// the audit): the sealed segments and the active one, in chain order, each opened read-only when a
// read needs it (schema/README.md "Segments"). A single-file journal is one segment. Not
// thread-safe: one reader thread owns it.
#include <cstdint>
#include <list>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "daemon/journal/store/journal_store.h"
#include "daemon/journal/store/record.h"

namespace pitlink::journal {

class SegmentedJournal {
public:
    // Every segment of the journal at `journalPath` (journal.db, or its link), read-only.
    SegmentedJournal(const std::string& journalPath, StoreOptions options);
    // One store, opened by the caller, as the whole journal (tools and tests on a single file).
    explicit SegmentedJournal(JournalStore& single);

    // Takes in the segments begun since it was opened or last extended (rotations): the segments
    // it has open and what it learned of the sealed ones stay. False when the journal's files
    // are not those it has plus new ones (segments archived away): the caller opens it anew.
    [[nodiscard]] bool extend();

    // Segments in chain order; the last is the active one.
    [[nodiscard]] std::size_t size() const { return files_.size(); }
    [[nodiscard]] const std::string& file(std::size_t index) const { return files_.at(index); }
    // Opened when first asked; the least recently used are closed beyond a few open at once.
    JournalStore& segment(std::size_t index);
    JournalStore& active() { return segment(size() - 1); }
    // A connection of its own to segment `index`, for another thread (not of a journal made of one
    // store the caller opened).
    [[nodiscard]] std::unique_ptr<JournalStore> openSegment(std::size_t index) const;

    // The first and last round opened in the segment (round.opened), if any.
    [[nodiscard]] std::optional<std::pair<std::int64_t, std::int64_t>> roundsOpened(std::size_t index);
    // The first and last record's time in the segment (0, 0 when it has none).
    [[nodiscard]] std::pair<std::int64_t, std::int64_t> timeRange(std::size_t index);
    // Whether the segment holds a bet of the station (bet.accepted), and any record of the round:
    // a walk for a station's or a round's records skips the sealed segments that hold none
    // without opening them again (a station that has not played for a year would otherwise have
    // every segment opened at every recall).
    [[nodiscard]] bool holdsBetsOf(std::size_t index, std::int64_t station);
    [[nodiscard]] bool holdsRound(std::size_t index, std::int64_t roundId);
    // The segment the round opened in (nullopt: no such round).
    [[nodiscard]] std::optional<std::size_t> segmentOfRound(std::int64_t roundId);

    // Every record of the round, in order: from the segment it was played in and from any later
    // one (re-settlements of it happen in whatever segment is active then).
    [[nodiscard]] std::vector<JournalRecord> recordsOfRound(std::int64_t roundId);
    // Ends the statement running on any open segment with SQLITE_INTERRUPT (from another thread).
    void interrupt() const;

private:
    struct Open {
        std::size_t index;
        std::unique_ptr<JournalStore> store;
    };
    struct Summary {
        bool known = false;
        std::optional<std::pair<std::int64_t, std::int64_t>> rounds;
        std::pair<std::int64_t, std::int64_t> time{0, 0};
        std::optional<std::pair<std::int64_t, std::int64_t>> roundsTouched;  // by any record of a round
        std::set<std::int64_t> betting;                                      // stations with a bet.accepted
    };
    const Summary& summary(std::size_t index);

    StoreOptions options_;
    std::string journalPath_;
    std::vector<std::string> files_;
    JournalStore* single_ = nullptr;
    std::list<Open> open_;  // most recently used first
    std::vector<Summary> summaries_;
};

}  // namespace pitlink::journal
