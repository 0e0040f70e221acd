#pragma once
// The engine link (protocols/engine/README.md): game engine and station front ends send JSON-line
// requests over a Unix socket (or TCP on loopback); each gets one reply, after the journal has committed what it
// changed; every table event is published to every client. Bad input is answered with an
// error and counted; a client that goes away affects nothing.
#include <cstdint>
#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

#include "daemon/app/line_server.h"
#include "daemon/table/table.h"
#include "protocols/engine/engine_request.h"

namespace pitlink::app {

struct EngineLinkStats {
    std::uint64_t requests = 0;
    std::uint64_t badRequests = 0;  // malformed JSON, unknown ops, bad fields, oversize lines
};

class EngineLink {
public:
    // On the Unix `socket` (unless empty) and on 127.0.0.1:`tcpPort` (unless 0).
    EngineLink(boost::asio::io_context& io, const std::filesystem::path& socket, std::uint16_t tcpPort,
               table::Table& table);
    // Sends a table event to every connected client.
    void publish(const nlohmann::json& event);
    [[nodiscard]] const EngineLinkStats& stats() const { return stats_; }
    [[nodiscard]] std::size_t clients() const { return server_.clients(); }

private:
    void onLine(LineClient& client, const std::string& line);
    void dispatch(const engine::EngineRequest& request, table::Respond respond);

    table::Table& table_;
    EngineLinkStats stats_;
    LineServer server_;
};

}  // namespace pitlink::app
