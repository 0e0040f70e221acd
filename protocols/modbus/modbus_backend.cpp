// libmodbus adapter (DESIGN.md rule 3: the only file of protocols/modbus that includes it).
#include "protocols/modbus/modbus_backend.h"

#include <modbus/modbus.h>

#include <cerrno>

namespace pitlink::modbus {

namespace {

class LibmodbusDevice final : public ModbusDevice {
public:
    explicit LibmodbusDevice(ConnectionSettings settings) : settings_(std::move(settings)) {}
    ~LibmodbusDevice() override { close(); }
    LibmodbusDevice(const LibmodbusDevice&) = delete;
    LibmodbusDevice& operator=(const LibmodbusDevice&) = delete;

    DeviceError connect() override {
        close();
        ctx_ = settings_.transport == Transport::Tcp
                   ? modbus_new_tcp(settings_.host.c_str(), settings_.port)
                   : modbus_new_rtu(settings_.device.c_str(), settings_.baud, settings_.parity, settings_.dataBits,
                                    settings_.stopBits);
        if (ctx_ == nullptr) {
            return lastError("cannot create the context");
        }
        const auto ms = settings_.responseTimeout.count();
        modbus_set_response_timeout(ctx_, static_cast<std::uint32_t>(ms / 1000),
                                    static_cast<std::uint32_t>((ms % 1000) * 1000));
        if (modbus_set_slave(ctx_, settings_.unitId) != 0) {
            DeviceError e = lastError("unit id");
            close();
            return e;
        }
        if (modbus_connect(ctx_) != 0) {
            DeviceError e = lastError("");
            close();
            return e;
        }
        return std::nullopt;
    }

    void close() override {
        if (ctx_ != nullptr) {
            modbus_close(ctx_);
            modbus_free(ctx_);
            ctx_ = nullptr;
        }
    }

    [[nodiscard]] bool connected() const override { return ctx_ != nullptr; }

    DeviceError writeCoils(std::uint16_t start, const std::vector<bool>& values) override {
        std::vector<std::uint8_t> bits(values.begin(), values.end());
        return check(modbus_write_bits(ctx_, start, static_cast<int>(bits.size()), bits.data()), "write coils");
    }

    DeviceError writeRegisters(std::uint16_t start, const std::vector<std::uint16_t>& values) override {
        return check(modbus_write_registers(ctx_, start, static_cast<int>(values.size()), values.data()),
                     "write registers");
    }

    DeviceError readCoils(std::uint16_t start, std::uint16_t count, std::vector<bool>& out) override {
        return readBits(&modbus_read_bits, start, count, out);
    }

    DeviceError readHoldingRegisters(std::uint16_t start, std::uint16_t count,
                                     std::vector<std::uint16_t>& out) override {
        return readWords(&modbus_read_registers, start, count, out);
    }

    DeviceError readDiscreteInputs(std::uint16_t start, std::uint16_t count, std::vector<bool>& out) override {
        return readBits(&modbus_read_input_bits, start, count, out);
    }

    DeviceError readInputRegisters(std::uint16_t start, std::uint16_t count, std::vector<std::uint16_t>& out) override {
        return readWords(&modbus_read_input_registers, start, count, out);
    }

private:
    using BitRead = int (*)(modbus_t*, int, int, std::uint8_t*);
    using WordRead = int (*)(modbus_t*, int, int, std::uint16_t*);

    DeviceError readBits(BitRead read, std::uint16_t start, std::uint16_t count, std::vector<bool>& out) {
        std::vector<std::uint8_t> bits(count);
        if (DeviceError e = check(read(ctx_, start, count, bits.data()), "read")) {
            return e;
        }
        out.assign(bits.begin(), bits.end());
        return std::nullopt;
    }

    DeviceError readWords(WordRead read, std::uint16_t start, std::uint16_t count, std::vector<std::uint16_t>& out) {
        out.assign(count, 0);
        return check(read(ctx_, start, count, out.data()), "read");
    }

    DeviceError check(int rc, const char* what) {
        if (ctx_ == nullptr) {
            return std::string(what) + ": not connected";
        }
        return rc < 0 ? lastError(what) : std::nullopt;
    }

    static DeviceError lastError(const std::string& what) {
        const std::string text = modbus_strerror(errno);
        return what.empty() ? text : what + ": " + text;
    }

    ConnectionSettings settings_;
    modbus_t* ctx_ = nullptr;
};

}  // namespace

std::unique_ptr<ModbusDevice> makeLibmodbusDevice(const ConnectionSettings& settings) {
    return std::make_unique<LibmodbusDevice>(settings);
}

}  // namespace pitlink::modbus
