#pragma once
// Timers on a manual clock: tests advance time and the due timers fire in order, on the test's
// thread, with no sleeping.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <utility>

#include "daemon/table/timers.h"

namespace pitlink::test {

class ManualTimers : public table::Timers {
public:
    Id after(std::chrono::milliseconds delay, std::function<void()> fire) override {
        const Id id = nextId_++;
        pending_.emplace(std::make_pair(now_ + delay, id), std::move(fire));
        return id;
    }
    void cancel(Id id) override {
        std::erase_if(pending_, [id](const auto& entry) { return entry.first.second == id; });
    }
    // Moves the clock forward by `by`, firing every timer that falls due, in time order
    // (timers set by a firing timer fire too if they fall due within `by`).
    void advance(std::chrono::milliseconds by) {
        const auto until = now_ + by;
        while (!pending_.empty() && pending_.begin()->first.first <= until) {
            auto entry = pending_.extract(pending_.begin());
            now_ = entry.key().first;
            entry.mapped()();
        }
        now_ = until;
    }
    [[nodiscard]] std::size_t pending() const { return pending_.size(); }
    [[nodiscard]] std::chrono::milliseconds now() const { return now_; }

private:
    std::chrono::milliseconds now_{0};
    Id nextId_ = 1;
    std::map<std::pair<std::chrono::milliseconds, Id>, std::function<void()>> pending_;
};

}  // namespace pitlink::test
