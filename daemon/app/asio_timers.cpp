#include "daemon/app/asio_timers.h"

namespace pitlink::app {

table::Timers::Id AsioTimers::after(std::chrono::milliseconds delay, std::function<void()> fire) {
    const Id id = nextId_++;
    auto timer = std::make_unique<boost::asio::steady_timer>(io_, delay);
    timer->async_wait([this, id, fire = std::move(fire)](const boost::system::error_code& ec) {
        if (ec) {
            return;  // cancelled: the entry is already gone
        }
        timers_.erase(id);
        fire();
    });
    timers_.emplace(id, std::move(timer));
    return id;
}

void AsioTimers::cancel(Id id) {
    if (const auto it = timers_.find(id); it != timers_.end()) {
        it->second->cancel();
        timers_.erase(it);
    }
}

}  // namespace pitlink::app
