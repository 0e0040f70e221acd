#pragma once
// The one writer of the journal, on a worker (its own thread in pitlinkd): the logic thread
// never waits for an fsync. Transactions queued while a commit is in progress are committed
// together in the next SQLite transaction (group commit: one fsync for all of them); each still
// gets its own result, in submission order, posted back to the logic thread. After a failed
// commit (disk full, I/O error) the writer refuses everything that follows: the table tilts, and
// what is on the disk stays as it was after the last good commit.
#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "daemon/journal/journal_sink.h"
#include "daemon/journal/segments/segment_rotation.h"
#include "daemon/journal/store/journal_store.h"
#include "daemon/platform/executor.h"
#include "daemon/platform/worker.h"

namespace pitlink::journal {

class JournalWriter : public JournalSink {
public:
    // Runs a completion on the logic thread (the executor's post).
    // On a thread of its own.
    JournalWriter(std::unique_ptr<JournalStore> store, platform::Executor& executor, std::size_t maxGroup = 256);
    // On `worker` (the simulation tier's, on simulated time).
    JournalWriter(std::unique_ptr<JournalStore> store, std::unique_ptr<platform::Worker> worker,
                  platform::Executor& executor, std::size_t maxGroup = 256);
    ~JournalWriter() override;
    JournalWriter(const JournalWriter&) = delete;
    JournalWriter& operator=(const JournalWriter&) = delete;

    // Rotations (rotate()) seal the active segment with `rotation`; without one the journal stays
    // a single file. Call before the first commit.
    void setRotation(std::unique_ptr<SegmentRotation> rotation) { rotation_ = std::move(rotation); }

    // Thread-safe.
    void commit(std::vector<PendingRecord> records, Done done) override;
    void rotate(std::vector<PendingRecord> records, Done done) override;
    // Incremented (release) each time a new segment became the journal: readers reopen.
    [[nodiscard]] const std::atomic<std::uint64_t>& segmentGeneration() const { return generation_; }
    // Commits what is queued, then stops the worker. Idempotent.
    void stop();
    // Commits so far and SQLite transactions used (a transaction may hold several commits).
    [[nodiscard]] std::uint64_t commits() const;
    [[nodiscard]] std::uint64_t transactions() const;

private:
    struct Job {
        std::vector<PendingRecord> records;
        Done done;
        bool rotate = false;
    };
    void enqueue(Job job);
    void flush();  // on the worker: one SQLite transaction for what is queued
    CommitResult rotateNow(const std::vector<PendingRecord>& records);  // on the worker

    std::unique_ptr<JournalStore> store_;
    std::unique_ptr<SegmentRotation> rotation_;
    std::atomic<std::uint64_t> generation_{0};
    platform::Executor& executor_;
    std::size_t maxGroup_;
    mutable std::mutex mutex_;
    std::deque<Job> queue_;
    bool flushGiven_ = false;             // a flush job is with the worker
    std::optional<std::string> failure_;  // worker only
    std::uint64_t commits_ = 0;
    std::uint64_t transactions_ = 0;
    std::unique_ptr<platform::Worker> worker_;  // last: stopped first, before what its jobs use goes
};

}  // namespace pitlink::journal
