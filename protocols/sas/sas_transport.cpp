#include "protocols/sas/sas_transport.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <system_error>
#include <vector>

namespace pitlink::sas {

namespace {

constexpr auto kInterByteLimit = std::chrono::milliseconds(5);
constexpr auto kReopenAfter = std::chrono::seconds(1);

void configure(int fd, const TransportSettings& s) {
    termios t{};
    if (::tcgetattr(fd, &t) != 0) {
        throw std::system_error(errno, std::generic_category(), "tcgetattr " + s.device);
    }
    ::cfmakeraw(&t);
    ::cfsetispeed(&t, B19200);
    ::cfsetospeed(&t, B19200);
    t.c_cflag |= CLOCAL | CREAD | CS8;
    t.c_cflag &= ~static_cast<tcflag_t>(CSTOPB | CRTSCTS | PARODD);
    t.c_iflag = IGNBRK;
    if (s.mode == TransportMode::Serial) {
        // Space parity: a byte with the 9th bit set is a parity error, marked FF 00 b.
        t.c_cflag |= PARENB | CMSPAR;
        t.c_iflag |= INPCK | PARMRK;
    } else {
        t.c_cflag &= ~static_cast<tcflag_t>(PARENB | CMSPAR);
    }
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (::tcsetattr(fd, TCSANOW, &t) != 0) {
        throw std::system_error(errno, std::generic_category(), "tcsetattr " + s.device);
    }
}

}  // namespace

struct SasTransport::Impl {
    Impl(boost::asio::io_context& io, TransportSettings s, Receive r)
        : settings(std::move(s)), receive(std::move(r)), stream(io), reopen(io), decoder(settings.mode) {}

    void read() {
        stream.async_read_some(boost::asio::buffer(buffer), [this](const boost::system::error_code& ec, std::size_t n) {
            if (ec == boost::asio::error::operation_aborted) {
                return;
            }
            if (ec) {
                ++stats.readErrors;
                closeStream();
                if (settings.mode == TransportMode::Pty) {
                    // A pty whose other side has gone never comes back; a new pty at the same
                    // path would be someone else's.
                    return;
                }
                reopen.expires_after(kReopenAfter);
                reopen.async_wait([this](const boost::system::error_code& e) {
                    if (!e) {
                        try {
                            openStream();
                        } catch (const std::system_error&) {
                            ++stats.readErrors;
                            reopen.expires_after(kReopenAfter);
                            read();  // fails at once on the closed stream and waits again
                        }
                    }
                });
                return;
            }
            deliver(n);
            read();
        });
    }

    void deliver(std::size_t n) {
        const auto now = std::chrono::steady_clock::now();
        const auto idle = now - lastByte;
        lastByte = now;
        stats.bytesIn += n;
        bool first = true;
        for (std::size_t i = 0; i < n; ++i) {
            const auto byte = decoder.push(buffer[i], first && idle >= settings.gap);
            if (byte) {
                receive(*byte, first && idle > kInterByteLimit);
                first = false;
            }
        }
        stats.malformed = decoder.malformed();
    }

    void openStream() {
        const int fd = ::open(settings.device.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) {
            throw std::system_error(errno, std::generic_category(), "open " + settings.device);
        }
        try {
            configure(fd, settings);
            // Bytes that sat in the port before it was opened (a host polling a station that was
            // not there, noise at power-up) are not polls to this station: SAS answers only what
            // arrives while it listens. Counted, then discarded.
            int waiting = 0;
            if (::ioctl(fd, FIONREAD, &waiting) == 0 && waiting > 0) {
                stats.staleAtOpen += static_cast<std::uint64_t>(waiting);
            }
            ::tcflush(fd, TCIFLUSH);
        } catch (...) {
            ::close(fd);
            throw;
        }
        stream.assign(fd);
        read();
    }

    void closeStream() {
        boost::system::error_code ignored;
        stream.cancel(ignored);
        stream.close(ignored);
    }

    void write(const std::vector<std::uint8_t>& bytes) {
        if (!stream.is_open()) {
            ++stats.writeErrors;
            return;
        }
        const ssize_t written = ::write(stream.native_handle(), bytes.data(), bytes.size());
        if (written != static_cast<ssize_t>(bytes.size())) {
            ++stats.writeErrors;
            return;
        }
        stats.bytesOut += bytes.size();
    }

    TransportSettings settings;
    Receive receive;
    boost::asio::posix::stream_descriptor stream;
    boost::asio::steady_timer reopen;
    WireDecoder decoder;
    std::array<std::uint8_t, 512> buffer{};
    std::chrono::steady_clock::time_point lastByte{};
    std::vector<std::uint8_t> out;
    TransportStats stats;
};

SasTransport::SasTransport(boost::asio::io_context& io, TransportSettings settings, Receive receive)
    : impl_(std::make_unique<Impl>(io, std::move(settings), std::move(receive))) {}

SasTransport::~SasTransport() {
    try {
        close();
    } catch (...) {  // a destructor closes what it can and never throws
    }
}

void SasTransport::open() {
    impl_->openStream();
}

void SasTransport::close() {
    impl_->reopen.cancel();
    impl_->closeStream();
}

void SasTransport::send(std::span<const std::uint8_t> bytes) {
    std::vector<std::uint8_t>& out = impl_->out;
    out.clear();
    if (impl_->settings.mode == TransportMode::Pty) {
        for (const std::uint8_t b : bytes) {
            appendEscaped(out, WireByte{b, false});
        }
    } else {
        out.assign(bytes.begin(), bytes.end());
    }
    impl_->write(out);
}

void SasTransport::chirp(std::uint8_t address) {
    std::vector<std::uint8_t>& out = impl_->out;
    out.clear();
    switch (impl_->settings.mode) {
        case TransportMode::Pty:
            appendEscaped(out, WireByte{address, true});
            impl_->write(out);
            return;
        case TransportMode::Gap:
            out.push_back(address);  // no 9th bit to set on such a line
            impl_->write(out);
            return;
        case TransportMode::Serial: {
            // Mark parity for this one byte, drained before space parity returns.
            const int fd = impl_->stream.is_open() ? impl_->stream.native_handle() : -1;
            termios t{};
            if (fd < 0 || ::tcgetattr(fd, &t) != 0) {
                ++impl_->stats.writeErrors;
                return;
            }
            termios mark = t;
            mark.c_cflag |= PARODD;
            ::tcsetattr(fd, TCSANOW, &mark);
            out.push_back(address);
            impl_->write(out);
            ::tcdrain(fd);
            ::tcsetattr(fd, TCSANOW, &t);
            return;
        }
    }
}

const TransportSettings& SasTransport::settings() const {
    return impl_->settings;
}
const TransportStats& SasTransport::stats() const {
    return impl_->stats;
}

}  // namespace pitlink::sas
