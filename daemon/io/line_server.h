#pragma once
// A server of JSON lines on the logic thread's io_context, shared by the engine link and the
// control socket: on a Unix socket and optionally on TCP bound to the loopback address; accepts
// clients, reads one line at a time (a line longer than the limit is answered by the owner and
// the client dropped), writes through a bounded queue (a client that does not read is dropped,
// never waited for), keeps each client's replies in the order of its requests (OrderedReplies;
// events are sent as they come, between replies), and knows each Unix peer's credentials (SO_PEERCRED) for roles (a TCP
// peer has none: uid -1, no role).
#include <boost/asio/generic/stream_protocol.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/streambuf.hpp>
#include <sys/types.h>

#include <any>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "daemon/io/ordered_replies.h"

namespace pitlink::io {

struct PeerCredentials {
    pid_t pid = 0;
    uid_t uid = 0;
    gid_t gid = 0;
};

class LineServer;

class LineClient : public std::enable_shared_from_this<LineClient> {
public:
    LineClient(LineServer& server, boost::asio::generic::stream_protocol::socket socket);
    void start();
    // Queues a line (a newline is added). Drops the client when its queue is over the limit.
    void send(const std::string& line);
    // The place of the reply to the request just read (the client's replies leave in order).
    [[nodiscard]] OrderedReplies::Fill nextReply() { return replies_->next(); }
    [[nodiscard]] const OrderedReplies& replies() const { return *replies_; }
    void close();
    [[nodiscard]] const PeerCredentials& peer() const { return peer_; }
    [[nodiscard]] std::uint64_t id() const { return id_; }
    // What the server's owner keeps about this client (the engine link: its hello).
    [[nodiscard]] std::any& session() { return session_; }

private:
    void readLine();
    void writeNext();

    LineServer& server_;
    boost::asio::generic::stream_protocol::socket socket_;
    boost::asio::streambuf input_;
    std::deque<std::string> output_;
    std::size_t queuedBytes_ = 0;
    PeerCredentials peer_;
    std::shared_ptr<OrderedReplies> replies_;
    std::uint64_t id_;
    std::any session_;
    bool closed_ = false;
};

struct LineServerStats {
    std::uint64_t accepted = 0;
    std::uint64_t oversizeLines = 0;
    std::uint64_t droppedSlowClients = 0;
};

class LineServer {
public:
    using OnLine = std::function<void(LineClient& client, const std::string& line)>;
    using OnOversize = std::function<void(LineClient& client)>;
    // Binds `path` (a stale socket file is replaced) with permissions `mode`, unless it is empty;
    // and 127.0.0.1:`tcpPort` unless it is 0.
    LineServer(boost::asio::io_context& io, std::filesystem::path path, unsigned mode, std::size_t maxLine,
               OnLine onLine, OnOversize onOversize, std::uint16_t tcpPort = 0);
    ~LineServer();
    LineServer(const LineServer&) = delete;
    LineServer& operator=(const LineServer&) = delete;

    void broadcast(const std::string& line);
    // To the clients `to` picks.
    void broadcast(const std::string& line, const std::function<bool(LineClient&)>& to);
    [[nodiscard]] std::size_t clients() const { return clients_.size(); }
    [[nodiscard]] const LineServerStats& stats() const { return stats_; }
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
    friend class LineClient;
    template <class Acceptor>
    void accept(Acceptor& acceptor);
    void remove(LineClient* client);

    std::filesystem::path path_;
    std::optional<boost::asio::local::stream_protocol::acceptor> unixAcceptor_;
    std::optional<boost::asio::ip::tcp::acceptor> tcpAcceptor_;
    std::size_t maxLine_;
    OnLine onLine_;
    OnOversize onOversize_;
    std::set<std::shared_ptr<LineClient>> clients_;
    std::uint64_t nextId_ = 1;
    LineServerStats stats_;
};

}  // namespace pitlink::io
