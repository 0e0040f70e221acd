#pragma once
// The executor on a manual clock for unit tests: tests advance time and the due timers fire in
// order, on the test's thread, with no sleeping; posted work runs when time is advanced (or with
// runPosted), before the timers due.
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <utility>

#include "daemon/platform/executor.h"

namespace pitlink::test {

class ManualExecutor : public platform::Executor {
public:
    static constexpr std::int64_t kWallAtZeroMs = 1'795'000'000'000;  // 2026-11-18 (UTC) when the clock reads 0

    void post(std::function<void()> work) override { posted_.push_back(std::move(work)); }
    [[nodiscard]] std::int64_t nowMs() const override { return now_.count(); }
    [[nodiscard]] std::int64_t wallMs() const override { return kWallAtZeroMs + now_.count(); }
    TimerId after(std::chrono::milliseconds delay, std::function<void()> fire) override {
        const TimerId id = nextId_++;
        pending_.emplace(std::make_pair(now_ + delay, id), std::move(fire));
        return id;
    }
    void cancel(TimerId id) override {
        std::erase_if(pending_, [id](const auto& entry) { return entry.first.second == id; });
    }
    void runPosted() {
        while (!posted_.empty()) {
            auto work = std::move(posted_.front());
            posted_.pop_front();
            work();
        }
    }
    // Moves the clock forward by `by`, firing every timer that falls due, in time order
    // (timers set by a firing timer fire too if they fall due within `by`).
    void advance(std::chrono::milliseconds by) {
        const auto until = now_ + by;
        runPosted();
        while (!pending_.empty() && pending_.begin()->first.first <= until) {
            auto entry = pending_.extract(pending_.begin());
            now_ = entry.key().first;
            entry.mapped()();
            runPosted();
        }
        now_ = until;
    }
    [[nodiscard]] std::size_t pending() const { return pending_.size(); }
    [[nodiscard]] std::chrono::milliseconds now() const { return now_; }

private:
    std::chrono::milliseconds now_{0};
    TimerId nextId_ = 1;
    std::map<std::pair<std::chrono::milliseconds, TimerId>, std::function<void()>> pending_;
    std::deque<std::function<void()>> posted_;
};

}  // namespace pitlink::test
