#include "daemon/io/line_server.h"

#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <sys/socket.h>
#include <sys/stat.h>

#include <istream>
#include <type_traits>

namespace pitlink::io {

namespace {
constexpr std::size_t kMaxQueuedBytes = 1 << 20;  // a client this far behind is dropped
}

LineClient::LineClient(LineServer& server, boost::asio::generic::stream_protocol::socket socket)
    : server_(server),
      socket_(std::move(socket)),
      input_(server.maxLine_ + 1),
      replies_(OrderedReplies::create([this](const std::string& line) { send(line); })),
      id_(server.nextId_++) {
    ucred cred{};
    socklen_t size = sizeof cred;
    boost::system::error_code error;
    const auto local = socket_.local_endpoint(error);
    if (!error && local.protocol().family() == AF_UNIX &&
        ::getsockopt(socket_.native_handle(), SOL_SOCKET, SO_PEERCRED, &cred, &size) == 0) {
        peer_ = PeerCredentials{cred.pid, cred.uid, cred.gid};
    } else {
        peer_.uid = static_cast<uid_t>(-1);  // unknown: no role
        peer_.gid = static_cast<gid_t>(-1);
    }
}

void LineClient::start() {
    readLine();
}

void LineClient::readLine() {
    boost::asio::async_read_until(socket_, input_, '\n',
                                  [self = shared_from_this()](const boost::system::error_code& ec, std::size_t n) {
                                      if (self->closed_) {
                                          return;
                                      }
                                      if (ec == boost::asio::error::not_found) {
                                          ++self->server_.stats_.oversizeLines;
                                          self->server_.onOversize_(*self);
                                          self->close();
                                          return;
                                      }
                                      if (ec) {
                                          self->close();
                                          return;
                                      }
                                      std::string line(n - 1, '\0');
                                      std::istream in(&self->input_);
                                      in.read(line.data(), static_cast<std::streamsize>(n - 1));
                                      in.ignore(1);
                                      if (!line.empty() && line.back() == '\r') {
                                          line.pop_back();
                                      }
                                      if (!line.empty()) {
                                          self->server_.onLine_(*self, line);
                                      }
                                      if (!self->closed_) {
                                          self->readLine();
                                      }
                                  });
}

void LineClient::send(const std::string& line) {
    if (closed_) {
        return;
    }
    if (queuedBytes_ + line.size() + 1 > kMaxQueuedBytes) {
        ++server_.stats_.droppedSlowClients;
        close();
        return;
    }
    output_.push_back(line + "\n");
    queuedBytes_ += line.size() + 1;
    if (output_.size() == 1) {
        writeNext();
    }
}

void LineClient::writeNext() {
    boost::asio::async_write(socket_, boost::asio::buffer(output_.front()),
                             [self = shared_from_this()](const boost::system::error_code& ec, std::size_t) {
                                 if (self->closed_) {
                                     return;
                                 }
                                 if (ec) {
                                     self->close();
                                     return;
                                 }
                                 self->queuedBytes_ -= self->output_.front().size();
                                 self->output_.pop_front();
                                 if (!self->output_.empty()) {
                                     self->writeNext();
                                 }
                             });
}

void LineClient::close() {
    if (closed_) {
        return;
    }
    closed_ = true;
    boost::system::error_code ignored;
    socket_.close(ignored);
    server_.remove(this);
}

LineServer::LineServer(boost::asio::io_context& io, std::filesystem::path path, unsigned mode, std::size_t maxLine,
                       OnLine onLine, OnOversize onOversize, std::uint16_t tcpPort)
    : path_(std::move(path)), maxLine_(maxLine), onLine_(std::move(onLine)), onOversize_(std::move(onOversize)) {
    if (!path_.empty()) {
        std::error_code ignored;
        std::filesystem::remove(path_, ignored);  // a socket file left by a previous run
        auto& acceptor = unixAcceptor_.emplace(io);
        acceptor.open(boost::asio::local::stream_protocol());
        acceptor.bind(boost::asio::local::stream_protocol::endpoint(path_.string()));
        if (::chmod(path_.c_str(), static_cast<mode_t>(mode)) != 0) {
            throw std::runtime_error("cannot set the permissions of " + path_.string());
        }
        acceptor.listen();
        accept(acceptor);
    }
    if (tcpPort != 0) {
        // Loopback only: the engine runs on the same controller; nothing here is for the network.
        const boost::asio::ip::tcp::endpoint endpoint(boost::asio::ip::address_v4::loopback(), tcpPort);
        auto& acceptor = tcpAcceptor_.emplace(io);
        acceptor.open(endpoint.protocol());
        acceptor.set_option(boost::asio::socket_base::reuse_address(true));
        acceptor.bind(endpoint);
        acceptor.listen();
        accept(acceptor);
    }
}

LineServer::~LineServer() {
    boost::system::error_code ignored;
    if (unixAcceptor_) {
        unixAcceptor_->close(ignored);
        std::error_code removeError;
        std::filesystem::remove(path_, removeError);
    }
    if (tcpAcceptor_) {
        tcpAcceptor_->close(ignored);
    }
    for (const auto& client : std::set<std::shared_ptr<LineClient>>(clients_)) {
        client->close();
    }
}

template <class Acceptor>
void LineServer::accept(Acceptor& acceptor) {
    acceptor.async_accept([this, &acceptor](const boost::system::error_code& ec,
                                            typename Acceptor::protocol_type::socket socket) {
        if (ec == boost::asio::error::operation_aborted) {
            return;
        }
        if (!ec) {
            ++stats_.accepted;
            if constexpr (std::is_same_v<typename Acceptor::protocol_type, boost::asio::ip::tcp>) {
                boost::system::error_code ignored;
                socket.set_option(boost::asio::ip::tcp::no_delay(true), ignored);  // replies are single lines
            }
            auto client =
                std::make_shared<LineClient>(*this, boost::asio::generic::stream_protocol::socket(std::move(socket)));
            clients_.insert(client);
            client->start();
        }
        accept(acceptor);
    });
}

void LineServer::broadcast(const std::string& line) {
    for (const auto& client : std::set<std::shared_ptr<LineClient>>(clients_)) {
        client->send(line);
    }
}

void LineServer::broadcast(const std::string& line, const std::function<bool(LineClient&)>& to) {
    for (const auto& client : std::set<std::shared_ptr<LineClient>>(clients_)) {
        if (to(*client)) {
            client->send(line);
        }
    }
}

void LineServer::remove(LineClient* client) {
    std::erase_if(clients_, [client](const std::shared_ptr<LineClient>& c) { return c.get() == client; });
}

}  // namespace pitlink::io
