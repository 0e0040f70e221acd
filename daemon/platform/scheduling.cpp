#include "daemon/platform/scheduling.h"

#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace pitlink::platform {

const char* policyName(SchedulingPolicy policy) {
    switch (policy) {
        case SchedulingPolicy::Fifo:
            return "SCHED_FIFO";
        case SchedulingPolicy::RoundRobin:
            return "SCHED_RR";
        case SchedulingPolicy::Other:
            return "SCHED_OTHER";
    }
    return "?";
}

SchedulingOutcome applyScheduling(const SchedulingSettings& settings) {
    SchedulingOutcome out;
    std::string what;
    if (settings.policy == SchedulingPolicy::Other) {
        what = "normal priority (SCHED_OTHER, as configured)";
    } else {
        const int policy = settings.policy == SchedulingPolicy::Fifo ? SCHED_FIFO : SCHED_RR;
        const sched_param param{settings.priority};
        const int error = ::pthread_setschedparam(::pthread_self(), policy, &param);
        out.realTime = error == 0;
        what = out.realTime ? std::string(policyName(settings.policy)) + " " + std::to_string(settings.priority)
                            : "normal priority (" + std::string(policyName(settings.policy)) + " " +
                                  std::to_string(settings.priority) + " not allowed: " + std::strerror(error) +
                                  "; the unit's LimitRTPRIO or CAP_SYS_NICE grants it)";
    }
    if (settings.lockMemory) {
        out.memoryLocked = ::mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) == 0;
        what += out.memoryLocked ? ", memory locked"
                                 : std::string(", memory not locked (") + std::strerror(errno) +
                                       "; the unit's LimitMEMLOCK grants it)";
    }
    out.description = what;
    return out;
}

void normalSchedulingForThisThread() {
    int policy = SCHED_OTHER;
    sched_param param{};
    if (::pthread_getschedparam(::pthread_self(), &policy, &param) == 0 && policy != SCHED_OTHER) {
        const sched_param normal{0};
        (void)::pthread_setschedparam(::pthread_self(), SCHED_OTHER, &normal);
    }
}

void idleSchedulingForThisThread() {
    const sched_param none{0};
    (void)::pthread_setschedparam(::pthread_self(), SCHED_IDLE, &none);
    (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 19);
    // ioprio_set(IOPRIO_WHO_PROCESS, this thread, IOPRIO_CLASS_IDLE): glibc has no wrapper.
    constexpr int kWhoProcess = 1;
    constexpr int kClassIdle = 3;
    constexpr int kClassShift = 13;
    (void)::syscall(SYS_ioprio_set, kWhoProcess, 0, kClassIdle << kClassShift);
}

}  // namespace pitlink::platform
