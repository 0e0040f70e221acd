#include "protocols/sas/exception_queue.h"

#include <algorithm>

#include "protocols/sas/bcd.h"

namespace pitlink::sas {

namespace {

// The priority order of a production EGM (tests/fixtures/sas/exception_codes.csv, rank 1 first).
constexpr std::array<std::uint8_t, 17> kPriorityOrder = {0x57, 0x67, 0x68, 0x3F, 0x6A, 0x6B, 0x6F, 0x56, 0x3D,
                                                         0x3E, 0x69, 0x6C, 0x6D, 0x52, 0x51, 0x8F, 0x70};

std::optional<std::size_t> rankOf(std::uint8_t code) {
    const auto* it = std::find(kPriorityOrder.begin(), kPriorityOrder.end(), code);
    if (it == kPriorityOrder.end()) {
        return std::nullopt;
    }
    return static_cast<std::size_t>(it - kPriorityOrder.begin());
}

}  // namespace

ExceptionQueue::ExceptionQueue(std::size_t capacity)
    : capacity_(std::max<std::size_t>(capacity, 20)), priority_(kPriorityOrder.size()) {}

SasException ExceptionQueue::raise(std::uint8_t code, std::vector<std::uint8_t> eventData,
                                   std::optional<std::uint64_t> serial) {
    SasException e{code, std::move(eventData), serial.value_or(nextSerial_)};
    nextSerial_ = std::max(nextSerial_, e.serial + 1);
    if (const auto rank = rankOf(code)) {
        priority_[*rank] = e;  // a flag: raising it again while pending reports it once
        return e;
    }
    if (pushFifo(e)) {
        priority_[*rankOf(kBufferOverflow)] = SasException{kBufferOverflow, {}, nextSerial_++};
    }
    return e;
}

bool ExceptionQueue::pushFifo(SasException e) {
    const bool full = fifo_.size() >= capacity_;
    if (full) {
        fifo_.pop_front();
        ++overflows_;
    }
    fifo_.push_back(std::move(e));
    return full;
}

std::optional<SasException> ExceptionQueue::next() const {
    for (const auto& flag : priority_) {
        if (flag) {
            return flag;
        }
    }
    if (!fifo_.empty()) {
        return fifo_.front();
    }
    return std::nullopt;
}

bool ExceptionQueue::acknowledge(const SasException& reported) {
    if (const auto rank = rankOf(reported.code)) {
        auto& flag = priority_[*rank];
        if (flag && flag->serial == reported.serial) {
            flag.reset();
            if (onAcknowledged_) {
                onAcknowledged_(reported);
            }
            return true;
        }
        return false;
    }
    if (!fifo_.empty() && fifo_.front().serial == reported.serial) {
        fifo_.pop_front();
        if (onAcknowledged_) {
            onAcknowledged_(reported);
        }
        return true;
    }
    return false;
}

bool ExceptionQueue::remove(std::uint64_t serial) {
    for (auto& flag : priority_) {
        if (flag && flag->serial == serial) {
            flag.reset();
            return true;
        }
    }
    const auto it =
        std::find_if(fifo_.begin(), fifo_.end(), [serial](const SasException& e) { return e.serial == serial; });
    if (it == fifo_.end()) {
        return false;
    }
    fifo_.erase(it);
    return true;
}

std::size_t ExceptionQueue::size() const {
    return fifo_.size() + static_cast<std::size_t>(std::count_if(priority_.begin(), priority_.end(),
                                                                 [](const auto& f) { return f.has_value(); }));
}

std::vector<SasException> ExceptionQueue::pending() const {
    std::vector<SasException> all;
    for (const auto& flag : priority_) {
        if (flag) {
            all.push_back(*flag);
        }
    }
    all.insert(all.end(), fifo_.begin(), fifo_.end());
    return all;
}

void ExceptionQueue::restore(const std::vector<SasException>& pending) {
    for (const SasException& e : pending) {
        nextSerial_ = std::max(nextSerial_, e.serial + 1);
        if (const auto rank = rankOf(e.code)) {
            priority_[*rank] = e;
        } else {
            pushFifo(e);
        }
    }
}

std::optional<std::uint16_t> gameSelectedBy(const SasException& e) {
    if (e.code != kGameSelected || e.eventData.size() != 2) {
        return std::nullopt;
    }
    const auto game = fromBcd(e.eventData);
    return game ? std::optional(static_cast<std::uint16_t>(*game)) : std::nullopt;  // 2 BCD: at most 9999
}

}  // namespace pitlink::sas
