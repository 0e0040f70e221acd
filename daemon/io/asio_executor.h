#pragma once
// The daemon's executor (platform::Executor) on the logic thread's io_context: posts and steady
// timers there; the steady and the system clock are read here and nowhere else in the logic.
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <map>
#include <memory>

#include "daemon/platform/executor.h"

namespace pitlink::io {

class AsioExecutor : public platform::Executor {
public:
    explicit AsioExecutor(boost::asio::io_context& io) : io_(io) {}
    void post(std::function<void()> work) override;
    [[nodiscard]] std::int64_t nowMs() const override;
    [[nodiscard]] std::int64_t wallMs() const override;
    TimerId after(std::chrono::milliseconds delay, std::function<void()> fire) override;
    void cancel(TimerId id) override;
    [[nodiscard]] boost::asio::io_context& io() { return io_; }

private:
    boost::asio::io_context& io_;
    TimerId nextId_ = 1;
    std::map<TimerId, std::unique_ptr<boost::asio::steady_timer>> timers_;
};

}  // namespace pitlink::io
