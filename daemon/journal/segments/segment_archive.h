#pragma once
// Archiving old sealed segments (schema/README.md "Segments", retention): the oldest sealed
// segments, up to a cut-off, are checked (quick_check, their chain, each one's seal in the next
// segment), copied into an archive folder with a MANIFEST.jsonl line each (file, SHA-256, size,
// records, rounds, time), the copies synced and hashed again, and only then removed from the
// journal. What stays is audited from its first segment's seal and opening snapshot; the archive
// and the journal concatenated are still one chain.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "daemon/journal/store/journal_store.h"

namespace pitlink::journal {

struct ArchivedSegment {
    std::string file;    // its name, in the archive as in the journal
    std::string sha256;  // of the file's bytes
    std::int64_t bytes = 0;
    std::int64_t firstSeq = 0;
    std::int64_t lastSeq = 0;
    std::int64_t toMs = 0;  // its last record's time
};

// Archives the sealed segments whose last record is older than `beforeMs`, oldest first, and
// stops at the first younger one (the journal keeps a run of segments without a gap), or at the
// first holding a record after `keepAfter` (the floor's server does not hold it yet: pitlink-ship's
// server_seq). Throws JournalError naming the problem, with nothing removed, if a check or a
// copy fails.
std::vector<ArchivedSegment> archiveSegments(const std::string& journalPath, const StoreOptions& options,
                                             std::int64_t beforeMs, const std::filesystem::path& archive,
                                             std::optional<std::int64_t> keepAfter = std::nullopt);

}  // namespace pitlink::journal
