// libmodbus adapter (docs/design.md rule 3: the only file of protocols/modbus that includes it).
#include "protocols/modbus/modbus_backend.h"

#include <modbus/modbus.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <mutex>
#include <thread>

#include "protocols/modbus/device_identification.h"

namespace pitlink::modbus {

namespace {

DeviceError lastError(const std::string& what) {
    const std::string text = modbus_strerror(errno);
    return what.empty() ? text : what + ": " + text;
}

using SetTimeout = int (*)(modbus_t*, std::uint32_t, std::uint32_t);
void setTimeout(modbus_t* ctx, SetTimeout set, std::chrono::milliseconds timeout) {
    const auto ms = timeout.count();
    set(ctx, static_cast<std::uint32_t>(ms / 1000), static_cast<std::uint32_t>((ms % 1000) * 1000));
}

}  // namespace

// One line to modules: a TCP connection, or a serial port whose RS-485 bus several units share.
// Its units' devices may run on different worker threads: each request holds the bus's lock.
class LibmodbusBus {
public:
    explicit LibmodbusBus(ConnectionSettings settings) : settings_(std::move(settings)) {}
    ~LibmodbusBus() { closeNow(); }
    LibmodbusBus(const LibmodbusBus&) = delete;
    LibmodbusBus& operator=(const LibmodbusBus&) = delete;

    [[nodiscard]] std::unique_lock<std::mutex> lock() { return std::unique_lock(mutex_); }

    // A unit starts using the bus (opened with its first user); under the lock.
    DeviceError open() {
        if (ctx_ == nullptr) {
            if (DeviceError e = openNow()) {
                return e;
            }
        }
        ++users_;
        return std::nullopt;
    }
    // A unit stops using the bus; closed with its last user (a unit that failed does not take
    // the serial port from the others). Under the lock.
    void release() {
        if (users_ > 0 && --users_ == 0) {
            closeNow();
        }
    }
    // Before each request of `unit`, under the lock: its unit id and time-outs, and the silence
    // a slow module needs after the last answer on the line.
    modbus_t* prepare(const ConnectionSettings& unit) {
        if (ctx_ == nullptr) {
            return nullptr;
        }
        modbus_set_slave(ctx_, unit.unitId);
        setTimeout(ctx_, &modbus_set_response_timeout, unit.responseTimeout);
        // Without it libmodbus waits 500 ms for every byte of a cut-short answer.
        setTimeout(ctx_, &modbus_set_byte_timeout, unit.byteTimeout);
        if (settings_.frameGap.count() > 0) {
            std::this_thread::sleep_until(frameEnd_ + settings_.frameGap);
        }
        return ctx_;
    }
    void answered() { frameEnd_ = std::chrono::steady_clock::now(); }
    // A frame pitlink builds itself (43/14), under the lock: no SIGPIPE on a socket the module
    // closed; on RS-485 with RTS direction control, RTS raised around it as libmodbus does.
    bool sendRaw(const std::vector<std::uint8_t>& frame) {
        const int fd = modbus_get_socket(ctx_);
        if (settings_.transport == Transport::Tcp) {
            return ::send(fd, frame.data(), frame.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(frame.size());
        }
        const bool rts = settings_.rs485 == Rs485::Rts;
        if (rts) {
            setRts(fd, settings_.rtsActiveHigh);
            std::this_thread::sleep_for(settings_.rtsDelay);
        }
        const bool sent = ::write(fd, frame.data(), frame.size()) == static_cast<ssize_t>(frame.size());
        if (rts) {
            ::tcdrain(fd);  // the last bit out before the line is let go
            std::this_thread::sleep_for(settings_.rtsDelay);
            setRts(fd, !settings_.rtsActiveHigh);
        }
        return sent;
    }
    // After a failed request, under the lock: on TCP a fresh connection (a late answer goes to the
    // old one); on a serial line, the answer's time left to come, then what came is dropped.
    void recover(const ConnectionSettings& unit) {
        if (ctx_ == nullptr) {
            return;
        }
        if (settings_.transport == Transport::Tcp) {
            modbus_close(ctx_);
            if (modbus_connect(ctx_) != 0) {
                closeNow();  // the retry fails as not connected; the cycle reconnects
            }
            return;
        }
        std::this_thread::sleep_for(unit.responseTimeout);
        modbus_flush(ctx_);
    }
    [[nodiscard]] std::uint16_t nextTransaction() { return ++transaction_; }

private:
    DeviceError openNow() {
        ctx_ = settings_.transport == Transport::Tcp
                   ? modbus_new_tcp(settings_.host.c_str(), settings_.port)
                   : modbus_new_rtu(settings_.device.c_str(), settings_.baud, settings_.parity, settings_.dataBits,
                                    settings_.stopBits);
        if (ctx_ == nullptr) {
            return lastError("cannot create the context");
        }
        // The connect too waits no longer than the configuration says (libmodbus: 500 ms).
        setTimeout(ctx_, &modbus_set_response_timeout, settings_.responseTimeout);
        setTimeout(ctx_, &modbus_set_byte_timeout, settings_.byteTimeout);
        // After a time-out or a bad frame, what is left on the line is flushed, so that a late
        // answer is not taken for the next request's.
        modbus_set_error_recovery(ctx_, MODBUS_ERROR_RECOVERY_PROTOCOL);
        if (modbus_connect(ctx_) != 0) {
            DeviceError e = lastError("");
            closeNow();
            return e;
        }
        if (DeviceError e = setUpRs485()) {
            closeNow();
            return e;
        }
        return std::nullopt;
    }

    void closeNow() {
        if (ctx_ != nullptr) {
            modbus_close(ctx_);
            modbus_free(ctx_);
            ctx_ = nullptr;
        }
        users_ = 0;
    }

    static void setRts(int fd, bool up) {
        int flags = 0;
        if (::ioctl(fd, TIOCMGET, &flags) == 0) {  // a pty has no modem lines: nothing to do
            flags = up ? (flags | TIOCM_RTS) : (flags & ~TIOCM_RTS);
            ::ioctl(fd, TIOCMSET, &flags);
        }
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

    ConnectionSettings settings_;  // the line's: address or port, framing, RS-485
    std::mutex mutex_;
    modbus_t* ctx_ = nullptr;
    int users_ = 0;
    std::chrono::steady_clock::time_point frameEnd_{};
    std::uint16_t transaction_ = 0x8000;  // ours (43/14), apart from libmodbus's own numbering
};

namespace {

// One module: a unit id on a bus.
class LibmodbusDevice final : public ModbusDevice {
public:
    LibmodbusDevice(ConnectionSettings settings, std::shared_ptr<LibmodbusBus> bus)
        : settings_(std::move(settings)), bus_(std::move(bus)) {}
    ~LibmodbusDevice() override { close(); }
    LibmodbusDevice(const LibmodbusDevice&) = delete;
    LibmodbusDevice& operator=(const LibmodbusDevice&) = delete;

    DeviceError connect() override {
        close();
        const auto lock = bus_->lock();
        if (DeviceError e = bus_->open()) {
            return e;
        }
        connected_ = true;
        return std::nullopt;
    }

    void close() override {
        if (connected_) {
            const auto lock = bus_->lock();
            bus_->release();
            connected_ = false;
        }
    }

    [[nodiscard]] bool connected() const override { return connected_; }

    void recover() override {
        if (connected_) {
            const auto lock = bus_->lock();
            bus_->recover(settings_);
        }
    }

    DeviceError writeCoils(std::uint16_t start, const std::vector<bool>& values) override {
        std::vector<std::uint8_t> bits(values.begin(), values.end());
        return request("write coils", [&](modbus_t* ctx) {
            return modbus_write_bits(ctx, start, static_cast<int>(bits.size()), bits.data());
        });
    }

    DeviceError writeRegisters(std::uint16_t start, const std::vector<std::uint16_t>& values) override {
        return request("write registers", [&](modbus_t* ctx) {
            return modbus_write_registers(ctx, start, static_cast<int>(values.size()), values.data());
        });
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
        if (!connected_) {
            return std::string("read device identification: not connected");
        }
        const auto lock = bus_->lock();
        modbus_t* ctx = bus_->prepare(settings_);
        if (ctx == nullptr) {
            return std::string("read device identification: not connected");
        }
        modbus_flush(ctx);
        const auto request = deviceIdRequest(objectId);
        const auto unit = static_cast<std::uint8_t>(settings_.unitId);
        const bool tcp = settings_.transport == Transport::Tcp;
        const std::uint16_t transaction = bus_->nextTransaction();
        const std::vector<std::uint8_t> frame = tcp ? tcpFrame(transaction, unit, request) : rtuFrame(unit, request);
        const int fd = modbus_get_socket(ctx);
        if (!bus_->sendRaw(frame)) {
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
        bus_->answered();
        if (answer.empty()) {
            return std::string("read device identification: no answer");
        }
        auto unframed = tcp ? tcpPdu(answer, transaction, unit) : rtuPdu(answer, unit);
        if (!unframed) {
            modbus_flush(ctx);
            return std::string("read device identification: a bad frame");
        }
        pdu = std::move(*unframed);
        return std::nullopt;
    }

private:
    using BitRead = int (*)(modbus_t*, int, int, std::uint8_t*);
    using WordRead = int (*)(modbus_t*, int, int, std::uint16_t*);

    // One request on the bus, under its lock, as this unit.
    template <typename Call>
    DeviceError request(const char* what, Call call) {
        if (!connected_) {
            return std::string(what) + ": not connected";
        }
        const auto lock = bus_->lock();
        modbus_t* ctx = bus_->prepare(settings_);
        if (ctx == nullptr) {
            return std::string(what) + ": not connected";
        }
        const int rc = call(ctx);
        const int error = errno;
        bus_->answered();
        errno = error;
        return rc < 0 ? lastError(what) : std::nullopt;
    }

    DeviceError readBits(BitRead read, std::uint16_t start, std::uint16_t count, std::vector<bool>& out) {
        std::vector<std::uint8_t> bits(count);
        if (DeviceError e = request("read", [&](modbus_t* ctx) { return read(ctx, start, count, bits.data()); })) {
            return e;
        }
        out.assign(bits.begin(), bits.end());
        return std::nullopt;
    }

    DeviceError readWords(WordRead read, std::uint16_t start, std::uint16_t count, std::vector<std::uint16_t>& out) {
        out.assign(count, 0);
        return request("read", [&](modbus_t* ctx) { return read(ctx, start, count, out.data()); });
    }

    ConnectionSettings settings_;
    std::shared_ptr<LibmodbusBus> bus_;
    bool connected_ = false;
};

}  // namespace

std::unique_ptr<ModbusDevice> LibmodbusBuses::device(const ConnectionSettings& settings) {
    // TCP: a connection per module. RTU: one bus per serial port, shared by its units.
    std::shared_ptr<LibmodbusBus> bus;
    if (settings.transport == Transport::Rtu) {
        std::shared_ptr<LibmodbusBus>& shared = serialBuses_[settings.device];
        if (!shared) {
            shared = std::make_shared<LibmodbusBus>(settings);
        }
        bus = shared;
    } else {
        bus = std::make_shared<LibmodbusBus>(settings);
    }
    return std::make_unique<LibmodbusDevice>(settings, std::move(bus));
}

std::unique_ptr<ModbusDevice> makeLibmodbusDevice(const ConnectionSettings& settings) {
    return std::make_unique<LibmodbusDevice>(settings, std::make_shared<LibmodbusBus>(settings));
}

}  // namespace pitlink::modbus
