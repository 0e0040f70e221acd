#include "daemon/io/asio_executor.h"

#include <boost/asio/post.hpp>

namespace pitlink::io {

void AsioExecutor::post(std::function<void()> work) {
    boost::asio::post(io_, std::move(work));
}

std::int64_t AsioExecutor::nowMs() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::int64_t AsioExecutor::wallMs() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

platform::Executor::TimerId AsioExecutor::after(std::chrono::milliseconds delay, std::function<void()> fire) {
    const TimerId id = nextId_++;
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

void AsioExecutor::cancel(TimerId id) {
    if (const auto it = timers_.find(id); it != timers_.end()) {
        it->second->cancel();
        timers_.erase(it);
    }
}

}  // namespace pitlink::io
