#pragma once
// Real-time scheduling of the logic thread (issue 18), as chrony sets up its own (`chronyd -P`,
// `-m`): the thread that answers the SAS hosts runs at SCHED_FIFO (or RR) so that other software
// on the table controller cannot make its answers late; its memory is locked so that a page
// fault cannot either (each page stays in memory once touched: MCL_ONFAULT, so that the
// threads' 8 MB stacks are not made resident whole, which would triple the daemon's memory). Only the logic thread:
// worker threads (journal writer and reader, Modbus, scans) drop back to normal scheduling as they start. Where
// real-time priority is not allowed (no RLIMIT_RTPRIO or CAP_SYS_NICE) the daemon runs on at normal priority and says
// so.
#include <string>

namespace pitlink::platform {

enum class SchedulingPolicy { Other, Fifo, RoundRobin };

struct SchedulingSettings {
    SchedulingPolicy policy = SchedulingPolicy::Fifo;
    int priority = 40;  // 1..99 for fifo and rr
    bool lockMemory = true;
    bool operator==(const SchedulingSettings&) const = default;
};

struct SchedulingOutcome {
    bool realTime = false;      // the policy asked for is in force
    bool memoryLocked = false;  // mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) took
    std::string description;    // "SCHED_FIFO 40, memory locked", or what was refused and why
};

// Applies `settings` to the calling thread (the logic thread) and the process's memory.
[[nodiscard]] SchedulingOutcome applyScheduling(const SchedulingSettings& settings);

// The calling thread back to SCHED_OTHER if it inherited a real-time policy (worker threads).
void normalSchedulingForThisThread();
// The calling thread to run only when nothing else wants the CPU or the disk (SCHED_IDLE, nice 19,
// the idle I/O class): background checks that must never delay the table or the host.
void idleSchedulingForThisThread();

[[nodiscard]] const char* policyName(SchedulingPolicy policy);

}  // namespace pitlink::platform
