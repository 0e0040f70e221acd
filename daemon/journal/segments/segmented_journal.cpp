#include "daemon/journal/segments/segmented_journal.h"

#include <algorithm>
#include <filesystem>

#include "daemon/journal/segments/segment_files.h"

namespace pitlink::journal {

namespace {

constexpr std::size_t kKeptOpen = 8;  // a segment's connection costs three file descriptors

}  // namespace

namespace {

std::vector<std::string> filesOf(const std::string& journalPath) {
    std::vector<std::string> files;
    const SegmentFiles segments(journalPath);
    if (const auto active = segments.active()) {
        for (const std::uint32_t n : segments.sealed()) {
            files.push_back(segments.file(n).string());
        }
        files.push_back(segments.file(*active).string());
    } else {
        files.push_back(journalPath);
    }
    return files;
}

}  // namespace

SegmentedJournal::SegmentedJournal(const std::string& journalPath, StoreOptions options)
    : options_(std::move(options)), journalPath_(journalPath) {
    options_.readOnly = true;
    files_ = filesOf(journalPath_);
    summaries_.resize(files_.size());
    (void)active();  // a journal that cannot be opened is an error here, not at the first read
}

bool SegmentedJournal::extend() {
    if (single_ != nullptr) {
        return true;
    }
    std::vector<std::string> files = filesOf(journalPath_);
    if (files.size() < files_.size() || !std::equal(files_.begin(), files_.end(), files.begin())) {
        return false;
    }
    // The segment that was active is sealed now: what was learned of it while it grew goes.
    summaries_.back() = Summary{};
    files_ = std::move(files);
    summaries_.resize(files_.size());
    return true;
}

SegmentedJournal::SegmentedJournal(JournalStore& single) : single_(&single) {
    files_.push_back(single.connection().path());
    summaries_.resize(1);
}

JournalStore& SegmentedJournal::segment(std::size_t index) {
    if (index >= files_.size()) {
        throw JournalError("the journal has no segment " + std::to_string(index + 1));
    }
    if (single_ != nullptr) {
        return *single_;
    }
    for (auto it = open_.begin(); it != open_.end(); ++it) {
        if (it->index == index) {
            open_.splice(open_.begin(), open_, it);
            return *open_.front().store;
        }
    }
    auto store = openSegment(index);
    open_.push_front(Open{index, std::move(store)});
    if (open_.size() > kKeptOpen) {
        open_.pop_back();
    }
    return *open_.front().store;
}

std::unique_ptr<JournalStore> SegmentedJournal::openSegment(std::size_t index) const {
    if (single_ != nullptr || index >= files_.size()) {
        throw JournalError("the journal has no segment " + std::to_string(index + 1) + " to open on its own");
    }
    // A sealed segment is opened immutable (a reader in group pitlink can read it, and nothing
    // is locked or made beside it), unless a -wal with content is still beside it: pitlinkd
    // checkpoints a segment it seals, and one whose checkpoint a reader held off is read as it
    // stands, WAL and all.
    StoreOptions options = options_;
    std::error_code error;
    options.immutable = index + 1 < files_.size() && std::filesystem::file_size(files_[index] + "-wal", error) == 0;
    if (error) {
        options.immutable = index + 1 < files_.size();  // no -wal at all
    }
    return std::make_unique<JournalStore>(files_[index], options);
}

void SegmentedJournal::interrupt() const {
    if (single_ != nullptr) {
        single_->connection().interrupt();
    }
    for (const Open& open : open_) {
        open.store->connection().interrupt();
    }
}

const SegmentedJournal::Summary& SegmentedJournal::summary(std::size_t index) {
    Summary& s = summaries_.at(index);
    if (s.known && index + 1 < files_.size()) {
        return s;  // a sealed segment never changes
    }
    SqliteConnection& db = segment(index).connection();
    SqliteStatement rounds = db.prepare("SELECT min(round_id), max(round_id) FROM record WHERE kind = 'round.opened'");
    rounds.step();
    s.rounds.reset();
    if (!rounds.isNull(0)) {
        s.rounds = std::pair{rounds.integer(0), rounds.integer(1)};
    }
    SqliteStatement time = db.prepare(
        "SELECT (SELECT at_ms FROM record ORDER BY seq LIMIT 1), (SELECT at_ms FROM record ORDER BY seq DESC LIMIT 1)");
    time.step();
    s.time = {time.optionalInteger(0).value_or(0), time.optionalInteger(1).value_or(0)};
    // Both by their partial indexes (schema/0001_journal.sql): no scan of the segment.
    SqliteStatement touched = db.prepare(
        "SELECT (SELECT min(round_id) FROM record WHERE round_id IS NOT NULL), "
        "(SELECT max(round_id) FROM record WHERE round_id IS NOT NULL)");
    touched.step();
    s.roundsTouched.reset();
    if (!touched.isNull(0)) {
        s.roundsTouched = std::pair{touched.integer(0), touched.integer(1)};
    }
    SqliteStatement betting = db.prepare("SELECT DISTINCT station FROM record WHERE kind = 'bet.accepted'");
    s.betting.clear();
    while (betting.step()) {
        s.betting.insert(betting.integer(0));
    }
    s.known = true;
    return s;
}

bool SegmentedJournal::holdsBetsOf(std::size_t index, std::int64_t station) {
    if (index + 1 >= files_.size()) {
        return true;  // the active segment: its own query answers (it changes under the summary)
    }
    return summary(index).betting.contains(station);
}

bool SegmentedJournal::holdsRound(std::size_t index, std::int64_t roundId) {
    if (index + 1 >= files_.size()) {
        return true;
    }
    const auto& touched = summary(index).roundsTouched;
    return touched && touched->first <= roundId && roundId <= touched->second;
}

std::optional<std::pair<std::int64_t, std::int64_t>> SegmentedJournal::roundsOpened(std::size_t index) {
    return summary(index).rounds;
}

std::pair<std::int64_t, std::int64_t> SegmentedJournal::timeRange(std::size_t index) {
    return summary(index).time;
}

std::optional<std::size_t> SegmentedJournal::segmentOfRound(std::int64_t roundId) {
    // Rounds are numbered in the order they open, so the segments hold increasing ranges: the
    // newest segment that opened a round at or below it holds it, if any does.
    for (std::size_t i = files_.size(); i-- > 0;) {
        const auto rounds = roundsOpened(i);
        if (!rounds) {
            continue;
        }
        if (rounds->first <= roundId) {
            return roundId <= rounds->second ? std::optional(i) : std::nullopt;
        }
    }
    return std::nullopt;
}

std::vector<JournalRecord> SegmentedJournal::recordsOfRound(std::int64_t roundId) {
    const auto home = segmentOfRound(roundId);
    if (!home) {
        return segment(files_.size() - 1).recordsOfRound(roundId);  // none: as a single file answers
    }
    std::vector<JournalRecord> records;
    for (std::size_t i = *home; i < files_.size(); ++i) {
        if (i != *home && !holdsRound(i, roundId)) {
            continue;
        }
        for (JournalRecord& record : segment(i).recordsOfRound(roundId)) {
            records.push_back(std::move(record));
        }
    }
    return records;
}

}  // namespace pitlink::journal
