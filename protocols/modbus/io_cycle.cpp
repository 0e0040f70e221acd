#include "protocols/modbus/io_cycle.h"

#include <variant>

#include "protocols/modbus/device_identification.h"

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

// Makes one request, trying again up to `retries` times; a failure that a retry mends is kept
// in the result as a transient error.
template <typename Request>
DeviceError attempt(ModbusDevice& device, CycleResult& result, int retries, const std::string& what, Request request) {
    DeviceError e;
    for (int tried = 0; tried <= retries; ++tried) {
        if (tried > 0) {
            device.recover();
        }
        ++result.requests;
        e = request();
        if (!e) {
            return e;
        }
        if (tried < retries) {
            result.transientErrors.push_back(what + ": " + *e);
        }
    }
    return e;
}

// The set-up or stop writes, in order; the first that fails (after its retries) is named in `what`.
DeviceError writeEach(ModbusDevice& device, CycleResult& result, int retries, const std::vector<SetupWrite>& writes,
                      const char* label, std::string& what) {
    for (const SetupWrite& w : writes) {
        what = label + describe(w.coils ? "coil" : "holding register", w.address);
        DeviceError e = attempt(device, result, retries, what, [&] {
            if (w.coils) {
                return device.writeCoils(w.address, std::vector<bool>(w.values.begin(), w.values.end()));
            }
            return device.writeRegisters(w.address, w.values);
        });
        if (e) {
            return e;
        }
    }
    return std::nullopt;
}

// A module's text as pitlink shows and journals it: printable ASCII kept, any other byte as \xNN
// (the module's encoding is unknown; JSON needs valid UTF-8).
std::string printable(const std::string& bytes) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (const char c : bytes) {
        const auto b = static_cast<unsigned char>(c);
        if (b >= 0x20 && b < 0x7F && b != '\\') {
            out += c;
        } else {
            out += "\\x";
            out += kHex[b >> 4U];
            out += kHex[b & 0x0FU];
        }
    }
    return out;
}

void identify(ModbusDevice& device, CycleResult& result) {
    std::uint8_t next = 0;
    for (int chunk = 0; chunk < 8; ++chunk) {  // the basic objects come in one or a few answers
        std::vector<std::uint8_t> pdu;
        ++result.requests;
        if (DeviceError e = device.readDeviceIdentification(next, pdu)) {
            result.identityError = *e;
            return;
        }
        const auto parsed = parseDeviceIdAnswer(pdu);
        if (const auto* error = std::get_if<DeviceIdError>(&parsed)) {
            result.identityError = "read device identification (43/14): " + error->message;
            return;
        }
        const auto& answer = std::get<DeviceIdChunk>(parsed);
        for (const auto& [id, value] : answer.objects) {
            result.identity[deviceIdObjectName(id)] = printable(value);
        }
        if (!answer.moreFollows || answer.nextObjectId <= next) {
            return;
        }
        next = answer.nextObjectId;
    }
}

}  // namespace

CycleResult runCycle(ModbusDevice& device, const CycleRequest& request) {
    CycleResult result;
    const int retries = request.retries;
    if (!device.connected()) {
        if (DeviceError e = device.connect()) {
            return failed(device, std::move(result), "connect", *e);
        }
        result.connected = true;
        std::string failing;
        if (DeviceError e = writeEach(device, result, retries, request.setup, "set-up write ", failing)) {
            return failed(device, std::move(result), failing, *e);
        }
        result.setupWritten = true;
        if (request.identify) {
            identify(device, result);  // not offered is not a failure
        }
    }
    const bool full = result.connected || !request.writtenValid;
    result.fullWrite = full;
    const OutputImage writes = changedPart(request.image, full ? nullptr : &request.written);
    for (const CoilRun& run : coilRuns(writes.coils)) {
        const std::string what = "write " + describe("coil", run.start);
        if (DeviceError e =
                attempt(device, result, retries, what, [&] { return device.writeCoils(run.start, run.values); })) {
            return failed(device, std::move(result), what, *e);
        }
    }
    for (const RegisterRun& run : registerRuns(writes.registers)) {
        const std::string what = "write " + describe("holding register", run.start);
        if (DeviceError e =
                attempt(device, result, retries, what, [&] { return device.writeRegisters(run.start, run.values); })) {
            return failed(device, std::move(result), what, *e);
        }
    }
    if (full || request.readBack) {
        // What the module holds of every output: a difference is a fault of that output (stuck,
        // or overridden on the module), told apart from a link that does not answer.
        OutputImage held;
        for (const CoilRun& run : coilRuns(request.image.coils)) {
            std::vector<bool> back;
            const std::string what = "read back " + describe("coil", run.start);
            if (DeviceError e = attempt(device, result, retries, what, [&] {
                    return device.readCoils(run.start, static_cast<std::uint16_t>(run.values.size()), back);
                })) {
                return failed(device, std::move(result), what, *e);
            }
            for (std::size_t i = 0; i < run.values.size() && i < back.size(); ++i) {
                held.coils[static_cast<std::uint16_t>(run.start + i)] = back[i];
            }
        }
        for (const RegisterRun& run : registerRuns(request.image.registers)) {
            std::vector<std::uint16_t> back;
            const std::string what = "read back " + describe("holding register", run.start);
            if (DeviceError e = attempt(device, result, retries, what, [&] {
                    return device.readHoldingRegisters(run.start, static_cast<std::uint16_t>(run.values.size()), back);
                })) {
                return failed(device, std::move(result), what, *e);
            }
            for (std::size_t i = 0; i < run.values.size() && i < back.size(); ++i) {
                held.registers[static_cast<std::uint16_t>(run.start + i)] = back[i];
            }
        }
        result.readBack = std::move(held);
    }
    if (std::string failing;
        DeviceError e = writeEach(device, result, retries, request.final, "stop write ", failing)) {
        return failed(device, std::move(result), failing, *e);
    }
    const ReadPlan& plan = request.plan;
    if (plan.discreteCount > 0) {
        const std::string what = "read " + describe("discrete input", plan.discreteStart);
        if (DeviceError e = attempt(device, result, retries, what, [&] {
                return device.readDiscreteInputs(plan.discreteStart, plan.discreteCount, result.discrete);
            })) {
            return failed(device, std::move(result), what, *e);
        }
    }
    if (plan.registerCount > 0) {
        const std::string what = "read " + describe("input register", plan.registerStart);
        if (DeviceError e = attempt(device, result, retries, what, [&] {
                return device.readInputRegisters(plan.registerStart, plan.registerCount, result.registers);
            })) {
            return failed(device, std::move(result), what, *e);
        }
    }
    result.ok = true;
    result.written = request.image;
    return result;
}

std::vector<Mismatch> mismatches(const PointMap& map, const OutputImage& written, const OutputImage& readBack) {
    std::vector<Mismatch> found;
    for (std::size_t n = 0; n < map.outputs.size(); ++n) {
        const OutputPoint& o = map.outputs[n];
        bool want = false;
        bool holds = false;
        if (o.kind == OutputKind::Coil) {
            const auto w = written.coils.find(o.address);
            const auto h = readBack.coils.find(o.address);
            if (w == written.coils.end() || h == readBack.coils.end()) {
                continue;
            }
            want = w->second;
            holds = h->second;
        } else {
            const auto w = written.registers.find(o.address);
            const auto h = readBack.registers.find(o.address);
            if (w == written.registers.end() || h == readBack.registers.end()) {
                continue;
            }
            want = ((w->second >> o.bit) & 1U) != 0;
            holds = ((h->second >> o.bit) & 1U) != 0;
        }
        if (want != holds) {
            found.push_back({n, holds});
        }
    }
    return found;
}

}  // namespace pitlink::modbus
