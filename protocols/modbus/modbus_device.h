#pragma once
// A Modbus device as the poll cycle uses it (the driver interface of the pure core): libmodbus
// implements it in modbus_backend.cpp, tests with a device in memory. Every call blocks until
// the device answered or timed out; an error is returned as text (nullopt: done).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pitlink::modbus {

using DeviceError = std::optional<std::string>;

class ModbusDevice {
public:
    virtual ~ModbusDevice() = default;
    virtual DeviceError connect() = 0;
    virtual void close() = 0;
    [[nodiscard]] virtual bool connected() const = 0;
    virtual DeviceError writeCoils(std::uint16_t start, const std::vector<bool>& values) = 0;               // 0F
    virtual DeviceError writeRegisters(std::uint16_t start, const std::vector<std::uint16_t>& values) = 0;  // 10
    virtual DeviceError readCoils(std::uint16_t start, std::uint16_t count, std::vector<bool>& out) = 0;    // 01
    virtual DeviceError readHoldingRegisters(std::uint16_t start, std::uint16_t count,
                                             std::vector<std::uint16_t>& out) = 0;                                 // 03
    virtual DeviceError readDiscreteInputs(std::uint16_t start, std::uint16_t count, std::vector<bool>& out) = 0;  // 02
    virtual DeviceError readInputRegisters(std::uint16_t start, std::uint16_t count,
                                           std::vector<std::uint16_t>& out) = 0;  // 04
    // Before a failed request is tried again: what is left of its answer must not be taken for
    // the retry's (a late answer, the rest of a cut-short frame). Nothing to do in memory.
    virtual void recover() {}
    // 43/14 Read Device Identification, one request: `objectId` is the first object asked for
    // (basic category, code 01); `pdu` gets the answer from its function code on. Modules that do
    // not offer it answer with an exception, returned as an error.
    virtual DeviceError readDeviceIdentification(std::uint8_t objectId, std::vector<std::uint8_t>& pdu) {
        (void)objectId;
        pdu.clear();
        return std::string("read device identification (43/14): not offered");
    }
};

}  // namespace pitlink::modbus
