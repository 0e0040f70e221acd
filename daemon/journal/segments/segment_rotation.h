#pragma once
// Sealing the active segment and opening the next (schema/README.md "Segments"), on the writer's
// thread between two of its transactions, so that nothing is committed while it runs:
//
//   1. the new segment file is written: `segment.sealed` (what the sealed segment holds, its last
//      link), the carried state (what a start-up resumes: `segment.carried`, the SAS queues), the
//      caller's records (a meters snapshot), all linked on from the sealed segment's last record,
//      in one transaction, synced with its folder;
//   2. journal.db is pointed at it (one rename, synced): from here on the new segment is the
//      journal. A single-file journal is first moved into the segments folder as segment 1.
//
// A crash before 2 leaves the old segment active and the new file an orphan holding only those
// opening records: the next start-up removes it (tidySegments). Nothing acknowledged is ever in
// an orphan: the first commit after a rotation goes to a segment journal.db already points at.
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/journal/segments/segment_files.h"
#include "daemon/journal/store/journal_store.h"
#include "daemon/journal/store/record.h"

namespace pitlink::journal {

// The rotation did not happen and the old segment is still the journal, unchanged (another
// process's reads held the single-file journal's WAL, the disk refused the new file): the writer
// commits the records in the old segment and the table goes on.
class RotationPostponed : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class SegmentRotation {
public:
    // What a start-up resumes, read from the segment being sealed (its own carried state plus its
    // records): records that open the next segment. pitlinkd gives the journal's and SAS's.
    using Carry = std::function<std::vector<PendingRecord>(JournalStore& sealing, std::int64_t atMs)>;
    // Called at each step ("written", "activated"): the crash tier dies there.
    using Step = std::function<void(std::string_view step)>;

    SegmentRotation(std::string journalPath, StoreOptions options, Carry carry, Step step = {});

    // Seals `current` and returns the store of the new segment, where `opening` was committed
    // after the seal and the carried state (`result` gets their sequence numbers). Throws
    // RotationPostponed with `current` untouched and still open, or JournalError when the
    // journal can no longer be trusted to be written (then `current` is closed).
    std::unique_ptr<JournalStore> rotate(std::unique_ptr<JournalStore>& current, std::span<const PendingRecord> opening,
                                         AppendResult& result);

    [[nodiscard]] const SegmentFiles& files() const { return files_; }

private:
    SegmentFiles files_;
    StoreOptions options_;
    Carry carry_;
    Step step_;
};

// The kinds a segment opens with: an orphan holding only these can be removed.
[[nodiscard]] bool isOpeningKind(std::string_view kind);

// At start-up, before the journal is opened: finishes or undoes an interrupted rotation (a link
// missing after a single-file journal was moved, a new link not renamed, an orphan segment).
// Returns what it did, for the log and journal.checked. Throws JournalError when a file beyond
// the active segment holds more than a segment's opening records.
std::vector<std::string> tidySegments(const std::string& journalPath, const StoreOptions& options);

}  // namespace pitlink::journal
