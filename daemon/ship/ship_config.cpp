#include "daemon/ship/ship_config.h"

#include <filesystem>

#include "daemon/config/yaml_map.h"
#include "daemon/ship/floor_client.h"

namespace pitlink::ship {

ShipConfig loadShipConfig(std::istream& in, const std::string& file) {
    const YAML::Node root = config::parseYaml(in, file);
    config::YamlMap top(root, "", file);
    ShipConfig c;
    c.journalPath = top.string("journal", c.journalPath);
    if (const auto dirs = top.node("archive_dirs")) {
        if (!dirs->IsSequence()) {
            throw top.error(*dirs, "archive_dirs", "expected a list of folders");
        }
        for (const auto& dir : *dirs) {
            if (!dir.IsScalar() || dir.Scalar().empty()) {
                throw top.error(dir, "archive_dirs", "expected a folder's path");
            }
            c.archiveDirs.push_back(dir.Scalar());
        }
    }
    c.table = top.requiredString("table");
    if (c.table.empty() || c.table.size() > 200) {
        throw top.error("table", "the table's name on the floor: 1 to 200 characters");
    }
    c.server = top.requiredString("server");
    if (c.server.find("://") != std::string::npos) {
        throw top.error("server", "a keyword/value connection string (host=... dbname=... user=...), not a URI");
    }
    c.passfile = top.string("passfile", "");
    c.statusPath = top.string("status", c.statusPath);
    c.poll = std::chrono::milliseconds(top.integer("poll_ms", c.poll.count(), 20, 60'000));
    c.batchRecords =
        static_cast<std::size_t>(top.integer("batch_records", static_cast<std::int64_t>(c.batchRecords), 1, 1'000'000));
    c.batchBytes = static_cast<std::size_t>(
        top.integer("batch_bytes", static_cast<std::int64_t>(c.batchBytes), 4'096, std::int64_t{1} << 30));
    c.retryMax = std::chrono::milliseconds(top.integer("retry_max_ms", c.retryMax.count(), 100, 600'000));
    c.verifyEvery = std::chrono::milliseconds(top.integer("verify_every_ms", c.verifyEvery.count(), 0, 86'400'000));
    top.rejectUnknownKeys();
    return c;
}

std::string connectionString(const ShipConfig& config, const char* credentialsDirectory) {
    std::string conninfo = config.server;
    std::string passfile = config.passfile;
    if (passfile.empty() && credentialsDirectory != nullptr) {
        const std::filesystem::path given = std::filesystem::path(credentialsDirectory) / "floor-pgpass";
        std::error_code error;
        if (std::filesystem::exists(given, error)) {
            passfile = given.string();
        }
    }
    if (!passfile.empty() && conninfo.find("passfile=") == std::string::npos) {
        // libpq's quoting: single quotes around, backslash before a quote or a backslash.
        std::string quoted = "'";
        for (const char c : passfile) {
            if (c == '\'' || c == '\\') {
                quoted += '\\';
            }
            quoted += c;
        }
        conninfo += " passfile=" + quoted + "'";
    }
    return FloorClient::withTimeouts(conninfo);
}

}  // namespace pitlink::ship
