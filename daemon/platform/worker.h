#pragma once
// Where blocking work runs, off the logic thread (docs/design.md rule 2): SQLite commits and reads,
// the integrity scan, libmodbus calls. Jobs run one at a time, in the order given; a job posts
// its result back through the executor. pitlinkd gives each user a WorkerThread; the simulation
// tier runs the jobs on its simulated clock, after a latency of its choosing.
#include <functional>

namespace pitlink::platform {

class Worker {
public:
    virtual ~Worker() = default;
    // Thread-safe.
    virtual void run(std::function<void()> job) = 0;
    // Runs the jobs already given, then no more. Idempotent.
    virtual void stop() = 0;
};

}  // namespace pitlink::platform
