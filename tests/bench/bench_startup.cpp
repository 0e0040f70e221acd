// Issue 19: how long the real pitlinkd takes, from its start to READY=1 (before it the engine and
// SAS links are closed and the host marks every station offline), on a journal of a year or more,
// after a power cut (the journal's pages dropped from the page cache) and after a restart (cached).
// Baseline from the same run: a sequential read of every file of the journal, cold.
//
//   bench_startup --make PATH ROUNDS [--segment-mb N]   a journal as a table makes it (year_journal.h)
//   bench_startup --journal PATH [--runs N]             the measurement (the journal gains a few
//                                                       records per start, nothing else)
//                 [--games G]                           G live games (issue 34): the journal's
//                                                       rounds are the first's
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "tests/bench/daemon_process.h"
#include "tests/bench/year_journal.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Every file of the journal: the link's target or the single file, the sealed segments, WALs.
std::vector<fs::path> journalFiles(const fs::path& journal) {
    std::vector<fs::path> files;
    const fs::path segments = journal.string() + ".segments";
    if (fs::is_directory(segments)) {
        for (const auto& entry : fs::directory_iterator(segments)) {
            files.push_back(entry.path());
        }
    }
    if (fs::is_regular_file(fs::symlink_status(journal))) {
        files.push_back(journal);
    }
    for (const char* suffix : {"-wal", "-shm"}) {
        if (fs::exists(journal.string() + suffix)) {
            files.push_back(journal.string() + suffix);
        }
    }
    return files;
}

std::int64_t totalBytes(const std::vector<fs::path>& files) {
    std::int64_t bytes = 0;
    for (const auto& f : files) {
        bytes += static_cast<std::int64_t>(fs::file_size(f));
    }
    return bytes;
}

// As after a power cut: none of the journal's pages in the page cache (written back first, then
// dropped: POSIX_FADV_DONTNEED drops clean pages only).
void dropFromCache(const std::vector<fs::path>& files) {
    ::sync();
    for (const auto& f : files) {
        const int fd = ::open(f.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            ::fdatasync(fd);
            ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
            ::close(fd);
        }
    }
}

double sequentialReadSeconds(const std::vector<fs::path>& files) {
    std::vector<char> buffer(1 << 20);
    const auto start = Clock::now();
    for (const auto& f : files) {
        const int fd = ::open(f.c_str(), O_RDONLY | O_CLOEXEC);
        while (::read(fd, buffer.data(), buffer.size()) > 0) {
        }
        ::close(fd);
    }
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Starts pitlinkd with NOTIFY_SOCKET pointing here and returns the seconds to its READY=1.
double secondsToReady(const fs::path& dir, const fs::path& config, std::string& status) {
    const fs::path notify = dir / "notify";
    fs::remove(notify);
    const int sock = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, notify.c_str(), sizeof addr.sun_path - 1);
    if (::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        throw std::runtime_error("cannot bind the notify socket");
    }
    ::setenv("NOTIFY_SOCKET", notify.c_str(), 1);
    const auto start = Clock::now();
    const pid_t pid = pitlink::test::startDaemon(PITLINK_DAEMON_PATH, config, dir / "pitlinkd.log");
    ::unsetenv("NOTIFY_SOCKET");
    double seconds = -1;
    timeval timeout{600, 0};
    ::setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    char message[4096];
    while (true) {
        const ssize_t n = ::recv(sock, message, sizeof message - 1, 0);
        if (n <= 0) {
            break;
        }
        message[n] = '\0';
        const std::string text(message);
        if (text.find("READY=1") != std::string::npos) {
            seconds = std::chrono::duration<double>(Clock::now() - start).count();
            const auto at = text.find("STATUS=");
            status = at == std::string::npos ? "" : text.substr(at + 7, text.find('\n', at) - at - 7);
            break;
        }
    }
    ::close(sock);
    ::kill(pid, SIGTERM);
    int wstatus = 0;
    ::waitpid(pid, &wstatus, 0);
    return seconds;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        std::vector<std::string> args(argv + 1, argv + argc);
        std::int64_t segmentMb = 0;
        int runs = 3;
        int games = 1;
        std::string journal;
        for (std::size_t i = 0; i + 1 < args.size(); ++i) {
            if (args[i] == "--segment-mb") {
                segmentMb = std::stoll(args[i + 1]);
            } else if (args[i] == "--runs") {
                runs = std::stoi(args[i + 1]);
            } else if (args[i] == "--journal") {
                journal = args[i + 1];
            } else if (args[i] == "--games") {
                games = std::stoi(args[i + 1]);
            }
        }
        if (args.size() >= 3 && args[0] == "--make") {
            const auto start = Clock::now();
            const auto stats = pitlink::bench::makeYearJournal(args[1], std::stoll(args[2]), segmentMb * 1'000'000);
            std::cout << "made " << args[1] << ": " << stats.rounds << " rounds, " << stats.records << " records, "
                      << stats.segments << " segments, " << stats.ticketsOut << " tickets out, " << stats.ticketsIn
                      << " tickets in, " << totalBytes(journalFiles(args[1])) / 1'000'000 << " MB; rotations "
                      << stats.rotationMeanMs << " ms on average, " << stats.rotationMaxMs << " ms at most; in "
                      << std::chrono::duration<double>(Clock::now() - start).count() << " s\n";
            return 0;
        }
        if (journal.empty()) {
            std::cerr << "usage: bench_startup --make PATH ROUNDS [--segment-mb N] | --journal PATH [--runs N]\n";
            return 2;
        }
        const fs::path path = fs::absolute(journal);
        const fs::path dir = fs::absolute("bench-startup");
        fs::create_directories(dir);
        const fs::path config = dir / "pitlink.yaml";
        std::string gameList;
        for (int g = 1; g <= games && games > 1; ++g) {
            gameList += (g == 1 ? "games:\n" : "") + std::string("  - name: live-") + std::to_string(g) + "\n";
        }
        std::ofstream(config) << "table:\n  source: reader\n  stations: 8\n  paytable: " << PITLINK_SOURCE_DIR
                              << "/etc/paytables/standard.yaml\n"
                              << gameList << "engine:\n  socket: \"\"\ncontrol:\n  socket: \"\"\n"
                              << "journal:\n  path: " << path.string() << "\nlog:\n  level: warn\n";

        const auto files = journalFiles(path);
        const std::int64_t bytes = totalBytes(files);
        std::cout << "journal " << path.string() << ": " << files.size() << " files, " << bytes / 1'000'000 << " MB"
                  << std::endl;
        for (int run = 1; run <= runs; ++run) {
            dropFromCache(journalFiles(path));
            const double read = sequentialReadSeconds(journalFiles(path));
            dropFromCache(journalFiles(path));
            std::string status;
            const double cold = secondsToReady(dir, config, status);
            std::string warmStatus;
            const double warm = secondsToReady(dir, config, warmStatus);
            std::cout << "run " << run << ": READY=1 after a power cut " << cold << " s, after a restart " << warm
                      << " s; sequential read of the journal (cold) " << read << " s ("
                      << static_cast<double>(bytes) / 1e6 / read << " MB/s); status: " << status << std::endl;
            if (cold < 0 || warm < 0 || status.rfind("TILT", 0) == 0) {
                std::cout << "FAIL pitlinkd did not become ready (see " << (dir / "pitlinkd.log").string() << ")\n";
                return 1;
            }
        }
        return 0;
    } catch (const std::exception& error) {
        std::cerr << "bench_startup: " << error.what() << "\n";
        return 1;
    }
}
