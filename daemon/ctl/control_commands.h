#pragma once
// pitlinkctl commands that talk to the running pitlinkd over its control socket.
#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "protocols/control/control_request.h"

namespace pitlink::ctl {

// Exit codes beyond 0/1/2: the daemon cannot be reached, or the caller's role is not enough.
inline constexpr int kExitUnavailable = 69;   // EX_UNAVAILABLE
inline constexpr int kExitNoPermission = 77;  // EX_NOPERM

inline constexpr const char* kDefaultControlSocket = "/run/pitlink/control.sock";

// pitlinkd cannot be reached on its control socket.
class DaemonUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// `--game NAME` (pitlinkctl's, before or after the command's own arguments): every request to the
// running daemon names that game (protocols/control/README.md "Games"); absent: the first game.
void useGame(std::string game);
// The game `--game` named, if it did (commands reading a journal file filter by it).
[[nodiscard]] const std::optional<std::string>& chosenGame();

// One request to the running daemon (written as protocols/control defines it), its reply
// ({"ok": ..., "data"|"error"...}).
nlohmann::json askDaemon(const std::string& socket, const control::ControlRequest& request);

// Sends `request` to the daemon; with an accepted reply returns what `show` returns for its data,
// otherwise says why on stderr and returns 1 (refused), 69 (unreachable) or 77 (role).
int askAndShow(const std::string& socket, const control::ControlRequest& request,
               const std::function<int(const nlohmann::json& data)>& show);

// `command` is status, stations, meters, events, attendant, handpay, void, shoe or tilt.
int runControl(const std::string& command, const std::vector<std::string>& args, std::ostream& out);

}  // namespace pitlink::ctl
