#pragma once
// How to reach the I/O module: Modbus TCP (host, port) or RTU (serial port and its framing),
// the unit id, how long one request may take and how often it is tried; on RS-485, who drives the
// line's direction and the silences the bus needs.
#include <chrono>
#include <cstdint>
#include <string>

namespace pitlink::modbus {

enum class Transport : std::uint8_t { Tcp, Rtu };

// Who switches an RS-485 transceiver between sending and receiving: nobody (RS-232, or an
// adapter that does it by itself), the kernel's serial driver (TIOCSRS485), or libmodbus
// toggling RTS around each frame.
enum class Rs485 : std::uint8_t { None, Kernel, Rts };

struct ConnectionSettings {
    Transport transport = Transport::Tcp;
    std::string host = "127.0.0.1";  // TCP
    std::uint16_t port = 502;
    std::string device;  // RTU: serial port path
    int baud = 19200;
    char parity = 'N';  // N, E or O
    int dataBits = 8;
    int stopBits = 1;
    int unitId = 1;                                  // 1..247 (TCP: 0..255, 255 "no unit" behind some gateways)
    std::chrono::milliseconds responseTimeout{200};  // the first byte of an answer
    std::chrono::milliseconds byteTimeout{50};       // between two bytes of one answer
    int retries = 1;                                 // a failed request is tried again this often
    Rs485 rs485 = Rs485::None;
    bool rtsActiveHigh = true;              // Rs485::Rts: RTS up while sending
    std::chrono::microseconds rtsDelay{0};  // Rs485::Rts: before and after a frame
    std::chrono::microseconds frameGap{0};  // silence kept between the end of an answer and the next request
    bool operator==(const ConnectionSettings&) const = default;
};

[[nodiscard]] std::string describe(const ConnectionSettings& c);  // "tcp 127.0.0.1:502 unit 1"

}  // namespace pitlink::modbus
