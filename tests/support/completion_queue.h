#pragma once
// The "logic thread" of tests, benchmarks and the crash child: the journal writer, reader and
// scans post their completions here (from their threads), and the test runs them when it
// chooses, as the daemon's io_context would. Real clocks; no timers (those users set none).
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <stdexcept>

#include "daemon/platform/executor.h"

namespace pitlink::test {

class CompletionQueue final : public platform::Executor {
public:
    void post(std::function<void()> f) override {
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

    [[nodiscard]] std::int64_t nowMs() const override {
        return std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }
    [[nodiscard]] std::int64_t wallMs() const override {
        return std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
            .count();
    }
    TimerId after(std::chrono::milliseconds /*delay*/, std::function<void()> /*fire*/) override {
        throw std::logic_error("the completion queue has no timers");
    }
    void cancel(TimerId /*id*/) override {}

private:
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> queue_;
};

}  // namespace pitlink::test
