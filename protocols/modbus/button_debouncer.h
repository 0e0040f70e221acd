#pragma once
// One dealer button's press detection from polled samples: a level counts only once it has been
// stable for the debounce time, and a press is the change from released to pressed, so a button
// held down is one press however long it is held. After a reconnect the first sample is taken as
// it stands (a button held while the device was away is not a new press).
#include <chrono>
#include <cstdint>
#include <optional>

namespace pitlink::modbus {

class ButtonDebouncer {
public:
    explicit ButtonDebouncer(std::chrono::milliseconds debounce) : debounceMs_(debounce.count()) {}

    // The level read at `nowMs`; true when it completes a press.
    bool sample(bool pressed, std::int64_t nowMs);
    // The device came back: the next sample sets the level without an edge.
    void reset();
    [[nodiscard]] bool pressed() const { return stable_.value_or(false); }

private:
    std::int64_t debounceMs_;
    std::optional<bool> stable_;     // the debounced level; nullopt until the first sample
    std::optional<bool> candidate_;  // a different level seen since `candidateSince_`
    std::int64_t candidateSince_ = 0;
};

}  // namespace pitlink::modbus
