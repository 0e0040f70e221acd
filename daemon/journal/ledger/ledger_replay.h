#pragma once
// Replays records into a ledger and compares it with every meters snapshot met on the way: the
// check that meters and credits recomputed from the records are the meters that were stored.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "daemon/journal/ledger/ledger.h"
#include "daemon/journal/store/record.h"

namespace pitlink::journal {

class LedgerReplay {
public:
    // `compared`: the snapshots already compared on the way to `base`.
    explicit LedgerReplay(Ledger base = {}, int compared = 0) : ledger_(std::move(base)), snapshots_(compared) {}
    // Empty, or what is wrong with the record (balance that does not follow, snapshot mismatch).
    std::string visit(const JournalRecord& record);
    // The same with the body as the caller parsed it: an object (any for a kind whose body the
    // ledger does not read: Ledger::readsBody, meters.snapshot).
    std::string visit(const JournalRecord& record, const nlohmann::json& body);
    [[nodiscard]] const Ledger& ledger() const { return ledger_; }
    [[nodiscard]] Ledger&& take() { return std::move(ledger_); }
    [[nodiscard]] int snapshotsCompared() const { return snapshots_; }

private:
    Ledger ledger_;
    int snapshots_ = 0;
};

}  // namespace pitlink::journal
