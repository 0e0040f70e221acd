#pragma once
// The real pitlinkd as the benchmarks run it: started with a configuration, its output in a log
// file; and the percentile of a set of samples.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace pitlink::test {

// Forks and execs `daemon --config config`, stdout and stderr to `log`.
inline pid_t startDaemon(const std::string& daemon, const std::filesystem::path& config,
                         const std::filesystem::path& log) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (std::freopen(log.c_str(), "w", stdout) == nullptr || ::dup2(STDOUT_FILENO, STDERR_FILENO) < 0) {
            ::_exit(127);
        }
        ::execl(daemon.c_str(), daemon.c_str(), "--config", config.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    return pid;
}

// The value below which a fraction `p` of the samples lie (0 for none).
inline double percentile(std::vector<double> values, double p) {
    if (values.empty()) {
        return 0;
    }
    std::sort(values.begin(), values.end());
    return values[static_cast<std::size_t>(p * static_cast<double>(values.size() - 1))];
}

}  // namespace pitlink::test
