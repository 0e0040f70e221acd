#pragma once
// The long start-up checks of a big journal, on their own thread and their own read-only
// connection: PRAGMA quick_check (every page of the file: ~2.8 s per GB) and, if configured,
// the whole hash chain from record 1. pitlinkd recovers its state from the last snapshots in
// milliseconds (inspectJournal), runs this scan, and writes nothing (no round is finished, no
// bet is taken) until the scan has passed; a failed scan is a tilt with the journal untouched.
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "daemon/journal/store/chain_verifier.h"
#include "daemon/journal/store/journal_store.h"
#include "daemon/platform/executor.h"
#include "daemon/platform/worker.h"

namespace pitlink::journal {

struct IntegrityResult {
    std::string quickCheck;              // "ok" or what SQLite found
    std::optional<ChainCheck> chain;     // the whole chain, when asked for
    std::optional<std::string> failure;  // why the journal must not be written, if so
    [[nodiscard]] bool ok() const { return !failure.has_value(); }
};

// The scan itself, on the calling thread (the bench and tests time it). `stop` ends it early
// (the result is then a failure saying so).
[[nodiscard]] IntegrityResult scanIntegrity(JournalStore& readOnlyStore, bool fullChain,
                                            const std::atomic<bool>& stop = std::atomic<bool>{false});

class IntegrityScan {
public:
    using Done = std::function<void(const IntegrityResult&)>;
    // Opens `path` read-only with `options` (the chain key) on a new thread and scans it; `done`
    // is posted to the logic thread with the result.
    IntegrityScan(std::string path, StoreOptions options, bool fullChain, platform::Executor& executor, Done done);
    // On `worker` (the simulation tier's).
    IntegrityScan(std::string path, StoreOptions options, bool fullChain, std::unique_ptr<platform::Worker> worker,
                  platform::Executor& executor, Done done);
    // Interrupts a scan still running and waits for its worker; `done` is then not called.
    ~IntegrityScan();
    IntegrityScan(const IntegrityScan&) = delete;
    IntegrityScan& operator=(const IntegrityScan&) = delete;

private:
    void run(const std::string& path, const StoreOptions& options, bool fullChain);

    platform::Executor& executor_;
    Done done_;
    std::atomic<bool> stop_{false};
    std::mutex mutex_;  // guards store_ against interrupt() while it is opened/closed
    std::unique_ptr<JournalStore> store_;
    std::unique_ptr<platform::Worker> worker_;  // last: stopped first
};

}  // namespace pitlink::journal
