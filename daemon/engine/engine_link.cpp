#include "daemon/engine/engine_link.h"

namespace pitlink::engine {

EngineLink::EngineLink(boost::asio::io_context& io, const std::filesystem::path& socket, std::uint16_t tcpPort,
                       EngineRequests& requests)
    : requests_(requests),
      server_(
          io, socket, 0660, engine::kMaxLineBytes,
          [this](io::LineClient& client, const std::string& line) {
              requests_.handle(line, client.nextReply(), client.peer().pid);
          },
          [this](io::LineClient& client) { requests_.oversize(client.nextReply()); }, tcpPort) {}

void EngineLink::publish(const nlohmann::json& event) {
    server_.broadcast(event.dump());
}

}  // namespace pitlink::engine
