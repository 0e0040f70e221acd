#include "daemon/journal/store/integrity_scan.h"

#include "daemon/platform/worker_thread.h"

namespace pitlink::journal {

IntegrityResult scanIntegrity(JournalStore& readOnlyStore, bool fullChain, const std::atomic<bool>& stop) {
    IntegrityResult result;
    try {
        result.quickCheck = readOnlyStore.quickCheck();
        if (result.quickCheck != "ok") {
            result.failure = "journal integrity check failed: " + result.quickCheck;
        } else if (fullChain) {
            result.chain = verifyChain(readOnlyStore, 1, [&](const JournalRecord&) {
                return stop.load() ? std::string("scan stopped") : std::string();
            });
            if (!result.chain->ok) {
                result.failure = "journal check failed at record " +
                                 std::to_string(result.chain->firstBadSeq.value_or(0)) + ": " + result.chain->problem;
            }
        }
    } catch (const std::exception& error) {
        // SQLITE_CORRUPT, SQLITE_IOERR, or SQLITE_INTERRUPT when stopped.
        result.failure = std::string("journal integrity check failed: ") + error.what();
    }
    return result;
}

IntegrityScan::IntegrityScan(std::string path, StoreOptions options, bool fullChain, platform::Executor& executor,
                             Done done)
    : IntegrityScan(std::move(path), std::move(options), fullChain, std::make_unique<platform::WorkerThread>(),
                    executor, std::move(done)) {}

IntegrityScan::IntegrityScan(std::string path, StoreOptions options, bool fullChain,
                             std::unique_ptr<platform::Worker> worker, platform::Executor& executor, Done done)
    : executor_(executor), done_(std::move(done)), worker_(std::move(worker)) {
    options.readOnly = true;
    worker_->run(
        [this, path = std::move(path), options = std::move(options), fullChain] { run(path, options, fullChain); });
}

IntegrityScan::~IntegrityScan() {
    stop_ = true;
    {
        const std::lock_guard lock(mutex_);
        if (store_) {
            store_->connection().interrupt();
        }
    }
    worker_->stop();
}

void IntegrityScan::run(const std::string& path, const StoreOptions& options, bool fullChain) {
    IntegrityResult result;
    try {
        auto store = std::make_unique<JournalStore>(path, options);
        {
            const std::lock_guard lock(mutex_);
            store_ = std::move(store);
        }
        if (!stop_) {
            result = scanIntegrity(*store_, fullChain, stop_);
        }
    } catch (const std::exception& error) {
        result.failure = std::string("journal cannot be opened for its integrity check: ") + error.what();
    }
    {
        const std::lock_guard lock(mutex_);
        store_.reset();
    }
    if (!stop_) {
        executor_.post([done = done_, result] { done(result); });
    }
}

}  // namespace pitlink::journal
