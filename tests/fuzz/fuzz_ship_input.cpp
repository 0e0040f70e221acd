// libFuzzer target: what pitlink-ship reads. The first byte chooses:
// - even: pitlink-ship.yaml. Either a configuration with its invariants (a table name, a server
//   string that is no URI, batches and pace in range) or a ConfigError with a message.
// - odd: a record to follow (its kind and body from the input, so segment.sealed bodies of any
//   shape), after a head: the follower answers without throwing, and moves its head exactly when
//   it takes the record; the record's COPY row has one line, nine fields, no raw tab or newline
//   inside a field.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "daemon/config/config_error.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/ship/chain_follower.h"
#include "daemon/ship/copy_rows.h"
#include "daemon/ship/ship_config.h"

using namespace pitlink;

namespace {

void shipConfig(const std::string& text) {
    std::istringstream in(text);
    try {
        const ship::ShipConfig c = ship::loadShipConfig(in, "/etc/pitlink/pitlink-ship.yaml");
        if (c.table.empty() || c.server.find("://") != std::string::npos || c.batchRecords < 1 ||
            c.batchBytes < 4'096 || c.poll.count() < 20) {
            std::abort();
        }
    } catch (const config::ConfigError& e) {
        if (std::string(e.what()).empty()) {
            std::abort();
        }
    }
}

void followRecord(const std::uint8_t* data, std::size_t size) {
    journal::JournalRecord r;
    r.seq = 3;
    r.atMs = 1'795'000'000'000;
    r.kind = size > 0 && (data[0] & 2U) != 0 ? std::string(journal::kind::kSegmentSealed) : "credit";
    r.station = size > 1 && (data[1] & 1U) != 0 ? std::optional<std::int64_t>(data[1]) : std::nullopt;
    r.body.assign(reinterpret_cast<const char*>(data), size);
    journal::Digest head{};
    head[0] = 0xAB;
    ship::ChainFollower follower(size > 0 && (data[0] & 4U) != 0 ? "hmac-sha256" : "sha256", 2, head);
    const auto problem = follower.follow(r);
    if (problem.has_value() != (follower.lastSeq() == 2)) {
        std::abort();
    }
    std::string row;
    ship::appendCopyRow(row, "table\t1", 1, r);
    std::size_t tabs = 0;
    for (std::size_t i = 0; i < row.size(); ++i) {
        if (row[i] == '\n' && i + 1 != row.size()) {
            std::abort();
        }
        if (row[i] == '\r') {
            std::abort();
        }
        tabs += row[i] == '\t' ? 1 : 0;
    }
    if (tabs != 8 || row.back() != '\n') {
        std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    if ((data[0] & 1U) == 0) {
        shipConfig(std::string(reinterpret_cast<const char*>(data + 1), size - 1));
    } else {
        followRecord(data + 1, size - 1);
    }
    return 0;
}
