#pragma once
// Where the logic thread's transactions go to be committed: the writer thread in the daemon, or
// the store itself, synchronously, during start-up recovery and in tools (store_sink.h). Knows no
// SQLite: the table and everything above it see this and journal.h only.
#include <functional>
#include <string>
#include <vector>

#include "daemon/journal/store/record.h"

namespace pitlink::journal {

struct CommitResult {
    // A commit that did not happen, and why.
    [[nodiscard]] static CommitResult failed(std::string why) {
        CommitResult result;
        result.error = std::move(why);
        return result;
    }

    bool ok = false;
    AppendResult seqs;  // the sequence numbers given to the records, when ok
    std::string error;  // why not, when !ok
    // A rotation asked for (JournalSink::rotate): whether a new segment began with the records,
    // and if not, why (they were then committed in the active segment).
    bool rotated = false;
    std::string postponed;
};

class JournalSink {
public:
    using Done = std::function<void(const CommitResult&)>;
    virtual ~JournalSink() = default;
    // Commits the records as one transaction. `done` runs on the logic thread, after the commit,
    // in submission order.
    virtual void commit(std::vector<PendingRecord> records, Done done) = 0;
    // After everything submitted before it: seals the active segment and commits the records as
    // the first of the next one (journal segments). A sink without segments commits them in the
    // one file, with `postponed` saying so.
    virtual void rotate(std::vector<PendingRecord> records, Done done) {
        commit(std::move(records), [done = std::move(done)](const CommitResult& result) {
            CommitResult plain = result;
            plain.postponed = "this journal has no segments";
            if (done) {
                done(plain);
            }
        });
    }
};

}  // namespace pitlink::journal
