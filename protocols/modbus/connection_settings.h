#pragma once
// How to reach the I/O module: Modbus TCP (host, port) or RTU (serial port and its framing),
// the unit id, and how long one request may take.
#include <chrono>
#include <cstdint>
#include <string>

namespace pitlink::modbus {

enum class Transport : std::uint8_t { Tcp, Rtu };

struct ConnectionSettings {
    Transport transport = Transport::Tcp;
    std::string host = "127.0.0.1";  // TCP
    std::uint16_t port = 502;
    std::string device;  // RTU: serial port path
    int baud = 19200;
    char parity = 'N';  // N, E or O
    int dataBits = 8;
    int stopBits = 1;
    int unitId = 1;  // 1..247 (TCP: 0..255, 255 "no unit" behind some gateways)
    std::chrono::milliseconds responseTimeout{200};
    bool operator==(const ConnectionSettings&) const = default;
};

[[nodiscard]] std::string describe(const ConnectionSettings& c);  // "tcp 127.0.0.1:502 unit 1"

}  // namespace pitlink::modbus
