#include "daemon/engine/engine_link.h"

namespace pitlink::engine {

EngineLink::EngineLink(boost::asio::io_context& io, const std::filesystem::path& socket, std::uint16_t tcpPort,
                       EngineRequests& requests)
    : requests_(requests),
      server_(
          io, socket, 0660, engine::kMaxLineBytes,
          [this](io::LineClient& client, const std::string& line) {
              if (!client.session().has_value()) {
                  client.session() = EngineSession{};
              }
              requests_.handle(std::any_cast<EngineSession&>(client.session()), line, client.nextReply(),
                               client.peer().pid);
          },
          [this](io::LineClient& client) { requests_.oversize(client.nextReply()); }, tcpPort) {}

void EngineLink::publish(const nlohmann::json& event, const std::optional<std::string>& game) {
    if (!game) {
        server_.broadcast(event.dump());
        return;
    }
    server_.broadcast(event.dump(), [this, &game](io::LineClient& client) {
        const auto* session = std::any_cast<EngineSession>(&client.session());
        return requests_.serves(session != nullptr ? *session : EngineSession{}, game);
    });
}

}  // namespace pitlink::engine
