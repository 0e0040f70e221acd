#pragma once
// Modbus function 43 / MEI type 14, Read Device Identification (Modbus Application Protocol
// v1.1b3, 6.21): the module's vendor, product code and revision (basic category), and what else
// it tells of the other basic objects. The answer is parsed here, byte by byte, from untrusted
// input: any inconsistency is an error, never a read past the end.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace pitlink::modbus {

inline constexpr std::uint8_t kReadDeviceIdFunction = 0x2B;
inline constexpr std::uint8_t kReadDeviceIdMei = 0x0E;
inline constexpr std::uint8_t kReadDeviceIdBasic = 0x01;  // read device id code: basic stream

struct DeviceIdChunk {
    std::map<std::uint8_t, std::string> objects;  // object id -> value (bytes kept as they came)
    std::uint8_t conformity = 0;
    bool moreFollows = false;
    std::uint8_t nextObjectId = 0;
};

struct DeviceIdError {
    std::string message;
};

// The request's PDU for `objectId` onwards: 2B 0E 01 id.
[[nodiscard]] std::array<std::uint8_t, 4> deviceIdRequest(std::uint8_t objectId);

// One answer PDU, from its function code on.
[[nodiscard]] std::variant<DeviceIdChunk, DeviceIdError> parseDeviceIdAnswer(std::span<const std::uint8_t> pdu);

// 43/14 is not one of libmodbus's functions (it cannot frame the answer), so the adapter frames
// this one exchange itself: Modbus TCP's MBAP header (transaction, protocol 0, length, unit) or an
// RTU frame (unit, PDU, CRC-16/MODBUS low byte first).
[[nodiscard]] std::vector<std::uint8_t> tcpFrame(std::uint16_t transaction, std::uint8_t unit,
                                                 std::span<const std::uint8_t> pdu);
[[nodiscard]] std::vector<std::uint8_t> rtuFrame(std::uint8_t unit, std::span<const std::uint8_t> pdu);
// The PDU of an answer frame from `unit` (TCP: `transaction`), or nullopt when it is not one.
[[nodiscard]] std::optional<std::vector<std::uint8_t>> tcpPdu(std::span<const std::uint8_t> frame,
                                                              std::uint16_t transaction, std::uint8_t unit);
[[nodiscard]] std::optional<std::vector<std::uint8_t>> rtuPdu(std::span<const std::uint8_t> frame, std::uint8_t unit);
[[nodiscard]] std::uint16_t modbusCrc(std::span<const std::uint8_t> bytes);  // CRC-16/MODBUS

// The names the specification gives objects 0-6, else "object N".
[[nodiscard]] std::string deviceIdObjectName(std::uint8_t id);

}  // namespace pitlink::modbus
