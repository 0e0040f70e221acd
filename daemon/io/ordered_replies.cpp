#include "daemon/io/ordered_replies.h"

namespace pitlink::io {

OrderedReplies::Fill OrderedReplies::next() {
    const std::uint64_t place = nextPlace_++;
    return [weak = weak_from_this(), place](std::string line) {
        if (const auto self = weak.lock()) {
            self->fill(place, std::move(line));
        }
    };
}

void OrderedReplies::fill(std::uint64_t place, std::string line) {
    if (place < nextToSend_ || !ready_.emplace(place, std::move(line)).second) {
        ++duplicates_;
        return;
    }
    // Send from the front while the front is ready. `send_` may reach a closed client: the lines
    // then go nowhere, in order still.
    for (auto it = ready_.begin(); it != ready_.end() && it->first == nextToSend_; it = ready_.begin()) {
        const std::string out = std::move(it->second);
        ready_.erase(it);
        ++nextToSend_;
        send_(out);
    }
}

std::size_t OrderedReplies::held() const {
    return ready_.size();
}

}  // namespace pitlink::io
