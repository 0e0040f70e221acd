#pragma once
// A platform::Worker for unit tests: jobs wait in a queue until the test runs them, on its own
// thread, so that a test can decide what happens before and after a job's result comes back.
#include <deque>
#include <functional>
#include <utility>

#include "daemon/platform/worker.h"

namespace pitlink::test {

class QueuedWorker final : public platform::Worker {
public:
    // Shared with the test after the worker is handed over (the table owns it).
    struct Queue {
        std::deque<std::function<void()>> jobs;
        bool stopped = false;
        // Runs every job given so far, in order; true when there was one.
        bool runAll() {
            const bool any = !jobs.empty();
            while (!jobs.empty()) {
                auto job = std::move(jobs.front());
                jobs.pop_front();
                job();
            }
            return any;
        }
    };
    explicit QueuedWorker(Queue& queue) : queue_(queue) {}
    void run(std::function<void()> job) override {
        if (!queue_.stopped) {
            queue_.jobs.push_back(std::move(job));
        }
    }
    void stop() override { queue_.stopped = true; }

private:
    Queue& queue_;
};

}  // namespace pitlink::test
