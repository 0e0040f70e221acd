#include "protocols/modbus/io_cycle.h"

namespace pitlink::modbus {

namespace {

CycleResult failed(ModbusDevice& device, CycleResult result, const std::string& what, const std::string& error) {
    device.close();
    result.ok = false;
    result.error = what + ": " + error;
    return result;
}

std::string describe(const char* kind, std::uint16_t address) {
    return std::string(kind) + " " + std::to_string(address);
}

}  // namespace

CycleResult runCycle(ModbusDevice& device, const CycleRequest& request) {
    CycleResult result;
    if (!device.connected()) {
        if (DeviceError e = device.connect()) {
            return failed(device, std::move(result), "connect", *e);
        }
        result.connected = true;
    }
    const bool full = result.connected || !request.writtenValid;
    result.fullWrite = full;
    const OutputImage writes = changedPart(request.image, full ? nullptr : &request.written);
    for (const CoilRun& run : coilRuns(writes.coils)) {
        ++result.requests;
        if (DeviceError e = device.writeCoils(run.start, run.values)) {
            return failed(device, std::move(result), "write " + describe("coil", run.start), *e);
        }
    }
    for (const RegisterRun& run : registerRuns(writes.registers)) {
        ++result.requests;
        if (DeviceError e = device.writeRegisters(run.start, run.values)) {
            return failed(device, std::move(result), "write " + describe("holding register", run.start), *e);
        }
    }
    if (full) {
        // Read back: a module that accepted the writes but holds something else (a wrong unit
        // id behind a gateway, outputs forced locally) must not pass for lamps that are right.
        for (const CoilRun& run : coilRuns(writes.coils)) {
            std::vector<bool> back;
            ++result.requests;
            if (DeviceError e = device.readCoils(run.start, static_cast<std::uint16_t>(run.values.size()), back)) {
                return failed(device, std::move(result), "read back " + describe("coil", run.start), *e);
            }
            for (std::size_t i = 0; i < run.values.size(); ++i) {
                if (i >= back.size() || back[i] != run.values[i]) {
                    return failed(device, std::move(result),
                                  "read back " + describe("coil", static_cast<std::uint16_t>(run.start + i)),
                                  std::string("holds ") + (i < back.size() && back[i] ? "on" : "off") + ", written " +
                                      (run.values[i] ? "on" : "off"));
                }
            }
        }
        for (const RegisterRun& run : registerRuns(writes.registers)) {
            std::vector<std::uint16_t> back;
            ++result.requests;
            if (DeviceError e =
                    device.readHoldingRegisters(run.start, static_cast<std::uint16_t>(run.values.size()), back)) {
                return failed(device, std::move(result), "read back " + describe("holding register", run.start), *e);
            }
            if (back != run.values) {
                return failed(device, std::move(result), "read back " + describe("holding register", run.start),
                              "differs from what was written");
            }
        }
    }
    const ReadPlan& plan = request.plan;
    if (plan.discreteCount > 0) {
        ++result.requests;
        if (DeviceError e = device.readDiscreteInputs(plan.discreteStart, plan.discreteCount, result.discrete)) {
            return failed(device, std::move(result), "read " + describe("discrete input", plan.discreteStart), *e);
        }
    }
    if (plan.registerCount > 0) {
        ++result.requests;
        if (DeviceError e = device.readInputRegisters(plan.registerStart, plan.registerCount, result.registers)) {
            return failed(device, std::move(result), "read " + describe("input register", plan.registerStart), *e);
        }
    }
    result.ok = true;
    result.written = request.image;
    return result;
}

}  // namespace pitlink::modbus
