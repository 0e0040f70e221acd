#pragma once
// Reads of the journal that the logic thread must not wait for (DESIGN rule 2): recall,
// re-settlement's view of a round, the inspector's audit. One worker thread with its own
// read-only connection (WAL: it sees every committed transaction and never blocks the writer);
// jobs run in order and their results are posted back to the logic thread.
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "daemon/journal/journal_store.h"

namespace pitlink::journal {

class JournalReader {
public:
    using Post = std::function<void(std::function<void()>)>;
    using Failed = std::function<void(const std::string& error)>;
    // `path` and `options` as the writer's store (the chain key); the connection is read-only
    // and opened at the first job.
    JournalReader(std::string path, StoreOptions options, Post post);
    // Ends after the job in progress (interrupted); jobs still queued are dropped unanswered.
    ~JournalReader();
    JournalReader(const JournalReader&) = delete;
    JournalReader& operator=(const JournalReader&) = delete;

    // Runs `job` on the reader thread; its result goes to `done` on the logic thread. If the job
    // throws (no such round, SQLite error), `failed` gets the message instead.
    template <class T>
    void read(std::function<T(JournalStore&)> job, std::function<void(T)> done, Failed failed) {
        enqueue([job = std::move(job), done = std::move(done)](JournalStore& store) -> std::function<void()> {
            auto result = std::make_shared<T>(job(store));
            return [done, result] { done(std::move(*result)); };
        },
                std::move(failed));
    }

    [[nodiscard]] std::size_t queued() const;

private:
    // A job returns what the logic thread is to run with its result.
    using Job = std::function<std::function<void()>(JournalStore&)>;
    void enqueue(Job job, Failed failed);
    void run();

    std::string path_;
    StoreOptions options_;
    Post post_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::pair<Job, Failed>> jobs_;
    bool stopping_ = false;
    std::unique_ptr<JournalStore> store_;  // reader thread only, but interrupt() needs the mutex
    std::thread thread_;
};

}  // namespace pitlink::journal
