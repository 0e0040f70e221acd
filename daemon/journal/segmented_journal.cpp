#include "daemon/journal/segmented_journal.h"

#include <filesystem>

#include "daemon/journal/segment_files.h"

namespace pitlink::journal {

namespace {

constexpr std::size_t kKeptOpen = 8;  // a segment's connection costs three file descriptors

}  // namespace

SegmentedJournal::SegmentedJournal(const std::string& journalPath, StoreOptions options)
    : options_(std::move(options)) {
    options_.readOnly = true;
    const SegmentFiles segments(journalPath);
    if (const auto active = segments.active()) {
        for (const std::uint32_t n : segments.sealed()) {
            files_.push_back(segments.file(n).string());
        }
        files_.push_back(segments.file(*active).string());
    } else {
        files_.push_back(journalPath);
    }
    summaries_.resize(files_.size());
    (void)active();  // a journal that cannot be opened is an error here, not at the first read
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
    open_.push_front(Open{index, std::make_unique<JournalStore>(files_[index], options_)});
    if (open_.size() > kKeptOpen) {
        open_.pop_back();
    }
    return *open_.front().store;
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
    s.known = true;
    return s;
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
        for (JournalRecord& record : segment(i).recordsOfRound(roundId)) {
            records.push_back(std::move(record));
        }
    }
    return records;
}

}  // namespace pitlink::journal
