#pragma once
// How long to wait before reconnecting to a device that failed: doubling from `min` up to `max`
// with each failure in a row, back to `min` after a success. Bounded so that a device that comes
// back is found again within `max`.
#include <algorithm>
#include <chrono>

namespace pitlink::modbus {

class ReconnectBackoff {
public:
    ReconnectBackoff(std::chrono::milliseconds min, std::chrono::milliseconds max) : min_(min), max_(max), next_(min) {}

    // A failure: the wait before the next attempt.
    std::chrono::milliseconds failed() {
        const auto wait = next_;
        next_ = std::min(next_ * 2, max_);
        ++failures_;
        return wait;
    }
    void succeeded() {
        next_ = min_;
        failures_ = 0;
    }
    [[nodiscard]] int failuresInARow() const { return failures_; }

private:
    std::chrono::milliseconds min_;
    std::chrono::milliseconds max_;
    std::chrono::milliseconds next_;
    int failures_ = 0;
};

}  // namespace pitlink::modbus
