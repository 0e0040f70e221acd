#pragma once
// The engine link's socket (protocols/engine/README.md): game engine and station front ends send
// JSON-line requests over a Unix socket (or TCP on loopback); EngineRequests decides them and
// each client's replies leave in the order of its requests; every table event is published to
// every client. A client that goes away affects nothing.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "daemon/engine/engine_requests.h"
#include "daemon/io/line_server.h"

namespace pitlink::engine {

class EngineLink {
public:
    // On the Unix `socket` (unless empty) and on 127.0.0.1:`tcpPort` (unless 0).
    EngineLink(boost::asio::io_context& io, const std::filesystem::path& socket, std::uint16_t tcpPort,
               EngineRequests& requests);
    // Sends a table event to every connected client; one of a game (`game`) only to the clients
    // serving it (EngineRequests::serves).
    void publish(const nlohmann::json& event, const std::optional<std::string>& game = std::nullopt);
    [[nodiscard]] const EngineLinkStats& stats() const { return requests_.stats(); }
    [[nodiscard]] std::size_t clients() const { return server_.clients(); }

private:
    EngineRequests& requests_;
    io::LineServer server_;
};

}  // namespace pitlink::engine
