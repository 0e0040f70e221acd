#include "protocols/sas/wire_decoder.h"

namespace pitlink::sas {

std::optional<TransportMode> parseTransportMode(std::string_view name) {
    if (name == "serial") {
        return TransportMode::Serial;
    }
    if (name == "pty") {
        return TransportMode::Pty;
    }
    if (name == "gap") {
        return TransportMode::Gap;
    }
    return std::nullopt;
}

std::string_view transportModeName(TransportMode mode) {
    switch (mode) {
        case TransportMode::Serial:
            return "serial";
        case TransportMode::Pty:
            return "pty";
        case TransportMode::Gap:
            return "gap";
    }
    return "?";
}

std::optional<WireByte> WireDecoder::push(std::uint8_t byte, bool afterGap) {
    if (mode_ == TransportMode::Gap) {
        return WireByte{byte, afterGap};
    }
    return parmrk_.push(byte);
}

}  // namespace pitlink::sas
