#pragma once
// A journal sink whose commits complete only when the test says so, as the writer thread's do:
// the table is then caught between submitting a transaction and hearing it committed. Commits
// go to a real store, in submission order; `failNext` makes the next flushed ones fail as a full
// disk does (and every later one, as the writer refuses once it has failed).
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "daemon/journal/journal_sink.h"
#include "daemon/journal/store_sink.h"

namespace pitlink::test {

struct DeferredSink : journal::JournalSink {
    explicit DeferredSink(journal::JournalStore& store) : inner(store) {}
    void commit(std::vector<journal::PendingRecord> records, Done done) override {
        queued.emplace_back(std::move(records), std::move(done));
    }
    // Completes the oldest `n` queued commits (all of them by default).
    void flush(std::size_t n = static_cast<std::size_t>(-1)) {
        while (!queued.empty() && n-- > 0) {
            auto [records, done] = std::move(queued.front());
            queued.pop_front();
            if (failed) {
                done(journal::CommitResult::failed("database or disk is full"));
                continue;
            }
            inner.commit(std::move(records), std::move(done));
        }
    }
    void failFromNow() { failed = true; }
    journal::StoreSink inner;
    std::deque<std::pair<std::vector<journal::PendingRecord>, Done>> queued;
    bool failed = false;
};

}  // namespace pitlink::test
