#include "daemon/journal/journal_writer.h"

namespace pitlink::journal {

JournalWriter::JournalWriter(std::unique_ptr<JournalStore> store, Post post, std::size_t maxGroup)
    : store_(std::move(store)), post_(std::move(post)), maxGroup_(maxGroup), thread_([this] { run(); }) {}

JournalWriter::~JournalWriter() { stop(); }

void JournalWriter::stop() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) {
        thread_.join();
    }
}

void JournalWriter::commit(std::vector<PendingRecord> records, Done done) {
    {
        const std::lock_guard lock(mutex_);
        queue_.push_back(Job{std::move(records), std::move(done)});
    }
    wake_.notify_one();
}

std::uint64_t JournalWriter::commits() const {
    const std::lock_guard lock(mutex_);
    return commits_;
}

std::uint64_t JournalWriter::transactions() const {
    const std::lock_guard lock(mutex_);
    return transactions_;
}

void JournalWriter::run() {
    for (;;) {
        std::deque<Job> jobs;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) {
                return;  // stopping, and everything queued has been committed
            }
            while (!queue_.empty() && jobs.size() < maxGroup_) {
                jobs.push_back(std::move(queue_.front()));
                queue_.pop_front();
            }
        }
        std::vector<CommitResult> results(jobs.size());
        if (!failure_) {
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
        finish(jobs, results);
    }
}

void JournalWriter::finish(std::deque<Job>& jobs, const std::vector<CommitResult>& results) {
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (jobs[i].done) {
            post_([done = std::move(jobs[i].done), result = results[i]] { done(result); });
        }
    }
}

}  // namespace pitlink::journal
