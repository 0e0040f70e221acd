#pragma once
// A platform::Worker on simulated time: each job runs on the simulation's one thread after a
// latency drawn from the run's random source, never before the job given ahead of it (a worker
// runs its jobs in order). The journal writer on it commits to a real SQLite file; its batches
// form as they would on a thread: whatever is queued when a flush runs goes in one transaction.
// At a crash the simulation drops the process: `powerOff` makes every job not yet run vanish.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>

#include "daemon/platform/worker.h"
#include "tests/sim/sim_executor.h"

namespace pitlink::sim {

struct WorkerLatency {
    std::int64_t minMs = 0;
    std::int64_t maxMs = 4;
    std::uint32_t slowOneIn = 50;  // now and then a slow one (an fsync behind other I/O)
    std::int64_t slowMs = 40;
};

class SimWorker final : public platform::Worker {
public:
    SimWorker(SimExecutor& executor, std::mt19937_64& random, WorkerLatency latency,
              std::shared_ptr<const bool> powerOff)
        : executor_(executor), random_(random), latency_(latency), powerOff_(std::move(powerOff)) {}

    void run(std::function<void()> job) override {
        if (*powerOff_) {
            return;
        }
        std::int64_t delay = std::uniform_int_distribution<std::int64_t>(latency_.minMs, latency_.maxMs)(random_);
        if (latency_.slowOneIn > 0 && random_() % latency_.slowOneIn == 0) {
            delay += latency_.slowMs;
        }
        const std::int64_t at = std::max(executor_.nowMs() + delay, last_);
        last_ = at;
        ++pending_;
        executor_.after(std::chrono::milliseconds(at - executor_.nowMs()),
                        [this, alive = alive_, powerOff = powerOff_, job = std::move(job)] {
                            if (!*alive || *powerOff) {
                                return;
                            }
                            --pending_;
                            job();
                        });
    }
    // The jobs already given run now, in order (an orderly stop); none after a power-off.
    void stop() override {
        while (pending_ > 0 && !*powerOff_ && executor_.runOne()) {
        }
    }
    ~SimWorker() override { *alive_ = false; }

private:
    SimExecutor& executor_;
    std::mt19937_64& random_;
    WorkerLatency latency_;
    std::shared_ptr<const bool> powerOff_;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
    std::int64_t last_ = 0;
    int pending_ = 0;
};

}  // namespace pitlink::sim
