#pragma once
// pitlinkctl commands that talk to the running pitlinkd over its control socket.
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pitlink::ctl {

// Exit codes beyond 0/1/2: the daemon cannot be reached, or the caller's role is not enough.
inline constexpr int kExitUnavailable = 69;  // EX_UNAVAILABLE
inline constexpr int kExitNoPermission = 77; // EX_NOPERM

inline constexpr const char* kDefaultControlSocket = "/run/pitlink/control.sock";

// pitlinkd cannot be reached on its control socket.
class DaemonUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One request to the running daemon, its reply ({"ok": ..., "data"|"error"...}).
nlohmann::json askDaemon(const std::string& socket, const nlohmann::json& request);

// `command` is status, stations, meters, events, attendant, handpay, void, shoe or tilt.
int runControl(const std::string& command, const std::vector<std::string>& args, std::ostream& out);

}  // namespace pitlink::ctl
