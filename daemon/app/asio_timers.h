#pragma once
// table::Timers on the logic thread's io_context (steady clock).
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <map>
#include <memory>

#include "daemon/table/timers.h"

namespace pitlink::app {

class AsioTimers : public table::Timers {
public:
    explicit AsioTimers(boost::asio::io_context& io) : io_(io) {}
    Id after(std::chrono::milliseconds delay, std::function<void()> fire) override;
    void cancel(Id id) override;

private:
    boost::asio::io_context& io_;
    Id nextId_ = 1;
    std::map<Id, std::unique_ptr<boost::asio::steady_timer>> timers_;
};

}  // namespace pitlink::app
