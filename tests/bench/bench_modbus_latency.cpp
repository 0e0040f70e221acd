// Modbus table I/O latency (issue 7), through the real pitlinkd and a real Modbus TCP device on
// loopback (a libmodbus server thread in this process, the bench's device peer):
//  - table state -> lamp: from the engine event that bets are open to the device receiving the
//    write that lights the "bets open" lamp;
//  - button press -> table action: from the "deal" input going high on the device to the engine
//    event that betting closed (the press debounced, journaled, then acted on, journaled again).
// Each is set against the poll period: a lamp change waits for the next poll (up to one period),
// a press for the debounce plus up to one period, plus the journal commits.
//
// Baseline in the same run: a libmodbus client's read of the same device (one Modbus round trip
// on this machine's loopback), the floor under every cycle.
//
//   bench_modbus_latency [--rounds N] [--poll-ms P] [--debounce-ms D] [--dir DIR] [--daemon PATH]
#include <arpa/inet.h>
#include <modbus/modbus.h>
#include <netinet/in.h>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/bench/command_line.h"
#include "tests/bench/daemon_process.h"
#include "tests/bench/line_socket.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr int kLampCoil = 1;   // "bets_open"
constexpr int kDealInput = 0;  // "deal" (close_bets)

struct Options {
    int rounds = 200;
    int pollMs = 50;
    int debounceMs = 20;
    fs::path dir = fs::current_path() / "bench-modbus";
    std::string daemon = PITLINK_DAEMON_PATH;
};

Options parse(int argc, char** argv) {
    Options o;
    pitlink::test::CommandLine args(argc, argv);
    o.rounds = args.integer("--rounds", o.rounds);
    o.pollMs = args.integer("--poll-ms", o.pollMs);
    o.debounceMs = args.integer("--debounce-ms", o.debounceMs);
    o.dir = args.text("--dir", o.dir.string());
    o.daemon = args.text("--daemon", o.daemon);
    args.rejectUnknown();
    return o;
}

double msSince(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
}

// The I/O module: a libmodbus TCP server that serves one client at a time (accepting again when
// it goes) and notes when the lamp coil changes.
class Device {
public:
    Device() : ctx_(modbus_new_tcp("127.0.0.1", 0)), map_(modbus_mapping_new(16, 16, 16, 16)) {
        listen_ = ::socket(AF_INET, SOCK_STREAM, 0);
        const int one = 1;
        ::setsockopt(listen_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::bind(listen_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(listen_, 4) != 0) {
            throw std::runtime_error("cannot listen on loopback");
        }
        socklen_t size = sizeof address;
        ::getsockname(listen_, reinterpret_cast<sockaddr*>(&address), &size);
        port_ = ntohs(address.sin_port);
        thread_ = std::thread([this] { serve(); });
    }
    ~Device() {
        stop_ = true;
        ::shutdown(listen_, SHUT_RDWR);
        ::close(listen_);
        if (client_ >= 0) {
            ::shutdown(client_, SHUT_RDWR);
        }
        thread_.join();
        modbus_mapping_free(map_);
        modbus_free(ctx_);
    }
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    [[nodiscard]] int port() const { return port_; }

    void setInput(int address, bool on) {
        std::lock_guard lock(mutex_);
        map_->tab_input_bits[address] = on ? 1 : 0;
    }
    // The time the lamp coil last became `on` after `since`, waiting up to `timeout`.
    bool waitLamp(bool on, Clock::time_point since, Clock::time_point& at, std::chrono::milliseconds timeout) {
        const auto deadline = Clock::now() + timeout;
        while (Clock::now() < deadline) {
            {
                std::lock_guard lock(mutex_);
                if (lampOn_ == on && lampChanged_ >= since) {
                    at = lampChanged_;
                    return true;
                }
            }
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
        return false;
    }

private:
    void serve() {
        std::vector<std::uint8_t> query(MODBUS_TCP_MAX_ADU_LENGTH);
        while (!stop_) {
            client_ = ::accept(listen_, nullptr, nullptr);
            if (client_ < 0) {
                return;
            }
            modbus_set_socket(ctx_, client_);
            for (;;) {
                const int n = modbus_receive(ctx_, query.data());
                if (n < 0) {
                    break;
                }
                if (n == 0) {
                    continue;
                }
                std::lock_guard lock(mutex_);
                modbus_reply(ctx_, query.data(), n, map_);
                const bool on = map_->tab_bits[kLampCoil] != 0;
                if (on != lampOn_) {
                    lampOn_ = on;
                    lampChanged_ = Clock::now();
                }
            }
            ::close(client_);
            client_ = -1;
        }
    }

    modbus_t* ctx_;
    modbus_mapping_t* map_;
    int listen_ = -1;
    std::atomic<int> client_{-1};
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::mutex mutex_;
    bool lampOn_ = false;
    Clock::time_point lampChanged_{};
    std::thread thread_;
};

class Engine {
public:
    explicit Engine(const fs::path& socket) : link_(socket) {}
    json request(const std::string& op, json fields = json::object()) {
        fields["op"] = op;
        fields["id"] = ++id_;
        link_.send(fields.dump() + "\n");
        for (;;) {
            json m = link_.read();
            if (m.value("id", 0) == id_) {
                if (!m.value("ok", false)) {
                    throw std::runtime_error(op + " refused: " + m.dump());
                }
                return m;
            }
            events_.push_back(std::move(m));
        }
    }
    // Waits for the event that satisfies `match`; returns the time it arrived.
    template <typename Match>
    Clock::time_point waitEvent(Match match) {
        for (auto it = events_.begin(); it != events_.end(); ++it) {
            if (match(*it)) {
                events_.erase(it);
                return Clock::now();
            }
        }
        for (;;) {
            json m = link_.read();
            const auto at = Clock::now();
            if (match(m)) {
                return at;
            }
        }
    }
    void clearEvents() { events_.clear(); }

private:
    pitlink::test::LineSocket link_;
    int id_ = 0;
    std::vector<json> events_;
};

bool isPhase(const json& e, const std::string& phase) {
    return e.value("event", "") == "round" && e.value("phase", "") == phase;
}

void report(const std::string& what, const std::vector<double>& samples, double pollMs) {
    using pitlink::test::percentile;
    std::printf("%-34s n=%-5zu p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms  (p99 = %.2f poll periods)\n", what.c_str(),
                samples.size(), percentile(samples, 0.5), percentile(samples, 0.99), percentile(samples, 1.0),
                percentile(samples, 0.99) / pollMs);
}

}  // namespace

int run(int argc, char** argv) {
    const Options o = parse(argc, argv);
    fs::remove_all(o.dir);
    fs::create_directories(o.dir);
    Device device;

    // Baseline: one Modbus round trip (read the inputs) to the same device from this process.
    std::vector<double> roundTrips;
    {
        modbus_t* client = modbus_new_tcp("127.0.0.1", device.port());
        if (client == nullptr || modbus_connect(client) != 0) {
            std::cerr << "cannot connect to the bench's own device\n";
            return 1;
        }
        std::uint8_t bits[8];
        for (int i = 0; i < 2000; ++i) {
            const auto start = Clock::now();
            modbus_read_input_bits(client, 0, 8, bits);
            roundTrips.push_back(msSince(start, Clock::now()));
        }
        modbus_close(client);
        modbus_free(client);
    }

    std::ofstream(o.dir / "pitlink.yaml")
        << "table:\n  source: reader\n  stations: 4\n  paytable: " << PITLINK_SOURCE_DIR
        << "/etc/paytables/standard.yaml\n"
        << "rounds:\n  bets_open_ms: 600000\n  last_bets_ms: 1000\n"
        << "engine:\n  socket: engine.sock\ncontrol:\n  socket: ''\njournal:\n  path: journal.db\n"
        << "log:\n  level: warn\n"
        // identify: false: this libmodbus server cannot frame a 43/14 request (RESULTS.md).
        << "modbus:\n  device: {transport: tcp, port: " << device.port()
        << "}\n  identify: false\n  poll_ms: " << o.pollMs << "\n  debounce_ms: " << o.debounceMs << "\n"
        << "  lamps:\n    - {name: bets_open, coil: " << kLampCoil << ", when: {bets_open: on}}\n"
        << "  buttons:\n    - {name: deal, discrete_input: " << kDealInput << ", action: close_bets}\n";
    const pid_t daemon = pitlink::test::startDaemon(o.daemon, o.dir / "pitlink.yaml", o.dir / "pitlinkd.log");

    std::vector<double> lamp;
    std::vector<double> press;
    int missed = 0;
    try {
        Engine engine(o.dir / "engine.sock");
        engine.request("new_shoe");
        for (int round = 0; round < o.rounds; ++round) {
            engine.clearEvents();
            if (round % 16 == 15) {
                engine.request("new_shoe");
            }
            engine.request("open_round");
            const auto open = engine.waitEvent([](const json& e) { return isPhase(e, "bets_open"); });
            Clock::time_point lit;
            if (device.waitLamp(true, open - std::chrono::milliseconds(o.pollMs), lit, std::chrono::seconds(5))) {
                lamp.push_back(msSince(open, lit));
            } else {
                ++missed;
            }
            const auto pressed = Clock::now();
            device.setInput(kDealInput, true);
            const auto closed = engine.waitEvent([](const json& e) { return isPhase(e, "closed"); });
            press.push_back(msSince(pressed, closed));
            device.setInput(kDealInput, false);
            // Player 9, Banker 8, naturals; the suit turns so that a fresh shoe lasts 16 rounds.
            const std::string suit(1, "SHDC"[round % 4]);
            for (const std::string& card : {"9" + suit, "K" + suit, "Q" + suit, "8" + suit}) {
                engine.request("card", json{{"card", card}});
            }
            engine.waitEvent([](const json& e) { return e.value("event", "") == "result"; });
            // Released long enough to be debounced before the next press.
            std::this_thread::sleep_for(std::chrono::milliseconds(o.debounceMs + 2 * o.pollMs));
        }
    } catch (const std::exception& e) {
        std::cerr << "bench_modbus_latency: " << e.what() << " (see " << (o.dir / "pitlinkd.log").string() << ")\n";
        ::kill(daemon, SIGKILL);
        ::waitpid(daemon, nullptr, 0);
        return 1;
    }
    ::kill(daemon, SIGTERM);
    ::waitpid(daemon, nullptr, 0);

    std::printf("poll period %d ms, debounce %d ms, %d rounds\n", o.pollMs, o.debounceMs, o.rounds);
    report("baseline: one Modbus round trip", roundTrips, o.pollMs);
    report("table state -> lamp written", lamp, o.pollMs);
    report("button pressed -> table acted", press, o.pollMs);
    if (missed != 0) {
        std::printf("lamp writes not seen within 5 s: %d\n", missed);
        return 1;
    }
    return 0;
}

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "bench_modbus_latency: " << e.what() << "\n";
        return 1;
    }
}
