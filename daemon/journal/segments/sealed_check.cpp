#include "daemon/journal/segments/sealed_check.h"

#include "daemon/journal/read/audit.h"
#include "daemon/journal/store/chain_verifier.h"
#include "daemon/platform/scheduling.h"

namespace pitlink::journal {

SealedCheckResult checkSealedSegments(SegmentedJournal& journal, const std::atomic<bool>& stop) {
    SealedCheckResult result;
    try {
        std::optional<nlohmann::json> carried;  // segment i's segment.carried, as the last seal check read it
        for (std::size_t i = 0; i + 1 < journal.size(); ++i) {
            JournalStore& store = journal.segment(i);
            const std::string where = "sealed segment " + journal.file(i);
            if (const std::string quick = store.quickCheck(); quick != "ok") {
                result.failure = where;
                *result.failure += " failed its integrity check: ";
                *result.failure += quick;
                return result;
            }
            const ChainCheck chain = verifyChain(store, store.firstSeq(), [&](const JournalRecord&) {
                return stop.load() ? std::string("check stopped") : std::string();
            });
            if (!chain.ok) {
                result.failure = where + ": " + chain.problem;
                return result;
            }
            if (std::string problem = checkSegmentSeal(journal, i + 1, &carried); !problem.empty()) {
                result.failure = std::move(problem);
                return result;
            }
            result.records += chain.checked;
            ++result.segments;
        }
    } catch (const std::exception& error) {
        result.failure = std::string("sealed segments cannot be read: ") + error.what();
    }
    return result;
}

SealedSegmentsCheck::SealedSegmentsCheck(std::string path, StoreOptions options,
                                         std::unique_ptr<platform::Worker> worker, bool idle,
                                         platform::Executor& executor, Done done)
    : executor_(executor), done_(std::move(done)), worker_(std::move(worker)) {
    options.readOnly = true;
    worker_->run([this, path = std::move(path), options = std::move(options), idle] { run(path, options, idle); });
}

SealedSegmentsCheck::~SealedSegmentsCheck() {
    stop_ = true;
    {
        const std::lock_guard lock(mutex_);
        if (journal_) {
            journal_->interrupt();
        }
    }
    worker_->stop();
}

void SealedSegmentsCheck::run(const std::string& path, const StoreOptions& options, bool idle) {
    if (idle) {
        platform::idleSchedulingForThisThread();
    }
    SealedCheckResult result;
    try {
        auto journal = std::make_unique<SegmentedJournal>(path, options);
        {
            const std::lock_guard lock(mutex_);
            journal_ = std::move(journal);
        }
        if (!stop_) {
            result = checkSealedSegments(*journal_, stop_);
        }
    } catch (const std::exception& error) {
        result.failure = std::string("sealed segments cannot be opened for their check: ") + error.what();
    }
    {
        const std::lock_guard lock(mutex_);
        journal_.reset();
    }
    if (!stop_) {
        executor_.post([done = done_, result] { done(result); });
    }
}

}  // namespace pitlink::journal
