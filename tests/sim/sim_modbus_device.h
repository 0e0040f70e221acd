#pragma once
// The table's I/O module in the simulation: lamps written are kept, dealer buttons are inputs the
// workload presses and releases. Answers at once; the simulated worker gives it its latency.
#include <cstdint>
#include <map>
#include <vector>

#include "protocols/modbus/modbus_device.h"

namespace pitlink::sim {

struct SimModbusDevice : modbus::ModbusDevice {
    modbus::DeviceError connect() override {
        open = true;
        return std::nullopt;
    }
    void close() override { open = false; }
    [[nodiscard]] bool connected() const override { return open; }
    modbus::DeviceError writeCoils(std::uint16_t start, const std::vector<bool>& values) override {
        for (std::size_t i = 0; i < values.size(); ++i) {
            coils[static_cast<std::uint16_t>(start + i)] = values[i];
        }
        return std::nullopt;
    }
    modbus::DeviceError writeRegisters(std::uint16_t, const std::vector<std::uint16_t>&) override {
        return std::nullopt;
    }
    modbus::DeviceError readCoils(std::uint16_t start, std::uint16_t count, std::vector<bool>& out) override {
        out.clear();
        for (std::uint16_t i = 0; i < count; ++i) {
            out.push_back(coils[static_cast<std::uint16_t>(start + i)]);
        }
        return std::nullopt;
    }
    modbus::DeviceError readHoldingRegisters(std::uint16_t, std::uint16_t count,
                                             std::vector<std::uint16_t>& out) override {
        out.assign(count, 0);
        return std::nullopt;
    }
    modbus::DeviceError readDiscreteInputs(std::uint16_t start, std::uint16_t count, std::vector<bool>& out) override {
        out.clear();
        for (std::uint16_t i = 0; i < count; ++i) {
            out.push_back((*inputs)[static_cast<std::uint16_t>(start + i)]);
        }
        return std::nullopt;
    }
    modbus::DeviceError readInputRegisters(std::uint16_t start, std::uint16_t count,
                                           std::vector<std::uint16_t>& out) override {
        out.clear();
        for (std::uint16_t i = 0; i < count; ++i) {
            out.push_back(inputRegisters == nullptr ? 0 : (*inputRegisters)[static_cast<std::uint16_t>(start + i)]);
        }
        return std::nullopt;
    }

    bool open = false;
    std::map<std::uint16_t, bool> coils;
    // The buttons' levels, owned by the simulation (they outlive a crash of the daemon).
    std::map<std::uint16_t, bool>* inputs = nullptr;
    std::map<std::uint16_t, std::uint16_t>* inputRegisters = nullptr;  // edge counters, the simulation's
};

}  // namespace pitlink::sim
