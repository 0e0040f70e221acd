#pragma once
// The "logic thread" of tests, benchmarks and the crash child: the journal writer posts its
// completions here, and the test runs them when it chooses, as the daemon's io_context would.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>

namespace pitlink::test {

class CompletionQueue {
public:
    void post(std::function<void()> f) {
        {
            const std::lock_guard lock(mutex_);
            queue_.push_back(std::move(f));
        }
        wake_.notify_one();
    }
    // Waits for the next completion and runs it on the calling thread.
    void runOne() {
        std::function<void()> f;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return !queue_.empty(); });
            f = std::move(queue_.front());
            queue_.pop_front();
        }
        f();
    }

private:
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> queue_;
};

}  // namespace pitlink::test
