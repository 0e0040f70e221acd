#include "daemon/journal/journal_writer.h"

#include "daemon/journal/journal_store.h"
#include "daemon/platform/worker_thread.h"

namespace pitlink::journal {

JournalWriter::JournalWriter(std::unique_ptr<JournalStore> store, Post post, std::size_t maxGroup)
    : JournalWriter(std::move(store), std::make_unique<platform::WorkerThread>(), std::move(post), maxGroup) {}

JournalWriter::JournalWriter(std::unique_ptr<JournalStore> store, std::unique_ptr<platform::Worker> worker, Post post,
                             std::size_t maxGroup)
    : store_(std::move(store)), post_(std::move(post)), maxGroup_(maxGroup), worker_(std::move(worker)) {}

JournalWriter::~JournalWriter() {
    stop();
}

void JournalWriter::stop() {
    worker_->stop();
}

void JournalWriter::commit(std::vector<PendingRecord> records, Done done) {
    bool give = false;
    {
        const std::lock_guard lock(mutex_);
        queue_.push_back(Job{std::move(records), std::move(done)});
        give = !std::exchange(flushGiven_, true);
    }
    if (give) {
        worker_->run([this] { flush(); });
    }
}

std::uint64_t JournalWriter::commits() const {
    const std::lock_guard lock(mutex_);
    return commits_;
}

std::uint64_t JournalWriter::transactions() const {
    const std::lock_guard lock(mutex_);
    return transactions_;
}

void JournalWriter::flush() {
    std::deque<Job> jobs;
    bool more = false;
    {
        const std::lock_guard lock(mutex_);
        while (!queue_.empty() && jobs.size() < maxGroup_) {
            jobs.push_back(std::move(queue_.front()));
            queue_.pop_front();
        }
        more = !queue_.empty();
        flushGiven_ = more;
    }
    std::vector<CommitResult> results(jobs.size());
    if (!failure_ && !jobs.empty()) {
        try {
            store_->begin();
            for (std::size_t i = 0; i < jobs.size(); ++i) {
                results[i].seqs = store_->insert(jobs[i].records);
            }
            store_->commit();
            for (CommitResult& result : results) {
                result.ok = true;
            }
        } catch (const std::exception& error) {
            store_->rollback();
            failure_ = std::string("journal commit failed: ") + error.what();
        }
    }
    if (failure_) {
        for (CommitResult& result : results) {
            result = CommitResult{false, {}, *failure_};
        }
    }
    {
        const std::lock_guard lock(mutex_);
        commits_ += jobs.size();
        ++transactions_;
    }
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (jobs[i].done) {
            post_([done = std::move(jobs[i].done), result = results[i]] { done(result); });
        }
    }
    if (more) {
        worker_->run([this] { flush(); });
    }
}

}  // namespace pitlink::journal
