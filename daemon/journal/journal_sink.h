#pragma once
// Where the logic thread's transactions go to be committed: the writer thread in the daemon, or
// the store itself, synchronously, during start-up recovery and in tools.
#include <functional>
#include <string>
#include <vector>

#include "daemon/journal/journal_store.h"

namespace pitlink::journal {

struct CommitResult {
    bool ok = false;
    AppendResult seqs;   // the sequence numbers given to the records, when ok
    std::string error;   // why not, when !ok
};

class JournalSink {
public:
    using Done = std::function<void(const CommitResult&)>;
    virtual ~JournalSink() = default;
    // Commits the records as one transaction. `done` runs on the logic thread, after the commit,
    // in submission order.
    virtual void commit(std::vector<PendingRecord> records, Done done) = 0;
};

// Commits on the caller's thread and calls `done` before returning.
class StoreSink : public JournalSink {
public:
    explicit StoreSink(JournalStore& store) : store_(store) {}
    void commit(std::vector<PendingRecord> records, Done done) override {
        CommitResult result;
        try {
            result.seqs = store_.append(records);
            result.ok = true;
        } catch (const JournalError& error) {
            result.error = error.what();
        }
        done(result);
    }

private:
    JournalStore& store_;
};

}  // namespace pitlink::journal
