#pragma once
// systemd's service protocol (Type=notify) through libsystemd: READY=1 once the journal is
// recovered and the table runs, STATUS= lines an operator sees in `systemctl status`, STOPPING=1,
// and WATCHDOG=1 from the logic thread's own timer, so that a stuck logic thread stops the pings
// and systemd restarts the daemon. Outside systemd (no NOTIFY_SOCKET) every call does nothing.
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <string>

namespace pitlink::io {

class ServiceNotifier {
public:
    explicit ServiceNotifier(boost::asio::io_context& io);
    void ready(const std::string& status);
    void status(const std::string& status);
    void stopping();

private:
    void pingLater();

    boost::asio::steady_timer timer_;
    std::chrono::microseconds interval_{0};
};

}  // namespace pitlink::io
