#include "daemon/journal/read/journal_reader.h"

#include "daemon/platform/worker_thread.h"

namespace pitlink::journal {

JournalReader::JournalReader(std::string path, StoreOptions options, platform::Executor& executor)
    : JournalReader(std::move(path), std::move(options), std::make_unique<platform::WorkerThread>(), executor) {}

JournalReader::JournalReader(std::string path, StoreOptions options, std::unique_ptr<platform::Worker> worker,
                             platform::Executor& executor)
    : path_(std::move(path)), options_(std::move(options)), executor_(executor), worker_(std::move(worker)) {
    options_.readOnly = true;
}

JournalReader::~JournalReader() {
    stopping_ = true;  // jobs still queued return at once, unanswered
    {
        const std::lock_guard lock(mutex_);
        if (journal_) {
            journal_->interrupt();  // a long audit ends with SQLITE_INTERRUPT
        }
    }
    worker_->stop();
    const std::lock_guard lock(mutex_);
    journal_.reset();
}

void JournalReader::enqueue(Job job, Failed failed) {
    ++queued_;
    worker_->run([this, job = std::move(job), failed = std::move(failed)] {
        --queued_;
        runJob(job, failed);
    });
}

void JournalReader::runJob(const Job& job, const Failed& failed) {
    if (stopping_) {
        return;
    }
    std::function<void()> answer;
    try {
        const std::uint64_t generation = generation_ != nullptr ? generation_->load(std::memory_order_acquire) : 0;
        if (journal_ && generation != openedAt_ && journal_->extend()) {
            openedAt_ = generation;  // rotations since: the new segments taken in
        }
        if (!journal_ || generation != openedAt_) {
            {
                const std::lock_guard lock(mutex_);
                journal_.reset();
            }
            openedAt_ = generation;
            auto journal = std::make_unique<SegmentedJournal>(path_, options_);
            const std::lock_guard lock(mutex_);
            journal_ = std::move(journal);
        }
        answer = job(*journal_);
    } catch (const std::exception& error) {
        answer = [failed, message = std::string(error.what())] { failed(message); };
    }
    if (!stopping_) {
        executor_.post(std::move(answer));
    }
}

}  // namespace pitlink::journal
