#include "daemon/journal/journal_reader.h"

namespace pitlink::journal {

JournalReader::JournalReader(std::string path, StoreOptions options, Post post)
    : path_(std::move(path)), options_(std::move(options)), post_(std::move(post)) {
    options_.readOnly = true;
    thread_ = std::thread([this] { run(); });
}

JournalReader::~JournalReader() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
        jobs_.clear();
        if (store_) {
            store_->connection().interrupt();  // a long audit ends with SQLITE_INTERRUPT
        }
    }
    wake_.notify_one();
    thread_.join();
}

std::size_t JournalReader::queued() const {
    const std::lock_guard lock(mutex_);
    return jobs_.size();
}

void JournalReader::enqueue(Job job, Failed failed) {
    {
        const std::lock_guard lock(mutex_);
        jobs_.emplace_back(std::move(job), std::move(failed));
    }
    wake_.notify_one();
}

void JournalReader::run() {
    for (;;) {
        std::pair<Job, Failed> next;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
            if (stopping_) {
                store_.reset();
                return;
            }
            next = std::move(jobs_.front());
            jobs_.pop_front();
        }
        std::function<void()> answer;
        try {
            if (!store_) {
                auto store = std::make_unique<JournalStore>(path_, options_);
                const std::lock_guard lock(mutex_);
                store_ = std::move(store);
            }
            answer = next.first(*store_);
        } catch (const std::exception& error) {
            answer = [failed = std::move(next.second), message = std::string(error.what())] { failed(message); };
        }
        const std::lock_guard lock(mutex_);
        if (!stopping_) {
            post_(std::move(answer));
        }
    }
}

}  // namespace pitlink::journal
