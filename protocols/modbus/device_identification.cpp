#include "protocols/modbus/device_identification.h"

#include <array>

namespace pitlink::modbus {

std::array<std::uint8_t, 4> deviceIdRequest(std::uint8_t objectId) {
    return {kReadDeviceIdFunction, kReadDeviceIdMei, kReadDeviceIdBasic, objectId};
}

std::variant<DeviceIdChunk, DeviceIdError> parseDeviceIdAnswer(std::span<const std::uint8_t> pdu) {
    if (pdu.size() >= 2 && pdu[0] == (kReadDeviceIdFunction | 0x80U)) {
        return DeviceIdError{"exception " + std::to_string(pdu[1]) + " (function 43/14 not offered)"};
    }
    // function, MEI type, read device id code, conformity level, more follows, next object id,
    // number of objects; then per object: id, length, value.
    constexpr std::size_t kHeader = 7;
    if (pdu.size() < kHeader) {
        return DeviceIdError{"answer of " + std::to_string(pdu.size()) + " bytes (at least 7)"};
    }
    if (pdu[0] != kReadDeviceIdFunction || pdu[1] != kReadDeviceIdMei) {
        return DeviceIdError{"not a 43/14 answer"};
    }
    DeviceIdChunk chunk;
    chunk.conformity = pdu[3];
    if (pdu[4] != 0x00 && pdu[4] != 0xFF) {
        return DeviceIdError{"more-follows byte " + std::to_string(pdu[4]) + " (00 or FF)"};
    }
    chunk.moreFollows = pdu[4] == 0xFF;
    chunk.nextObjectId = pdu[5];
    const std::size_t count = pdu[6];
    std::size_t at = kHeader;
    for (std::size_t i = 0; i < count; ++i) {
        if (at + 2 > pdu.size()) {
            return DeviceIdError{"object " + std::to_string(i) + " of " + std::to_string(count) + " is missing"};
        }
        const std::uint8_t id = pdu[at];
        const std::size_t length = pdu[at + 1];
        at += 2;
        if (at + length > pdu.size()) {
            return DeviceIdError{"object " + std::to_string(id) + " is cut short"};
        }
        if (!chunk.objects
                 .emplace(id, std::string(pdu.begin() + static_cast<std::ptrdiff_t>(at),
                                          pdu.begin() + static_cast<std::ptrdiff_t>(at + length)))
                 .second) {
            return DeviceIdError{"object " + std::to_string(id) + " given twice"};
        }
        at += length;
    }
    if (at != pdu.size()) {
        return DeviceIdError{std::to_string(pdu.size() - at) + " bytes after the last object"};
    }
    if (chunk.moreFollows && chunk.objects.empty()) {
        return DeviceIdError{"more follows, but no object in this answer"};
    }
    return chunk;
}

std::uint16_t modbusCrc(std::span<const std::uint8_t> bytes) {
    std::uint16_t crc = 0xFFFF;
    for (const std::uint8_t b : bytes) {
        crc ^= b;
        for (int bit = 0; bit < 8; ++bit) {
            crc = (crc & 1U) != 0 ? static_cast<std::uint16_t>((crc >> 1U) ^ 0xA001U)
                                  : static_cast<std::uint16_t>(crc >> 1U);
        }
    }
    return crc;
}

std::vector<std::uint8_t> tcpFrame(std::uint16_t transaction, std::uint8_t unit, std::span<const std::uint8_t> pdu) {
    const auto length = static_cast<std::uint16_t>(pdu.size() + 1);
    std::vector<std::uint8_t> frame{
        static_cast<std::uint8_t>(transaction >> 8U), static_cast<std::uint8_t>(transaction), 0,   0,
        static_cast<std::uint8_t>(length >> 8U),      static_cast<std::uint8_t>(length),      unit};
    frame.insert(frame.end(), pdu.begin(), pdu.end());
    return frame;
}

std::vector<std::uint8_t> rtuFrame(std::uint8_t unit, std::span<const std::uint8_t> pdu) {
    std::vector<std::uint8_t> frame{unit};
    frame.insert(frame.end(), pdu.begin(), pdu.end());
    const std::uint16_t crc = modbusCrc(frame);
    frame.push_back(static_cast<std::uint8_t>(crc & 0xFFU));
    frame.push_back(static_cast<std::uint8_t>(crc >> 8U));
    return frame;
}

std::optional<std::vector<std::uint8_t>> tcpPdu(std::span<const std::uint8_t> frame, std::uint16_t transaction,
                                                std::uint8_t unit) {
    constexpr std::size_t kMbap = 7;
    if (frame.size() < kMbap + 1) {
        return std::nullopt;
    }
    const auto tid = static_cast<std::uint16_t>((frame[0] << 8U) | frame[1]);
    const auto length = static_cast<std::size_t>((frame[4] << 8U) | frame[5]);
    if (tid != transaction || frame[2] != 0 || frame[3] != 0 || frame[6] != unit || length + 6 != frame.size()) {
        return std::nullopt;
    }
    return std::vector<std::uint8_t>(frame.begin() + kMbap, frame.end());
}

std::optional<std::vector<std::uint8_t>> rtuPdu(std::span<const std::uint8_t> frame, std::uint8_t unit) {
    if (frame.size() < 4 || frame[0] != unit) {
        return std::nullopt;
    }
    const std::size_t body = frame.size() - 2;
    const std::uint16_t crc = modbusCrc(frame.first(body));
    if (frame[body] != (crc & 0xFFU) || frame[body + 1] != (crc >> 8U)) {
        return std::nullopt;
    }
    return std::vector<std::uint8_t>(frame.begin() + 1, frame.begin() + static_cast<std::ptrdiff_t>(body));
}

std::string deviceIdObjectName(std::uint8_t id) {
    static constexpr std::array<const char*, 7> kNames{"vendor",       "product_code", "revision",   "vendor_url",
                                                       "product_name", "model_name",   "application"};
    return id < kNames.size() ? kNames.at(id) : "object " + std::to_string(id);
}

}  // namespace pitlink::modbus
