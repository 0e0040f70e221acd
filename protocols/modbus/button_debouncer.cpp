#include "protocols/modbus/button_debouncer.h"

namespace pitlink::modbus {

bool ButtonDebouncer::sample(bool pressed, std::int64_t nowMs) {
    if (!stable_) {
        stable_ = pressed;
        return false;
    }
    if (pressed == *stable_) {
        candidate_.reset();  // a bounce back: the change did not last
        return false;
    }
    if (!candidate_ || *candidate_ != pressed) {
        candidate_ = pressed;
        candidateSince_ = nowMs;
    }
    if (nowMs - candidateSince_ < debounceMs_) {
        return false;
    }
    stable_ = pressed;
    candidate_.reset();
    return pressed;
}

void ButtonDebouncer::reset() {
    stable_.reset();
    candidate_.reset();
}

}  // namespace pitlink::modbus
