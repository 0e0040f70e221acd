#include "daemon/control/control_server.h"

namespace pitlink::control {

namespace {
constexpr std::size_t kMaxLine = 4096;
}

ControlServer::ControlServer(boost::asio::io_context& io, const std::filesystem::path& socket, RoleGroups groups,
                             ControlCommands& commands)
    : groups_(std::move(groups)),
      commands_(commands),
      server_(
          io, socket, 0666, kMaxLine,  // anyone may connect; the role decides what they may do
          [this](io::LineClient& client, const std::string& line) {
              // Every reply, a refusal read off the line included, takes its place in the client's order.
              commands_.handle(line, roleOf(client.peer().uid, client.peer().gid, groups_), userName(client.peer().uid),
                               client.nextReply());
          },
          [this](io::LineClient& client) { commands_.oversize(client.nextReply()); }) {}

}  // namespace pitlink::control
