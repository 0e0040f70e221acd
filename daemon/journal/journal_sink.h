#pragma once
// Where the logic thread's transactions go to be committed: the writer thread in the daemon, or
// the store itself, synchronously, during start-up recovery and in tools (store_sink.h). Knows no
// SQLite: the table and everything above it see this and journal.h only.
#include <functional>
#include <string>
#include <vector>

#include "daemon/journal/record.h"

namespace pitlink::journal {

struct CommitResult {
    bool ok = false;
    AppendResult seqs;  // the sequence numbers given to the records, when ok
    std::string error;  // why not, when !ok
};

class JournalSink {
public:
    using Done = std::function<void(const CommitResult&)>;
    virtual ~JournalSink() = default;
    // Commits the records as one transaction. `done` runs on the logic thread, after the commit,
    // in submission order.
    virtual void commit(std::vector<PendingRecord> records, Done done) = 0;
};

}  // namespace pitlink::journal
