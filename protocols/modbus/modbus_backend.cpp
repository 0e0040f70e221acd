// libmodbus adapter (DESIGN.md rule 3: the only file of protocols/modbus that includes it).
#include "protocols/modbus/modbus_backend.h"

#include <modbus/modbus.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <thread>

#include "protocols/modbus/device_identification.h"

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
        setTimeout(&modbus_set_response_timeout, settings_.responseTimeout);
        // Without it libmodbus waits 500 ms for every byte of a cut-short answer.
        setTimeout(&modbus_set_byte_timeout, settings_.byteTimeout);
        // After a time-out or a bad frame, what is left on the line is flushed, so that a late
        // answer is not taken for the next request's.
        modbus_set_error_recovery(ctx_, MODBUS_ERROR_RECOVERY_PROTOCOL);
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
        if (DeviceError e = setUpRs485()) {
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
        keepFrameGap();
        std::vector<std::uint8_t> bits(values.begin(), values.end());
        return check(modbus_write_bits(ctx_, start, static_cast<int>(bits.size()), bits.data()), "write coils");
    }

    DeviceError writeRegisters(std::uint16_t start, const std::vector<std::uint16_t>& values) override {
        keepFrameGap();
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

    // libmodbus cannot frame a 43/14 answer: this one exchange is framed here, on its socket.
    DeviceError readDeviceIdentification(std::uint8_t objectId, std::vector<std::uint8_t>& pdu) override {
        pdu.clear();
        if (ctx_ == nullptr) {
            return std::string("read device identification: not connected");
        }
        keepFrameGap();
        modbus_flush(ctx_);
        const auto request = deviceIdRequest(objectId);
        const auto unit = static_cast<std::uint8_t>(settings_.unitId);
        const bool tcp = settings_.transport == Transport::Tcp;
        const std::uint16_t transaction = ++transaction_;
        const std::vector<std::uint8_t> frame = tcp ? tcpFrame(transaction, unit, request) : rtuFrame(unit, request);
        const int fd = modbus_get_socket(ctx_);
        if (::write(fd, frame.data(), frame.size()) != static_cast<ssize_t>(frame.size())) {
            return std::string("read device identification: cannot send");
        }
        std::vector<std::uint8_t> answer;
        // The first byte within the response time-out, the next ones within the byte time-out;
        // TCP's header says the length, an RTU frame ends with silence.
        std::chrono::milliseconds wait = settings_.responseTimeout;
        while (answer.size() < MODBUS_MAX_ADU_LENGTH) {
            if (tcp && answer.size() >= 6 && answer.size() == 6U + ((answer[4] << 8U) | answer[5])) {
                break;
            }
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, static_cast<int>(wait.count())) <= 0) {
                break;
            }
            std::array<std::uint8_t, 260> chunk{};
            const ssize_t n = ::read(fd, chunk.data(), chunk.size());
            if (n <= 0) {
                break;
            }
            answer.insert(answer.end(), chunk.begin(), chunk.begin() + n);
            wait = std::max(settings_.byteTimeout, std::chrono::milliseconds(5));
        }
        frameEnd_ = std::chrono::steady_clock::now();
        if (answer.empty()) {
            return std::string("read device identification: no answer");
        }
        auto unframed = tcp ? tcpPdu(answer, transaction, unit) : rtuPdu(answer, unit);
        if (!unframed) {
            modbus_flush(ctx_);
            return std::string("read device identification: a bad frame");
        }
        pdu = std::move(*unframed);
        return std::nullopt;
    }

private:
    using BitRead = int (*)(modbus_t*, int, int, std::uint8_t*);
    using WordRead = int (*)(modbus_t*, int, int, std::uint16_t*);

    DeviceError readBits(BitRead read, std::uint16_t start, std::uint16_t count, std::vector<bool>& out) {
        keepFrameGap();
        std::vector<std::uint8_t> bits(count);
        if (DeviceError e = check(read(ctx_, start, count, bits.data()), "read")) {
            return e;
        }
        out.assign(bits.begin(), bits.end());
        return std::nullopt;
    }

    DeviceError readWords(WordRead read, std::uint16_t start, std::uint16_t count, std::vector<std::uint16_t>& out) {
        keepFrameGap();
        out.assign(count, 0);
        return check(read(ctx_, start, count, out.data()), "read");
    }

    DeviceError check(int rc, const char* what) {
        frameEnd_ = std::chrono::steady_clock::now();
        if (ctx_ == nullptr) {
            return std::string(what) + ": not connected";
        }
        return rc < 0 ? lastError(what) : std::nullopt;
    }

    using SetTimeout = int (*)(modbus_t*, std::uint32_t, std::uint32_t);
    void setTimeout(SetTimeout set, std::chrono::milliseconds timeout) {
        const auto ms = timeout.count();
        set(ctx_, static_cast<std::uint32_t>(ms / 1000), static_cast<std::uint32_t>((ms % 1000) * 1000));
    }

    // RS-485 on RTU: the kernel driver switches the transceiver, or libmodbus toggles RTS around
    // each frame (with its delay before and after).
    DeviceError setUpRs485() {
        if (settings_.transport != Transport::Rtu || settings_.rs485 == Rs485::None) {
            return std::nullopt;
        }
        if (settings_.rs485 == Rs485::Kernel) {
            if (modbus_rtu_set_serial_mode(ctx_, MODBUS_RTU_RS485) != 0) {
                return lastError("RS-485 mode of the serial driver (rs485: kernel)");
            }
            return std::nullopt;
        }
        if (modbus_rtu_set_rts(ctx_, settings_.rtsActiveHigh ? MODBUS_RTU_RTS_UP : MODBUS_RTU_RTS_DOWN) != 0) {
            return lastError("RTS direction control (rs485: rts)");
        }
        if (modbus_rtu_set_rts_delay(ctx_, static_cast<int>(settings_.rtsDelay.count())) != 0) {
            return lastError("RTS delay");
        }
        return std::nullopt;
    }

    // The silence a slow module needs between the end of one answer and the next request.
    void keepFrameGap() const {
        if (settings_.frameGap.count() > 0) {
            std::this_thread::sleep_until(frameEnd_ + settings_.frameGap);
        }
    }

    static DeviceError lastError(const std::string& what) {
        const std::string text = modbus_strerror(errno);
        return what.empty() ? text : what + ": " + text;
    }

    ConnectionSettings settings_;
    modbus_t* ctx_ = nullptr;
    std::chrono::steady_clock::time_point frameEnd_{};
    std::uint16_t transaction_ = 0x8000;  // ours, apart from libmodbus's own numbering
};

}  // namespace

std::unique_ptr<ModbusDevice> makeLibmodbusDevice(const ConnectionSettings& settings) {
    return std::make_unique<LibmodbusDevice>(settings);
}

}  // namespace pitlink::modbus
