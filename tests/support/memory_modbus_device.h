#pragma once
// A Modbus module in memory for tests of the poll cycle and of what runs it: it keeps coils and
// holding registers, logs every request, and fails on command (refused connection, write
// time-outs, outputs stuck off); `firstInput` is the level of the first discrete input read.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "protocols/modbus/modbus_device.h"

namespace pitlink::test {

// A module in memory: records the requests; fails on command.
struct MemoryDevice : modbus::ModbusDevice {
    modbus::DeviceError connect() override {
        ++connects;
        if (refuseConnect) {
            return std::string("connection refused");
        }
        open = true;
        return std::nullopt;
    }
    void close() override { open = false; }
    [[nodiscard]] bool connected() const override { return open; }
    modbus::DeviceError writeCoils(std::uint16_t start, const std::vector<bool>& values) override {
        log.push_back("write coils " + std::to_string(start) + "+" + std::to_string(values.size()));
        if (failWrites) {
            return std::string("timed out");
        }
        for (std::size_t i = 0; i < values.size(); ++i) {
            coils[static_cast<std::uint16_t>(start + i)] = stuckOff ? false : values[i];
        }
        return std::nullopt;
    }
    modbus::DeviceError writeRegisters(std::uint16_t start, const std::vector<std::uint16_t>& values) override {
        log.push_back("write registers " + std::to_string(start) + "+" + std::to_string(values.size()));
        for (std::size_t i = 0; i < values.size(); ++i) {
            holding[static_cast<std::uint16_t>(start + i)] = values[i];
        }
        return std::nullopt;
    }
    modbus::DeviceError readCoils(std::uint16_t start, std::uint16_t count, std::vector<bool>& out) override {
        log.push_back("read coils " + std::to_string(start) + "+" + std::to_string(count));
        out.clear();
        for (std::uint16_t i = 0; i < count; ++i) {
            out.push_back(coils[static_cast<std::uint16_t>(start + i)]);
        }
        return std::nullopt;
    }
    modbus::DeviceError readHoldingRegisters(std::uint16_t start, std::uint16_t count,
                                             std::vector<std::uint16_t>& out) override {
        log.push_back("read registers " + std::to_string(start) + "+" + std::to_string(count));
        out.clear();
        for (std::uint16_t i = 0; i < count; ++i) {
            out.push_back(holding[static_cast<std::uint16_t>(start + i)]);
        }
        return std::nullopt;
    }
    modbus::DeviceError readDiscreteInputs(std::uint16_t start, std::uint16_t count, std::vector<bool>& out) override {
        log.push_back("read inputs " + std::to_string(start) + "+" + std::to_string(count));
        if (failNextReads > 0) {
            --failNextReads;
            return std::string("exception 6 (busy)");
        }
        out.assign(count, false);
        out[0] = firstInput;
        return std::nullopt;
    }
    modbus::DeviceError readInputRegisters(std::uint16_t start, std::uint16_t count,
                                           std::vector<std::uint16_t>& out) override {
        log.push_back("read input registers " + std::to_string(start) + "+" + std::to_string(count));
        out.clear();
        for (std::uint16_t i = 0; i < count; ++i) {
            out.push_back(inputRegisters[static_cast<std::uint16_t>(start + i)]);
        }
        return std::nullopt;
    }
    modbus::DeviceError readDeviceIdentification(std::uint8_t objectId, std::vector<std::uint8_t>& pdu) override {
        log.push_back("read device identification " + std::to_string(objectId));
        pdu = identification;
        return std::nullopt;
    }

    bool open = false;
    bool refuseConnect = false;
    bool failWrites = false;
    bool stuckOff = false;  // outputs forced off on the module
    bool firstInput = false;
    int failNextReads = 0;  // discrete input reads answered with an exception
    int connects = 0;
    std::map<std::uint16_t, std::uint16_t> inputRegisters;
    std::vector<std::uint8_t> identification;  // the 43/14 answer PDU
    std::map<std::uint16_t, bool> coils;
    std::map<std::uint16_t, std::uint16_t> holding;
    std::vector<std::string> log;
};

}  // namespace pitlink::test
