#pragma once
// The one writer of the journal, on its own thread: the logic thread never waits for an fsync.
// Transactions queued while a commit is in progress are committed together in the next SQLite
// transaction (group commit: one fsync for all of them); each still gets its own result, in
// submission order, posted back to the logic thread. After a failed commit (disk full, I/O
// error) the writer refuses everything that follows: the table tilts, and what is on the disk
// stays as it was after the last good commit.
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "daemon/journal/journal_sink.h"

namespace pitlink::journal {

class JournalWriter : public JournalSink {
public:
    // Runs a completion on the logic thread (boost::asio::post in the daemon).
    using Post = std::function<void(std::function<void()>)>;
    JournalWriter(std::unique_ptr<JournalStore> store, Post post, std::size_t maxGroup = 256);
    ~JournalWriter() override;
    JournalWriter(const JournalWriter&) = delete;
    JournalWriter& operator=(const JournalWriter&) = delete;

    // Thread-safe.
    void commit(std::vector<PendingRecord> records, Done done) override;
    // Commits what is queued, then ends the thread. Idempotent.
    void stop();
    // Commits so far and SQLite transactions used (a transaction may hold several commits).
    [[nodiscard]] std::uint64_t commits() const;
    [[nodiscard]] std::uint64_t transactions() const;

private:
    struct Job {
        std::vector<PendingRecord> records;
        Done done;
    };
    void run();
    void finish(std::deque<Job>& jobs, const std::vector<CommitResult>& results);

    std::unique_ptr<JournalStore> store_;
    Post post_;
    std::size_t maxGroup_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> queue_;
    bool stopping_ = false;
    std::optional<std::string> failure_;  // writer thread only
    std::uint64_t commits_ = 0;
    std::uint64_t transactions_ = 0;
    std::thread thread_;
};

}  // namespace pitlink::journal
