#include "daemon/journal/read/journal_tail.h"

#include <algorithm>
#include <filesystem>
#include <utility>

#include "daemon/journal/segments/segment_files.h"
#include "daemon/journal/store/journal_error.h"
#include "daemon/journal/store/journal_store.h"

namespace pitlink::journal {

namespace {

StoreOptions keylessReader() {
    StoreOptions options;
    options.readOnly = true;
    options.anyChain = true;
    return options;
}

}  // namespace

JournalTail::JournalTail(std::string journalPath, std::vector<std::string> archiveDirs)
    : path_(std::move(journalPath)),
      journal_(std::make_unique<SegmentedJournal>(path_, keylessReader())),
      archiveDirs_(std::move(archiveDirs)) {
    firstSeqs_.assign(journal_->size(), 0);
}

JournalIdentity JournalTail::identity() {
    JournalStore& active = journal_->active();
    return JournalIdentity{active.createdAtMs(), active.chainMode(), active.keyFingerprint()};
}

void JournalTail::refresh() {
    if (!journal_->extend()) {
        journal_ = std::make_unique<SegmentedJournal>(path_, keylessReader());
        firstSeqs_.clear();
    }
    firstSeqs_.resize(journal_->size(), 0);
}

std::int64_t JournalTail::firstSeqOf(std::size_t index) {
    if (firstSeqs_[index] == 0) {
        firstSeqs_[index] = journal_->segment(index).firstSeq();
    }
    return firstSeqs_[index];
}

std::optional<std::size_t> JournalTail::segmentOf(std::int64_t seq) {
    for (std::size_t i = journal_->size(); i-- > 0;) {
        if (firstSeqOf(i) <= seq) {
            return i;
        }
    }
    return std::nullopt;
}

std::optional<JournalTail::Archived> JournalTail::archivedOf(std::int64_t seq) {
    const auto find = [&]() -> std::optional<Archived> {
        for (const Archived& a : archived_) {
            if (a.firstSeq <= seq && seq <= a.lastSeq) {
                return a;
            }
        }
        return std::nullopt;
    };
    if (auto found = find()) {
        return found;
    }
    archived_.clear();
    const std::int64_t journalId = journal_->active().createdAtMs();
    for (const std::string& dir : archiveDirs_) {
        std::error_code error;
        for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
            if (!SegmentFiles::numberOf(entry.path().filename().string())) {
                continue;
            }
            StoreOptions options = keylessReader();
            options.immutable = true;
            try {
                JournalStore store(entry.path().string(), options);
                if (store.createdAtMs() == journalId) {  // another journal's segment left there is not this one's
                    archived_.push_back(Archived{entry.path().string(), store.firstSeq(), store.tipSeq()});
                }
            } catch (const JournalError&) {
                // Not a segment that opens: what it should hold is "not held" (the caller's error).
            }
        }
    }
    std::sort(archived_.begin(), archived_.end(),
              [](const Archived& a, const Archived& b) { return a.firstSeq < b.firstSeq; });
    return find();
}

JournalStore& JournalTail::archivedStore(const Archived& segment) {
    if (!archivedOpen_ || archivedOpen_->connection().path() != segment.file) {
        StoreOptions options = keylessReader();
        options.immutable = true;
        archivedOpen_ = std::make_unique<JournalStore>(segment.file, options);
    }
    return *archivedOpen_;
}

std::vector<JournalRecord> JournalTail::after(std::int64_t after, std::size_t max) {
    refresh();
    std::vector<JournalRecord> records;
    if (max == 0) {
        return records;
    }
    const auto first = segmentOf(after + 1);
    if (!first) {
        if (const auto archived = archivedOf(after + 1)) {
            // From the archive, up to the end of that segment: the next call reads on.
            archivedStore(*archived).forEach(after + 1, after + static_cast<std::int64_t>(max),
                                             [&](const JournalRecord& r) {
                                                 if (r.seq != after + 1 + static_cast<std::int64_t>(records.size())) {
                                                     return false;
                                                 }
                                                 records.push_back(r);
                                                 return true;
                                             });
            return records;
        }
        throw JournalError("record " + std::to_string(after + 1) +
                           " is not on this controller: the journal's oldest is " + std::to_string(firstSeqOf(0)) +
                           " and no archive folder holds it");
    }
    std::int64_t next = after + 1;
    for (std::size_t i = *first; i < journal_->size() && records.size() < max; ++i) {
        const auto left = static_cast<std::int64_t>(max - records.size());
        journal_->segment(i).forEach(next, next + left - 1, [&](const JournalRecord& r) {
            if (r.seq != next) {
                return false;  // a gap: what comes after it is not read (the caller reads on from here)
            }
            records.push_back(r);
            ++next;
            return true;
        });
        if (i + 1 < journal_->size() && next < firstSeqOf(i + 1)) {
            break;  // this segment ended before the next one starts: read no further than the gap
        }
    }
    return records;
}

std::optional<JournalRecord> JournalTail::record(std::int64_t seq) {
    refresh();
    const auto index = segmentOf(seq);
    if (!index) {
        const auto archived = archivedOf(seq);
        return archived ? archivedStore(*archived).record(seq) : std::nullopt;
    }
    return journal_->segment(*index).record(seq);
}

std::int64_t JournalTail::firstSeq() {
    refresh();
    return firstSeqOf(0);
}

std::int64_t JournalTail::oldestSeq() {
    std::int64_t oldest = firstSeq();
    if (archiveDirs_.empty() || oldest <= 1 || !archivedOf(oldest - 1)) {
        return oldest;
    }
    for (auto it = archived_.rbegin(); it != archived_.rend(); ++it) {  // archived_ is by firstSeq
        if (it->lastSeq + 1 == oldest) {
            oldest = it->firstSeq;
        }
    }
    return oldest;
}

std::int64_t JournalTail::lastSeq() {
    refresh();
    return journal_->active().lastSeqNow();
}

}  // namespace pitlink::journal
