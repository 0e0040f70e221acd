// SAS answer latency (issue 6): from the last byte of a poll to the first byte of the answer,
// with N station links (16 by default) each polled every 40 ms (the fastest rate hosts use for
// ticketing and real-time events) while the real pitlinkd deals RNG rounds at 100x normal speed
// (bets open 200 ms, last bets 50 ms) with every station betting and every change journaled
// with fdatasync. Each link is a real pty pair; the host side writes the escaped stream of
// docs/sas.md, alternating a general poll and LP 1A so that every poll is an implied ACK of the
// previous answer.
//
// Baseline in the same run: the same poller against an echo thread that answers each poll with
// one byte at once (the pty and scheduling floor of this machine).
//
// The poller stands for the host, another machine: it polls at real-time priority (SCHED_FIFO,
// --poller-priority, 0 for normal), so that what is measured is the station side, not a poller
// starved by the load. --hog N starts N busy loops (processes at normal priority) for both
// measurements, as a table controller's own software would load it. pitlinkd is started at
// normal priority and gets only the scheduling it sets up itself.
//
//   bench_sas_latency [--seconds S] [--stations N] [--period-ms P] [--hog N] [--poller-priority P]
//                     [--dir DIR] [--daemon PATH]
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
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

struct Options {
    double seconds = 20;
    int stations = 16;
    int periodMs = 40;
    int hogs = 0;
    int pollerPriority = 50;
    fs::path dir = fs::current_path() / "bench-sas";
    std::string daemon = PITLINK_DAEMON_PATH;
};

Options parse(int argc, char** argv) {
    Options o;
    pitlink::test::CommandLine args(argc, argv);
    o.seconds = args.number("--seconds", o.seconds);
    o.stations = args.integer("--stations", o.stations);
    o.periodMs = args.integer("--period-ms", o.periodMs);
    o.hogs = args.integer("--hog", o.hogs);
    o.pollerPriority = args.integer("--poller-priority", o.pollerPriority);
    o.dir = args.text("--dir", o.dir.string());
    o.daemon = args.text("--daemon", o.daemon);
    args.rejectUnknown();
    return o;
}

struct Pty {
    int master = -1;
    int slave = -1;  // kept open so that the master never sees a hang-up
    std::string path;
};

Pty openPty() {
    Pty p;
    p.master = ::posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (p.master < 0 || ::grantpt(p.master) != 0 || ::unlockpt(p.master) != 0) {
        throw std::runtime_error("cannot open a pty");
    }
    p.path = ::ptsname(p.master);
    p.slave = ::open(p.path.c_str(), O_RDWR | O_NOCTTY);
    for (const int fd : {p.master, p.slave}) {
        termios t{};
        ::tcgetattr(fd, &t);
        ::cfmakeraw(&t);
        ::tcsetattr(fd, TCSANOW, &t);
    }
    return p;
}

// CRC-16/KERMIT is not needed: the polls used (general poll, LP 1A, a general poll to address 0)
// carry none. Escaped stream: FF 00 b is the wakeup byte.
std::vector<std::uint8_t> poll(int address, bool general) {
    if (general) {
        return {0xFF, 0x00, static_cast<std::uint8_t>(0x80 | address)};
    }
    return {0xFF, 0x00, static_cast<std::uint8_t>(address), 0x1A};
}

struct Samples {
    std::vector<double> micros;
    int unanswered = 0;
};

// N busy loops at normal priority, killed when this goes.
class Hogs {
public:
    explicit Hogs(int n) {
        for (int i = 0; i < n; ++i) {
            const pid_t pid = ::fork();
            if (pid == 0) {
                volatile std::uint64_t spin = 0;
                for (;;) {
                    spin = spin + 1;
                }
            }
            if (pid > 0) {
                pids_.push_back(pid);
            }
        }
    }
    Hogs(const Hogs&) = delete;
    Hogs& operator=(const Hogs&) = delete;
    ~Hogs() {
        for (const pid_t pid : pids_) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        }
    }

private:
    std::vector<pid_t> pids_;
};

// The calling thread at SCHED_FIFO `priority` while this lives (0: unchanged); says so if it
// cannot (no CAP_SYS_NICE and no RLIMIT_RTPRIO): the figures are then the starved poller's.
class RealTimeThread {
public:
    explicit RealTimeThread(int priority) {
        if (priority <= 0) {
            return;
        }
        ::pthread_getschedparam(::pthread_self(), &policy_, &saved_);
        const sched_param p{priority};
        raised_ = ::pthread_setschedparam(::pthread_self(), SCHED_FIFO, &p) == 0;
        if (!raised_) {
            std::fprintf(stderr, "bench_sas_latency: the poller cannot run at SCHED_FIFO %d (needs CAP_SYS_NICE)\n",
                         priority);
        }
    }
    RealTimeThread(const RealTimeThread&) = delete;
    RealTimeThread& operator=(const RealTimeThread&) = delete;
    ~RealTimeThread() {
        if (raised_) {
            ::pthread_setschedparam(::pthread_self(), policy_, &saved_);
        }
    }

private:
    int policy_ = SCHED_OTHER;
    sched_param saved_{};
    bool raised_ = false;
};

// Polls every link every `period`, staggered; latency = first answer byte - end of the write.
Samples pollLinks(const std::vector<int>& masters, const std::vector<int>& addresses, std::chrono::milliseconds period,
                  double seconds, int pollerPriority) {
    const RealTimeThread host(pollerPriority);
    Samples s;
    const std::size_t n = masters.size();
    std::vector<Clock::time_point> next(n), sentAt(n);
    std::vector<bool> waiting(n, false), general(n, true);
    const auto start = Clock::now();
    for (std::size_t i = 0; i < n; ++i) {
        next[i] = start + period * static_cast<long>(i) / static_cast<long>(n);
        const std::uint8_t sync[] = {0xFF, 0x00, 0x80};  // a poll to address 0 synchronises the link
        (void)::write(masters[i], sync, sizeof sync);
    }
    const auto end = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    std::vector<pollfd> fds(n);
    std::uint8_t buffer[256];
    while (Clock::now() < end) {
        auto now = Clock::now();
        for (std::size_t i = 0; i < n; ++i) {
            if (now >= next[i]) {
                if (waiting[i]) {
                    ++s.unanswered;
                }
                const auto bytes = poll(addresses[i], general[i]);
                general[i] = !general[i];
                (void)::write(masters[i], bytes.data(), bytes.size());
                sentAt[i] = Clock::now();
                waiting[i] = true;
                next[i] += period;
            }
        }
        const auto soonest = *std::min_element(next.begin(), next.end());
        const int timeoutMs = static_cast<int>(
            std::max<long>(0, std::chrono::duration_cast<std::chrono::milliseconds>(soonest - Clock::now()).count()));
        for (std::size_t i = 0; i < n; ++i) {
            fds[i] = pollfd{masters[i], POLLIN, 0};
        }
        if (::poll(fds.data(), fds.size(), timeoutMs) <= 0) {
            continue;
        }
        now = Clock::now();
        for (std::size_t i = 0; i < n; ++i) {
            if ((fds[i].revents & POLLIN) == 0) {
                continue;
            }
            while (::read(masters[i], buffer, sizeof buffer) > 0) {
            }
            if (waiting[i]) {
                waiting[i] = false;
                if (now - start > std::chrono::seconds(1)) {  // the first second: links synchronising
                    s.micros.push_back(std::chrono::duration<double, std::micro>(now - sentAt[i]).count());
                }
            }
        }
    }
    return s;
}

void report(const char* what, const Samples& s) {
    std::printf("%-34s %8zu answers  p50 %7.3f ms  p99 %7.3f ms  max %7.3f ms  unanswered %d\n", what, s.micros.size(),
                pitlink::test::percentile(s.micros, 0.50) / 1000, pitlink::test::percentile(s.micros, 0.99) / 1000,
                s.micros.empty() ? 0 : *std::max_element(s.micros.begin(), s.micros.end()) / 1000, s.unanswered);
}

// The baseline: an echo thread answering every poll on the slave side with one byte at once.
Samples baseline(const Options& o) {
    std::vector<Pty> ptys;
    for (int i = 0; i < o.stations; ++i) {
        ptys.push_back(openPty());
    }
    std::atomic<bool> stop{false};
    std::thread echo([&] {
        std::vector<pollfd> fds;
        for (const Pty& p : ptys) {
            fds.push_back(pollfd{p.slave, POLLIN, 0});
        }
        std::uint8_t buffer[64];
        while (!stop) {
            if (::poll(fds.data(), fds.size(), 50) <= 0) {
                continue;
            }
            for (const pollfd& f : fds) {
                if ((f.revents & POLLIN) != 0 && ::read(f.fd, buffer, sizeof buffer) > 0 && buffer[0] == 0xFF) {
                    const std::uint8_t answer = 0x00;
                    (void)::write(f.fd, &answer, 1);
                }
            }
        }
    });
    std::vector<int> masters, addresses;
    for (int i = 0; i < o.stations; ++i) {
        masters.push_back(ptys[static_cast<std::size_t>(i)].master);
        addresses.push_back(i + 1);
    }
    Samples s = pollLinks(masters, addresses, std::chrono::milliseconds(o.periodMs), std::min(o.seconds, 5.0),
                          o.pollerPriority);
    stop = true;
    echo.join();
    for (const Pty& p : ptys) {
        ::close(p.master);
        ::close(p.slave);
    }
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const Options o = parse(argc, argv);
        fs::remove_all(o.dir);
        fs::create_directories(o.dir);
        const Hogs hogs(o.hogs);  // for both measurements
        const Samples floor = baseline(o);

        std::vector<Pty> ptys;
        std::string links;
        for (int i = 1; i <= o.stations; ++i) {
            ptys.push_back(openPty());
            links += "    - {station: " + std::to_string(i) + ", address: " + std::to_string(i) +
                     ", port: " + ptys.back().path + ", transport: pty}\n";
        }
        const fs::path config = o.dir / "pitlink.yaml";
        std::ofstream(config) << "table:\n  source: rng\n  stations: " << o.stations
                              << "\n  paytable: " PITLINK_SOURCE_DIR "/etc/paytables/standard.yaml\n"
                              << "rounds:\n  bets_open_ms: 200\n  last_bets_ms: 50\n"
                              << "engine:\n  socket: engine.sock\ncontrol:\n  socket: control.sock\n"
                              << "journal:\n  path: journal.db\nlog:\n  level: warn\n"
                              << "sas:\n  stations:\n"
                              << links;
        const pid_t pid = pitlink::test::startDaemon(o.daemon, config, o.dir / "pitlinkd.log");
        // Every station bets in every round (a credit record, a bet, its settlement, 7E/7F).
        std::atomic<bool> stop{false};
        std::atomic<int> rounds{0};
        std::thread bettor([&] {
            try {
                pitlink::test::LineSocket engine(o.dir / "engine.sock");
                std::int64_t id = 1;
                std::string text;
                for (int s = 1; s <= o.stations; ++s) {
                    text += json{{"id", id++},
                                 {"op", "ticket_in"},
                                 {"station", s},
                                 {"validation", "1"},
                                 {"amount", 100'000'000}}
                                .dump() +
                            "\n";
                }
                engine.send(text);
                while (!stop) {
                    const json m = engine.read();
                    if (m.value("event", "") == "round" && m.value("phase", "") == "bets_open") {
                        std::string bets;
                        for (int s = 1; s <= o.stations; ++s) {
                            bets += json{{"id", id++},
                                         {"op", "bet"},
                                         {"station", s},
                                         {"spot", s % 2 ? "banker" : "player"},
                                         {"stake", 100}}
                                        .dump() +
                                    "\n";
                        }
                        engine.send(bets);
                    } else if (m.value("event", "") == "result") {
                        ++rounds;
                    }
                }
            } catch (const std::exception&) {
                // the daemon stopped: the run is over
            }
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        std::vector<int> masters, addresses;
        for (int i = 0; i < o.stations; ++i) {
            masters.push_back(ptys[static_cast<std::size_t>(i)].master);
            addresses.push_back(i + 1);
        }
        const Samples daemon =
            pollLinks(masters, addresses, std::chrono::milliseconds(o.periodMs), o.seconds, o.pollerPriority);
        const int dealt = rounds.load();
        ::kill(pid, SIGTERM);
        stop = true;
        ::waitpid(pid, nullptr, 0);
        bettor.join();
        std::printf(
            "%d links, each polled every %d ms for %.0f s; %d rounds dealt meanwhile (%.1f rounds/s); "
            "%d busy loops; poller at %s\n",
            o.stations, o.periodMs, o.seconds, dealt, dealt / o.seconds, o.hogs,
            o.pollerPriority > 0 ? ("SCHED_FIFO " + std::to_string(o.pollerPriority)).c_str() : "normal priority");
        report("baseline: echo thread on the ptys", floor);
        report("pitlinkd: last poll byte -> answer", daemon);
        return daemon.micros.empty() ? 1 : 0;
    } catch (const std::exception& e) {
        std::cerr << "bench_sas_latency: " << e.what() << "\n";
        return 1;
    }
}
