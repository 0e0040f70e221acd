#include "daemon/journal/journal_writer.h"

#include "daemon/journal/store/journal_store.h"
#include "daemon/platform/worker_thread.h"

namespace pitlink::journal {

JournalWriter::JournalWriter(std::unique_ptr<JournalStore> store, platform::Executor& executor, std::size_t maxGroup)
    : JournalWriter(std::move(store), std::make_unique<platform::WorkerThread>(), executor, maxGroup) {}

JournalWriter::JournalWriter(std::unique_ptr<JournalStore> store, std::unique_ptr<platform::Worker> worker,
                             platform::Executor& executor, std::size_t maxGroup)
    : store_(std::move(store)), executor_(executor), maxGroup_(maxGroup), worker_(std::move(worker)) {}

JournalWriter::~JournalWriter() {
    stop();
}

void JournalWriter::stop() {
    worker_->stop();
}

void JournalWriter::commit(std::vector<PendingRecord> records, Done done) {
    enqueue(Job{std::move(records), std::move(done), false});
}

void JournalWriter::rotate(std::vector<PendingRecord> records, Done done) {
    enqueue(Job{std::move(records), std::move(done), true});
}

void JournalWriter::enqueue(Job job) {
    bool give = false;
    {
        const std::lock_guard lock(mutex_);
        queue_.push_back(std::move(job));
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
        // A rotation is a transaction of its own, between the groups before and after it.
        while (!queue_.empty() && jobs.size() < maxGroup_) {
            if (!jobs.empty() && (jobs.front().rotate || queue_.front().rotate)) {
                break;
            }
            jobs.push_back(std::move(queue_.front()));
            queue_.pop_front();
        }
        more = !queue_.empty();
        flushGiven_ = more;
    }
    std::vector<CommitResult> results(jobs.size());
    if (!failure_ && jobs.size() == 1 && jobs.front().rotate) {
        results.front() = rotateNow(jobs.front().records);
    } else if (!failure_ && !jobs.empty()) {
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
            result = CommitResult::failed(*failure_);
        }
    }
    {
        const std::lock_guard lock(mutex_);
        commits_ += jobs.size();
        ++transactions_;
    }
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (jobs[i].done) {
            executor_.post([done = std::move(jobs[i].done), result = results[i]] { done(result); });
        }
    }
    if (more) {
        worker_->run([this] { flush(); });
    }
}

CommitResult JournalWriter::rotateNow(const std::vector<PendingRecord>& records) {
    CommitResult result;
    if (rotation_) {
        try {
            store_ = rotation_->rotate(store_, records, result.seqs);
            result.ok = true;
            result.rotated = true;
            generation_.fetch_add(1, std::memory_order_release);
            return result;
        } catch (const RotationPostponed& postponed) {
            result.postponed = postponed.what();  // the old segment is open and unchanged
        } catch (const std::exception& error) {
            failure_ = std::string("journal rotation failed: ") + error.what();
            return CommitResult::failed(*failure_);
        }
    } else {
        result.postponed = "this journal has no segments";
    }
    try {
        result.seqs = store_->append(records);
        result.ok = true;
    } catch (const std::exception& error) {
        failure_ = std::string("journal commit failed: ") + error.what();
        result = CommitResult::failed(*failure_);
    }
    return result;
}

}  // namespace pitlink::journal
