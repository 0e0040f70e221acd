#pragma once
// Reads of the journal that the logic thread must not wait for (docs/design.md rule 2): recall,
// re-settlement's view of a round, the inspector's audit. One worker (a thread of its own in
// pitlinkd) with its own read-only connection (WAL: it sees every committed transaction and never
// blocks the writer); jobs run in order and their results are posted back to the logic thread.
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "daemon/journal/segments/segmented_journal.h"
#include "daemon/platform/executor.h"
#include "daemon/platform/worker.h"

namespace pitlink::journal {

class JournalReader {
public:
    using Failed = std::function<void(const std::string& error)>;
    // `path` and `options` as the writer's store (the chain key); the connection is read-only
    // and opened at the first job.
    JournalReader(std::string path, StoreOptions options, platform::Executor& executor);
    // On `worker` (the simulation tier's).
    JournalReader(std::string path, StoreOptions options, std::unique_ptr<platform::Worker> worker,
                  platform::Executor& executor);
    // Ends after the job in progress (interrupted); jobs still queued are dropped unanswered.
    ~JournalReader();
    JournalReader(const JournalReader&) = delete;
    JournalReader& operator=(const JournalReader&) = delete;

    // Runs `job` on the reader thread; its result goes to `done` on the logic thread. If the job
    // throws (no such round, SQLite error), `failed` gets the message instead.
    template <class T>
    void read(std::function<T(SegmentedJournal&)> job, std::function<void(T)> done, const Failed& failed) {
        enqueue(
            [job = std::move(job), done = std::move(done)](SegmentedJournal& journal) -> std::function<void()> {
                auto result = std::make_shared<T>(job(journal));
                return [done, result] { done(std::move(*result)); };
            },
            failed);
    }

    [[nodiscard]] std::size_t queued() const { return queued_.load(); }
    // The writer's count of segments begun (JournalWriter::segmentGeneration): when it moves, the
    // next job reopens journal.db, which then names the new active segment.
    void followSegments(const std::atomic<std::uint64_t>* generation) { generation_ = generation; }

private:
    // A job returns what the logic thread is to run with its result.
    using Job = std::function<std::function<void()>(SegmentedJournal&)>;
    void enqueue(Job job, Failed failed);
    void runJob(const Job& job, const Failed& failed);

    std::string path_;
    StoreOptions options_;
    platform::Executor& executor_;
    std::atomic<bool> stopping_{false};
    std::atomic<std::size_t> queued_{0};
    const std::atomic<std::uint64_t>* generation_ = nullptr;
    std::uint64_t openedAt_ = 0;                 // the generation the store was opened at
    std::mutex mutex_;                           // guards journal_ against the interrupt of a stop
    std::unique_ptr<SegmentedJournal> journal_;  // the worker's
    std::unique_ptr<platform::Worker> worker_;   // last: stopped first
};

}  // namespace pitlink::journal
