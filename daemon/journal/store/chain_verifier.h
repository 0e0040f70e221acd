#pragma once
// Walks the journal in sequence order checking every chain link (and that no sequence number is
// missing), optionally handing each verified record to a visitor in the same pass, so that
// replaying meters costs no second read of the file.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "daemon/journal/store/journal_store.h"

namespace pitlink::journal {

struct ChainCheck {
    bool ok = true;
    std::int64_t from = 1;
    std::int64_t checked = 0;
    std::optional<std::int64_t> firstBadSeq;
    std::string problem;
};

// Returns a problem (stops the walk) or an empty string.
using RecordVisitor = std::function<std::string(const JournalRecord&)>;

// Checks records from `from` to the last one. The link of record from-1 is taken as found (a
// tail check trusts what an earlier full check verified); from = 1 checks the whole chain.
// A segment after the first chains from the sealed segment's last link, named by its first
// record (segment.sealed "last_hash"); nullopt when `first` is not such a record.
[[nodiscard]] std::optional<Digest> sealedLink(JournalStore& store, std::int64_t first);
// Whether a segment.sealed record's body names `lastSeq` and its link `lastHash` (the record
// before it), as a reader that follows records one by one checks it.
[[nodiscard]] bool sealNames(const JournalRecord& sealed, std::int64_t lastSeq, const Digest& lastHash);

[[nodiscard]] ChainCheck verifyChain(JournalStore& store, std::int64_t from, const RecordVisitor& visit = {});

}  // namespace pitlink::journal
