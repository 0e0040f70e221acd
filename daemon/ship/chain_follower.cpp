#include "daemon/ship/chain_follower.h"

#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/store/chain_verifier.h"

namespace pitlink::ship {

ChainFollower::ChainFollower(const std::string& chain, std::int64_t lastSeq, const journal::Digest& lastHash)
    : recompute_(chain == "sha256"), lastSeq_(lastSeq), lastHash_(lastHash) {}

std::optional<std::string> ChainFollower::follow(const journal::JournalRecord& record) {
    const std::string at = "record " + std::to_string(record.seq);
    if (record.seq != lastSeq_ + 1) {
        return at + " does not follow record " + std::to_string(lastSeq_);
    }
    // The first record of a segment names the last one of the segment before.
    if (record.kind == journal::kind::kSegmentSealed && !journal::sealNames(record, lastSeq_, lastHash_)) {
        return at + " (segment.sealed) does not name record " + std::to_string(lastSeq_) + " and its link";
    }
    if (recompute_) {
        canonical_ = journal::canonicalBytes(record);
        if (hasher_.link(lastHash_, canonical_) != record.hash) {
            return at + ": its link is not SHA-256(the link before it || its canonical bytes)";
        }
    }
    lastSeq_ = record.seq;
    lastHash_ = record.hash;
    return std::nullopt;
}

}  // namespace pitlink::ship
