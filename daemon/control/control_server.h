#pragma once
// The control socket (Unix, JSON lines, one reply per request, in the order of the requests)
// that pitlinkctl talks to: each caller's role comes from its Unix credentials (SO_PEERCRED);
// ControlCommands decides the request.
#include <filesystem>

#include "daemon/control/control_commands.h"
#include "daemon/io/line_server.h"

namespace pitlink::control {

class ControlServer {
public:
    ControlServer(boost::asio::io_context& io, const std::filesystem::path& socket, RoleGroups groups,
                  ControlCommands& commands);

private:
    RoleGroups groups_;
    ControlCommands& commands_;
    io::LineServer server_;
};

}  // namespace pitlink::control
