#pragma once
// pitlink-ship's configuration (/etc/pitlink/pitlink-ship.yaml, README.md "Shipping to the
// floor"): which journal, which table it is on the floor, the server, and the pace. A file that
// cannot be used is a ConfigError naming the line and key; an unknown key is refused.
#include <chrono>
#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace pitlink::ship {

struct ShipConfig {
    std::string journalPath = "/var/lib/pitlink/journal.db";
    // Folders of segments archived away (`pitlinkctl journal archive --to`): read when the
    // server lacks records the journal no longer holds.
    std::vector<std::string> archiveDirs;
    std::string table;   // the table's name on the floor (floor.shippers): required
    std::string server;  // libpq connection string (host, port, dbname, user, sslmode...): required
    // A password file in libpq's pgpass format, readable by the service only (libpq refuses
    // one that group or others can read); empty: `$CREDENTIALS_DIRECTORY/floor-pgpass` when
    // systemd passed it (LoadCredential), else libpq's own defaults.
    std::string passfile;
    std::string statusPath = "/run/pitlink-ship/status.json";
    std::chrono::milliseconds poll{250};         // how often the journal is looked at for new records
    std::size_t batchRecords = 5'000;            // records per transaction on the server, at most
    std::size_t batchBytes = 4U << 20U;          // and their bytes, at most (one record always goes)
    std::chrono::milliseconds retryMax{30'000};  // the longest wait between two connection attempts
    // While caught up, every so often the next 10,000 records the server holds are compared with
    // the journal's (a record edited or removed on the server is a tamper alarm); then again from
    // the start. 0: never.
    std::chrono::milliseconds verifyEvery{10'000};
};

// Throws config::ConfigError.
[[nodiscard]] ShipConfig loadShipConfig(std::istream& in, const std::string& file);

// The connection string libpq gets: the configured one with the pass file and the time-outs.
[[nodiscard]] std::string connectionString(const ShipConfig& config, const char* credentialsDirectory);

}  // namespace pitlink::ship
