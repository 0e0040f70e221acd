#pragma once
// A blocking client of pitlinkd's JSON-lines Unix sockets, for the benchmarks that drive the
// real daemon (connects with retries while the daemon starts).
#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>

namespace pitlink::test {

// A blocking client of a JSON-lines Unix socket.
class LineSocket {
public:
    explicit LineSocket(const std::filesystem::path& path) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        for (;;) {
            fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
            sockaddr_un address{};
            address.sun_family = AF_UNIX;
            std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
            if (::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) {
                return;
            }
            ::close(fd_);
            if (std::chrono::steady_clock::now() > deadline) {
                throw std::runtime_error("cannot connect to " + path.string());
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }
    ~LineSocket() { ::close(fd_); }
    LineSocket(const LineSocket&) = delete;
    LineSocket& operator=(const LineSocket&) = delete;

    void send(const std::string& text) {
        std::size_t sent = 0;
        while (sent < text.size()) {
            const ssize_t n = ::write(fd_, text.data() + sent, text.size() - sent);
            if (n <= 0) {
                throw std::runtime_error("the daemon closed the socket");
            }
            sent += static_cast<std::size_t>(n);
        }
    }
    nlohmann::json read() {
        for (;;) {
            if (const auto end = buffer_.find('\n'); end != std::string::npos) {
                nlohmann::json message = nlohmann::json::parse(buffer_.substr(0, end));
                buffer_.erase(0, end + 1);
                return message;
            }
            char chunk[65536];
            const ssize_t n = ::read(fd_, chunk, sizeof chunk);
            if (n <= 0) {
                throw std::runtime_error("the daemon closed the socket");
            }
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
    }

private:
    int fd_ = -1;
    std::string buffer_;
};

}  // namespace pitlink::test
