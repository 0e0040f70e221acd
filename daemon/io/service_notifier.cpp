#include "daemon/io/service_notifier.h"

#include <systemd/sd-daemon.h>

namespace pitlink::io {

ServiceNotifier::ServiceNotifier(boost::asio::io_context& io) : timer_(io) {
    std::uint64_t usec = 0;
    if (::sd_watchdog_enabled(0, &usec) > 0 && usec > 0) {
        interval_ = std::chrono::microseconds(usec);
        pingLater();
    }
}

void ServiceNotifier::ready(const std::string& text) {
    ::sd_notifyf(0, "READY=1\nSTATUS=%s", text.c_str());
}

void ServiceNotifier::status(const std::string& text) {
    ::sd_notifyf(0, "STATUS=%s", text.c_str());
}

void ServiceNotifier::stopping() {
    timer_.cancel();
    ::sd_notify(0, "STOPPING=1");
}

void ServiceNotifier::pingLater() {
    // Twice per interval, as sd_watchdog_enabled(3) recommends.
    timer_.expires_after(interval_ / 2);
    timer_.async_wait([this](const boost::system::error_code& ec) {
        if (ec) {
            return;
        }
        ::sd_notify(0, "WATCHDOG=1");
        pingLater();
    });
}

}  // namespace pitlink::io
