#include "daemon/sas/table_clock.h"

#include <ctime>

namespace pitlink::sas {

std::int64_t TableClock::nowMs() const {
    return executor_.wallMs() + offsetMs_.load();
}

SasDateTime TableClock::localTimeOf(std::int64_t utcMs) {
    const std::time_t seconds = static_cast<std::time_t>(utcMs / 1000);
    std::tm tm{};
    ::localtime_r(&seconds, &tm);
    return SasDateTime{tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec};
}

std::optional<std::int64_t> TableClock::offsetFor(const SasDateTime& host, std::chrono::seconds tolerance) const {
    std::tm tm{};
    tm.tm_year = host.year - 1900;
    tm.tm_mon = host.month - 1;
    tm.tm_mday = host.day;
    tm.tm_hour = host.hour;
    tm.tm_min = host.minute;
    tm.tm_sec = host.second;
    tm.tm_isdst = -1;  // as the local rules say for that date
    const std::time_t hostSeconds = ::mktime(&tm);
    if (hostSeconds == static_cast<std::time_t>(-1)) {
        return std::nullopt;
    }
    const std::int64_t hostMs = static_cast<std::int64_t>(hostSeconds) * 1000;
    const std::int64_t now = nowMs();
    const std::int64_t move = hostMs - now;
    if (move > tolerance.count() * 1000 || -move > tolerance.count() * 1000) {
        return std::nullopt;
    }
    return offsetMs_.load() + move;
}

}  // namespace pitlink::sas
