#pragma once
// The journal followed from outside pitlinkd, record by record (pitlink-ship, docs/design.md
// "The floor"): every record after a sequence number, in chain order, across the sealed
// segments and the active one as it grows and rotates (schema/README.md "Segments").
// - Read-only and keyless: any chain mode opens (StoreOptions::anyChain); links are not checked
//   here (the caller checks what it can, see ChainFollower).
// - Sealed segments are opened immutable, so a reader in group pitlink reads them without
//   writing a -shm beside them.
// - Each read is one statement of at most `max` rows: no read transaction is held across the
//   caller's network I/O, and the writer's checkpoints are never held back for longer than one
//   short read.
// - Segments archived away (`pitlinkctl journal archive`) are read from the archive folders given,
//   each opened immutable: a journal is followed whole from its first record.
// Not thread-safe: one thread owns it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/journal/segments/segmented_journal.h"
#include "daemon/journal/store/journal_store.h"
#include "daemon/journal/store/record.h"

namespace pitlink::journal {

// What names a journal on the floor: the same in every segment of it (journal_info).
struct JournalIdentity {
    std::int64_t createdAtMs = 0;  // created_at_ms: the journal's identity (floor.journals.journal_id)
    std::string chain;             // "sha256" or "hmac-sha256"
    std::string keyFingerprint;    // "" without a key
};

class JournalTail {
public:
    // Throws JournalError when the journal cannot be opened. `archiveDirs`: folders holding
    // segments archived away from it.
    explicit JournalTail(std::string journalPath, std::vector<std::string> archiveDirs = {});

    [[nodiscard]] JournalIdentity identity();
    // Up to `max` records with seq > `after`, in order and without a gap; empty when there is
    // none yet. Rotations since the last read are taken in. Throws JournalError when the record
    // after `after` is not on this controller any more (its segment archived away).
    [[nodiscard]] std::vector<JournalRecord> after(std::int64_t after, std::size_t max);
    // The record `seq`; nullopt when neither the journal nor the archive holds it.
    [[nodiscard]] std::optional<JournalRecord> record(std::int64_t seq);
    // The oldest record the journal holds (its oldest segment's first; the archive is not looked
    // at), and the newest committed (0: none).
    [[nodiscard]] std::int64_t firstSeq();
    [[nodiscard]] std::int64_t lastSeq();
    // The oldest record held here, the archive folders' segments that lead up to the journal
    // without a gap included.
    [[nodiscard]] std::int64_t oldestSeq();

private:
    // Takes in rotations (the journal opened anew when segments were archived away).
    void refresh();
    // The segment holding `seq` (nullopt: before the oldest held).
    [[nodiscard]] std::optional<std::size_t> segmentOf(std::int64_t seq);
    [[nodiscard]] std::int64_t firstSeqOf(std::size_t index);
    struct Archived {
        std::string file;
        std::int64_t firstSeq = 0;
        std::int64_t lastSeq = 0;
    };
    // The archived segment holding `seq` (the folders looked at again when none does).
    [[nodiscard]] std::optional<Archived> archivedOf(std::int64_t seq);
    [[nodiscard]] journal::JournalStore& archivedStore(const Archived& segment);

    std::string path_;
    std::unique_ptr<SegmentedJournal> journal_;
    std::vector<std::int64_t> firstSeqs_;  // of each segment, 0 until read
    std::vector<std::string> archiveDirs_;
    std::vector<Archived> archived_;              // every segment file of the archive folders, by firstSeq
    std::unique_ptr<JournalStore> archivedOpen_;  // the one read last
};

}  // namespace pitlink::journal
