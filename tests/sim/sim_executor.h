#pragma once
// The daemon's executor on simulated time (tests/sim): posted work runs first, in the order
// posted; then the earliest timer (ties in the order they were set), the clock jumping to it.
// Nothing here reads a real clock or runs a thread, so one seed gives one run, exactly.
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <utility>

#include "daemon/platform/executor.h"

namespace pitlink::sim {

class SimExecutor final : public platform::Executor {
public:
    static constexpr std::int64_t kWallAtZeroMs = 1'795'000'000'000;  // UTC when the simulated clock reads 0

    explicit SimExecutor(std::int64_t startMs = 0) : now_(startMs) {}

    void post(std::function<void()> work) override { posted_.push_back(std::move(work)); }
    [[nodiscard]] std::int64_t nowMs() const override { return now_; }
    [[nodiscard]] std::int64_t wallMs() const override { return kWallAtZeroMs + now_; }
    TimerId after(std::chrono::milliseconds delay, std::function<void()> fire) override {
        const TimerId id = nextId_++;
        timers_.emplace(std::make_pair(now_ + std::max<std::int64_t>(0, delay.count()), id), std::move(fire));
        return id;
    }
    void cancel(TimerId id) override {
        for (auto it = timers_.begin(); it != timers_.end(); ++it) {
            if (it->first.second == id) {
                timers_.erase(it);
                return;
            }
        }
    }

    // Runs the next piece of work; false when there is none at all.
    bool runOne() {
        if (!posted_.empty()) {
            auto work = std::move(posted_.front());
            posted_.pop_front();
            work();
            return true;
        }
        if (timers_.empty()) {
            return false;
        }
        auto entry = timers_.extract(timers_.begin());
        now_ = std::max(now_, entry.key().first);
        entry.mapped()();
        return true;
    }
    // Runs everything due up to `until` (posted work, then timers in time order); the clock ends there.
    void runUntil(std::int64_t until) {
        for (;;) {
            if (posted_.empty() && (timers_.empty() || timers_.begin()->first.first > until)) {
                break;
            }
            runOne();
        }
        now_ = std::max(now_, until);
    }
    // The time of the next timer, if any.
    [[nodiscard]] std::optional<std::int64_t> nextTimer() const {
        return timers_.empty() ? std::nullopt : std::optional<std::int64_t>(timers_.begin()->first.first);
    }
    [[nodiscard]] bool idle() const { return posted_.empty(); }

private:
    std::int64_t now_;
    TimerId nextId_ = 1;
    std::map<std::pair<std::int64_t, TimerId>, std::function<void()>> timers_;
    std::deque<std::function<void()>> posted_;
};

}  // namespace pitlink::sim
