// libFuzzer target: what a Modbus module answers to 43/14 Read Device Identification, as the
// adapter receives it: a TCP frame (MBAP), an RTU frame (CRC), and the PDU inside. Any input is
// either refused with a message or parsed into objects whose bytes all come from the input; no
// read past the end, no other exception.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <variant>

#include "protocols/modbus/device_identification.h"

using namespace pitlink::modbus;

namespace {

void parse(std::span<const std::uint8_t> pdu) {
    const auto parsed = parseDeviceIdAnswer(pdu);
    if (const auto* error = std::get_if<DeviceIdError>(&parsed)) {
        if (error->message.empty()) {
            std::abort();
        }
        return;
    }
    const auto& chunk = std::get<DeviceIdChunk>(parsed);
    std::size_t bytes = 7;  // the header
    for (const auto& [id, value] : chunk.objects) {
        bytes += 2 + value.size();
        (void)deviceIdObjectName(id);
    }
    if (bytes != pdu.size()) {
        std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> input(data, size);
    parse(input);
    if (size >= 1) {
        if (const auto pdu = rtuPdu(input, data[0])) {
            if (pdu->size() + 3 != size) {
                std::abort();
            }
            parse(*pdu);
        }
    }
    if (size >= 7) {
        const auto transaction = static_cast<std::uint16_t>((data[0] << 8U) | data[1]);
        if (const auto pdu = tcpPdu(input, transaction, data[6])) {
            if (pdu->size() + 7 != size) {
                std::abort();
            }
            parse(*pdu);
        }
    }
    return 0;
}
