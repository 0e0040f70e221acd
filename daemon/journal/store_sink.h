#pragma once
// The journal sink that commits on the caller's thread, straight into the store: start-up
// recovery, tools and tests (the daemon's sink is the writer thread, journal_writer.h).
#include <utility>
#include <vector>

#include "daemon/journal/journal_sink.h"
#include "daemon/journal/store/journal_error.h"
#include "daemon/journal/store/journal_store.h"
#include "daemon/journal/store_sink.h"

namespace pitlink::journal {

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
