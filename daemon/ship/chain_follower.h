#pragma once
// What pitlink-ship checks of each record before it ships it (docs/design.md "The floor"): the
// records follow the server's head without a gap, a segment.sealed names the record before it,
// and in a sha256 journal every link is recomputed. In an HMAC journal the links cannot be
// recomputed here: the shipper, on the network, must never hold the table's key (it could sign
// forged records); the inspector checks them with floor.verify_chain and the key. Pure.
#include <cstdint>
#include <optional>
#include <string>

#include "daemon/journal/store/chain_hasher.h"
#include "daemon/journal/store/record.h"

namespace pitlink::ship {

class ChainFollower {
public:
    // `chain`: journal_info's ("sha256" or "hmac-sha256"); the head: the last record shipped (0
    // and 32 zero bytes before the first).
    ChainFollower(const std::string& chain, std::int64_t lastSeq, const journal::Digest& lastHash);

    // nullopt when `record` follows the head (which then moves to it); else what is wrong, and
    // the head stays.
    [[nodiscard]] std::optional<std::string> follow(const journal::JournalRecord& record);

    [[nodiscard]] std::int64_t lastSeq() const { return lastSeq_; }
    [[nodiscard]] const journal::Digest& lastHash() const { return lastHash_; }
    [[nodiscard]] bool linksChecked() const { return recompute_; }

private:
    bool recompute_;
    journal::ChainHasher hasher_;
    std::int64_t lastSeq_;
    journal::Digest lastHash_;
    std::string canonical_;
};

}  // namespace pitlink::ship
