#pragma once
// Where and how a station's SAS port is opened (pitlink.yaml `sas.stations[]`); the adapter that
// opens it is sas_transport.h. Kept apart so that the configuration needs no Asio or termios.
#include <chrono>
#include <string>

#include "protocols/sas/wire_decoder.h"

namespace pitlink::sas {

struct TransportSettings {
    std::string device;
    TransportMode mode = TransportMode::Serial;
    std::chrono::microseconds gap{3'000};  // gap mode: idle time that marks a poll's first byte
    bool operator==(const TransportSettings&) const = default;
};

}  // namespace pitlink::sas
