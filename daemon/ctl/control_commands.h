#pragma once
// pitlinkctl commands that talk to the running pitlinkd over its control socket.
#include <ostream>
#include <string>
#include <vector>

namespace pitlink::ctl {

// Exit codes beyond 0/1/2: the daemon cannot be reached, or the caller's role is not enough.
inline constexpr int kExitUnavailable = 69;  // EX_UNAVAILABLE
inline constexpr int kExitNoPermission = 77; // EX_NOPERM

// `command` is status, stations, meters, events, attendant, handpay, void, shoe or tilt.
int runControl(const std::string& command, const std::vector<std::string>& args, std::ostream& out);

}  // namespace pitlink::ctl
