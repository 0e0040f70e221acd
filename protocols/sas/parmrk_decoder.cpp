#include "protocols/sas/parmrk_decoder.h"

namespace pitlink::sas {

std::optional<WireByte> ParmrkDecoder::push(std::uint8_t byte) {
    switch (state_) {
        case State::Data:
            if (byte == 0xFF) {
                state_ = State::Escape;
                return std::nullopt;
            }
            return WireByte{byte, false};
        case State::Escape:
            if (byte == 0xFF) {
                state_ = State::Data;
                return WireByte{0xFF, false};
            }
            if (byte == 0x00) {
                state_ = State::Marked;
                return std::nullopt;
            }
            ++malformed_;  // not what the tty driver writes: take the byte as data
            state_ = State::Data;
            return WireByte{byte, false};
        case State::Marked:
            state_ = State::Data;
            return WireByte{byte, true};
    }
    return std::nullopt;
}

void appendEscaped(std::vector<std::uint8_t>& out, WireByte byte) {
    if (byte.wakeup) {
        out.insert(out.end(), {0xFF, 0x00, byte.value});
    } else if (byte.value == 0xFF) {
        out.insert(out.end(), {0xFF, 0xFF});
    } else {
        out.push_back(byte.value);
    }
}

}  // namespace pitlink::sas
