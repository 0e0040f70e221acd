// pitlink-ship: the table's journal shipped to the floor's PostgreSQL (README.md "Shipping to the
// floor"). Beside pitlinkd on the controller, its own process and unit; it only reads the
// journal, so pitlinkd runs on unchanged when it is stopped, slow or cut off.
//
//   pitlink-ship --config /etc/pitlink/pitlink-ship.yaml          ship, for ever (the service)
//   pitlink-ship --config FILE --once                             ship until caught up, then exit
//   pitlink-ship --migrate --server "host=... dbname=... user=..."  apply schema/floor as its owner
//
// Exit codes: 0 done (--once: caught up; --migrate: applied), 1 --once not caught up (offline,
// refused, tamper alarm, chain break: the status says which), 2 bad usage, 78 bad configuration.
#include <spdlog/spdlog.h>
#include <systemd/sd-daemon.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include "daemon/config/config_error.h"
#include "daemon/ship/floor_client.h"
#include "daemon/ship/ship_config.h"
#include "daemon/ship/shipper.h"

namespace {

using pitlink::ship::FloorClient;
using pitlink::ship::FloorError;
using pitlink::ship::ShipConfig;
using pitlink::ship::Shipper;

std::atomic<bool> stopRequested{false};

void onSignal(int /*signal*/) {
    stopRequested = true;
    FloorClient::cutFromSignal();  // a call blocked in libpq ends now, not when the server answers
}

int usage() {
    std::cerr << "usage: pitlink-ship --config FILE [--once]\n"
                 "       pitlink-ship --migrate --server CONNECTION-STRING\n";
    return 2;
}

std::int64_t nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// The status file, replaced whole (a reader never sees half of it), readable by anyone
// (pitlinkctl status, run by the floor's staff).
void writeStatus(const std::string& path, const std::string& text) {
    const std::string temporary = path + ".tmp";
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << text << '\n';
        if (!out) {
            return;  // no status directory (run by hand): the log says it all
        }
    }
    std::error_code error;
    std::filesystem::permissions(temporary,
                                 std::filesystem::perms::owner_read | std::filesystem::perms::owner_write |
                                     std::filesystem::perms::group_read | std::filesystem::perms::others_read,
                                 error);
    std::filesystem::rename(temporary, path, error);
}

int migrate(const std::string& server) {
    try {
        FloorClient client(FloorClient::withTimeouts(server));
        const int before = client.schemaVersion();
        const int applied = client.migrate(pitlink::ship::floorMigrations());
        std::cout << "floor schema: version " << before << " -> " << client.schemaVersion() << " (" << applied
                  << " applied)\n";
        return 0;
    } catch (const FloorError& e) {
        std::cerr << "pitlink-ship --migrate: " << e.what() << "\n";
        return 1;
    }
}

int run(int argc, char** argv) {
    std::string configPath;
    std::string server;
    bool once = false;
    bool migrateOnly = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--config" && i + 1 < argc) {
            configPath = argv[++i];
        } else if (arg == "--server" && i + 1 < argc) {
            server = argv[++i];
        } else if (arg == "--once") {
            once = true;
        } else if (arg == "--migrate") {
            migrateOnly = true;
        } else {
            return usage();
        }
    }
    if (migrateOnly) {
        return server.empty() ? usage() : migrate(server);
    }
    if (configPath.empty()) {
        return usage();
    }
    ShipConfig config;
    try {
        std::ifstream in(configPath);
        if (!in) {
            std::cerr << "pitlink-ship: cannot read " << configPath << "\n";
            return 78;
        }
        config = pitlink::ship::loadShipConfig(in, configPath);
    } catch (const pitlink::config::ConfigError& e) {
        std::cerr << "pitlink-ship: " << e.what() << "\n";
        return 78;  // EX_CONFIG: systemd does not restart into the same bad file in a loop
    }
    std::signal(SIGTERM, onSignal);
    std::signal(SIGINT, onSignal);
    std::signal(SIGPIPE, SIG_IGN);

    const std::string conninfo = pitlink::ship::connectionString(config, std::getenv("CREDENTIALS_DIRECTORY"));
    Shipper shipper(
        config, [&conninfo] { return std::make_unique<FloorClient>(conninfo); }, nowMs);
    spdlog::info("pitlink-ship: journal {}, table {}", config.journalPath, config.table);
    ::sd_notify(0, "READY=1");
    std::string lastState;
    std::string lastError;
    std::int64_t lastWrittenMs = 0;
    while (!stopRequested) {
        const std::chrono::milliseconds wait = shipper.step();
        const nlohmann::json status = shipper.status();
        const std::string state = status["state"];
        const std::string error = status["error"];
        const bool changed = state != lastState || error != lastError;
        if (changed) {
            if (error.empty()) {
                spdlog::info("pitlink-ship: {} (server at record {}, journal at {})", state,
                             status["server_seq"].get<std::int64_t>(), status["journal_seq"].get<std::int64_t>());
            } else {
                spdlog::error("pitlink-ship: {}: {}", state, error);
            }
            lastState = state;
            lastError = error;
        }
        if (changed || nowMs() - lastWrittenMs >= 1'000 || wait.count() > 0) {
            writeStatus(config.statusPath, status.dump());
            lastWrittenMs = nowMs();
        }
        ::sd_notifyf(0, "WATCHDOG=1\nSTATUS=%s, %lld records behind", state.c_str(),
                     static_cast<long long>(status["lag_records"].get<std::int64_t>()));
        if (once && (state == "caught_up" || shipper.stopped() || state == "refused" || state == "offline" ||
                     state == "journal_unreadable")) {
            writeStatus(config.statusPath, status.dump());
            return state == "caught_up" ? 0 : 1;
        }
        // Sleep in short steps: SIGTERM is seen within 50 ms.
        const auto until = std::chrono::steady_clock::now() + wait;
        while (!stopRequested && std::chrono::steady_clock::now() < until) {
            std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
                std::chrono::milliseconds(50), until - std::chrono::steady_clock::now()));
        }
    }
    ::sd_notify(0, "STOPPING=1");
    spdlog::info("pitlink-ship: stopped");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "pitlink-ship: " << e.what() << "\n";  // the status file says the last state
        return 1;
    }
}
