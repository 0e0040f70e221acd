#pragma once
// The adapter between a station's SAS port and its link (docs/design.md rule 3: the one file here
// that touches termios and Asio is sas_transport.cpp). It opens the device in one of the three
// modes of wire_decoder.h, reads on the io_context and hands every wire byte to `receive`, and
// writes answers and chirps synchronously (a few bytes into the tty's buffer never block; an
// answer must begin within 20 ms, so it is not queued behind anything).
//
// - serial: 19200 baud, 8 data bits, space parity (PARENB|CMSPAR) with INPCK|PARMRK: the host's
//   wakeup byte arrives as FF 00 b. A chirp switches to mark parity for its one byte.
// - pty: raw; the peer writes the escaped stream, and so does the transport (FF FF for a data
//   FF, FF 00 a for a chirp), so a test host sees exactly what a UART would have carried.
// - gap: raw 8N1; the first byte after `gap` of silence is the wakeup byte.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "protocols/sas/station_link.h"
#include "protocols/sas/transport_settings.h"
#include "protocols/sas/wire_decoder.h"

namespace boost::asio {
class io_context;
}

namespace pitlink::sas {

struct TransportStats {
    std::uint64_t bytesIn = 0;
    std::uint64_t bytesOut = 0;
    std::uint64_t writeErrors = 0;  // answers not written whole (the host polls again)
    std::uint64_t readErrors = 0;   // the device failed; reopened after a second
    std::uint64_t malformed = 0;    // PARMRK escapes that made no sense
    std::uint64_t staleAtOpen = 0;  // bytes already waiting when the port was opened, discarded
};

class SasTransport final : public LinkOutput {
public:
    // `idleBefore`: the line was quiet for more than the 5 ms inter-byte limit before this byte
    // (a poll in progress then is dropped by the framer).
    using Receive = std::function<void(WireByte byte, bool idleBefore)>;

    SasTransport(boost::asio::io_context& io, TransportSettings settings, Receive receive);
    ~SasTransport() override;
    SasTransport(const SasTransport&) = delete;
    SasTransport& operator=(const SasTransport&) = delete;

    // Opens and configures the device; throws std::system_error naming it if it cannot.
    void open();
    void close();

    void send(std::span<const std::uint8_t> bytes) override;
    void chirp(std::uint8_t address) override;

    [[nodiscard]] const TransportSettings& settings() const;
    [[nodiscard]] const TransportStats& stats() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace pitlink::sas
