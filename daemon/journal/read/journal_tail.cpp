#include "daemon/journal/read/journal_tail.h"

#include <utility>

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

JournalTail::JournalTail(std::string journalPath)
    : path_(std::move(journalPath)), journal_(std::make_unique<SegmentedJournal>(path_, keylessReader())) {
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

std::vector<JournalRecord> JournalTail::after(std::int64_t after, std::size_t max) {
    refresh();
    std::vector<JournalRecord> records;
    if (max == 0) {
        return records;
    }
    const auto first = segmentOf(after + 1);
    if (!first) {
        throw JournalError("record " + std::to_string(after + 1) + " is not on this controller: the oldest held is " +
                           std::to_string(firstSeqOf(0)) + " (segments archived away)");
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
        return std::nullopt;
    }
    return journal_->segment(*index).record(seq);
}

std::int64_t JournalTail::firstSeq() {
    refresh();
    return firstSeqOf(0);
}

std::int64_t JournalTail::lastSeq() {
    refresh();
    return journal_->active().lastSeqNow();
}

}  // namespace pitlink::journal
