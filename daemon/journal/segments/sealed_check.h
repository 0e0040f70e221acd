#pragma once
// The sealed segments checked in the background (schema/README.md "Segments"). A start-up checks
// the active segment whole and trusts the sealed ones by their seals, so that the table is back
// in a second whatever the journal's age; this check then reads every sealed segment at the
// lowest priority (SQLite's quick_check of every page, the chain within it, and its seal in the
// next segment against it) while the table runs. A failure is a tilt: the journal's history is
// no longer what was written.
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "daemon/journal/segments/segmented_journal.h"
#include "daemon/journal/store/journal_store.h"
#include "daemon/platform/executor.h"
#include "daemon/platform/worker.h"

namespace pitlink::journal {

struct SealedCheckResult {
    std::int64_t segments = 0;  // sealed segments checked
    std::int64_t records = 0;
    std::optional<std::string> failure;
    [[nodiscard]] bool ok() const { return !failure.has_value(); }
};

// On the calling thread; `stop` ends it early (a failure saying so).
[[nodiscard]] SealedCheckResult checkSealedSegments(SegmentedJournal& journal, const std::atomic<bool>& stop);

class SealedSegmentsCheck {
public:
    using Done = std::function<void(const SealedCheckResult&)>;
    // On `worker`; `idle`: the worker's thread drops to the idle CPU and I/O classes first.
    SealedSegmentsCheck(std::string path, StoreOptions options, std::unique_ptr<platform::Worker> worker, bool idle,
                        platform::Executor& executor, Done done);
    // Interrupts a check still running and waits for it; `done` is then not called.
    ~SealedSegmentsCheck();
    SealedSegmentsCheck(const SealedSegmentsCheck&) = delete;
    SealedSegmentsCheck& operator=(const SealedSegmentsCheck&) = delete;

private:
    void run(const std::string& path, const StoreOptions& options, bool idle);

    platform::Executor& executor_;
    Done done_;
    std::atomic<bool> stop_{false};
    std::mutex mutex_;  // guards journal_ against the interrupt of a stop
    std::unique_ptr<SegmentedJournal> journal_;
    std::unique_ptr<platform::Worker> worker_;  // last: stopped first
};

}  // namespace pitlink::journal
