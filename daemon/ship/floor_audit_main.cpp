// pitlink-floor-audit: an inspector's whole audit of a table's journal where the floor keeps it
// (issue 37; README.md "Shipping to the floor"): every record read from the floor's PostgreSQL
// in one snapshot and checked here, not by the server: each link recomputed (SHA-256, or HMAC
// with the journal's key from --key, never sent to the server), each segment's seal, the meters
// replayed against every snapshot, every round settled or voided once with its bets covered.
// Its own binary beside pitlink-ship, so that pitlinkctl stays without libpq.
//
//   pitlink-floor-audit --server "host=... dbname=floor user=inspector" --table NAME
//                       [--journal ID] [--key FILE] [--json]
//
// Exit codes: 0 every journal sound, 1 a problem found (or none shipped), 2 usage, 3 the server
// or the key could not be used.
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "daemon/journal/read/audit.h"
#include "daemon/journal/store/chain_hasher.h"
#include "daemon/journal/store/journal_error.h"
#include "daemon/ship/floor_client.h"

namespace {

using pitlink::ship::FloorClient;
using pitlink::ship::FloorError;

int usage() {
    std::cerr << "usage: pitlink-floor-audit --server CONNECTION-STRING --table NAME [--journal ID] [--key FILE] "
                 "[--json]\n";
    return 2;
}

int run(int argc, char** argv) {
    std::string server;
    std::string table;
    std::optional<std::int64_t> only;
    std::optional<std::string> keyFile;
    bool asJson = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool value = i + 1 < argc;
        if (arg == "--server" && value) {
            server = argv[++i];
        } else if (arg == "--table" && value) {
            table = argv[++i];
        } else if (arg == "--journal" && value) {
            only = std::stoll(argv[++i]);
        } else if (arg == "--key" && value) {
            keyFile = argv[++i];
        } else if (arg == "--json") {
            asJson = true;
        } else {
            return usage();
        }
    }
    if (server.empty() || table.empty()) {
        return usage();
    }
    std::optional<std::vector<std::uint8_t>> key;
    std::string fingerprint;
    try {
        if (keyFile) {
            key = pitlink::journal::loadChainKey(*keyFile);
            const std::string bytes(key->begin(), key->end());
            fingerprint = pitlink::journal::toHex(pitlink::journal::sha256(bytes));
        }
    } catch (const pitlink::journal::JournalError& e) {
        std::cerr << "pitlink-floor-audit: " << e.what() << "\n";
        return 3;
    }
    try {
        FloorClient floor(FloorClient::withTimeouts(server));
        bool allSound = true;
        int audited = 0;
        nlohmann::json reports = nlohmann::json::array();
        for (const FloorClient::Journal& j : floor.journals(table)) {
            if (only && *only != j.journalId) {
                continue;
            }
            ++audited;
            if (j.chain == "hmac-sha256" && (!key || fingerprint != j.keyFingerprint)) {
                std::cerr << "pitlink-floor-audit: table " << table << " journal " << j.journalId
                          << " is signed (HMAC): --key must name its key file (fingerprint "
                          << j.keyFingerprint.substr(0, 16) << "...)\n";
                return 3;
            }
            pitlink::journal::StreamAudit audit(j.chain == "hmac-sha256" ? key : std::nullopt);
            floor.forEachRecord(table, j.journalId,
                                [&](const pitlink::journal::JournalRecord& r) { return audit.visit(r); });
            const pitlink::journal::AuditReport report = audit.finish();
            // The records must reach the journal's head: a record cut off the end is found too.
            const bool whole = !report.chain.ok || report.chain.checked == j.lastSeq;
            const bool sound = report.ok() && whole;
            allSound = allSound && sound;
            nlohmann::json out = pitlink::journal::auditReportJson(report);
            out["table"] = table;
            out["journal_id"] = j.journalId;
            out["head_seq"] = j.lastSeq;
            out["ok"] = sound;
            if (!whole) {
                out["problem"] = "the records end at " + std::to_string(report.chain.checked) +
                                 ", the journal's head is " + std::to_string(j.lastSeq);
            }
            if (asJson) {
                reports.push_back(out);
                continue;
            }
            std::cout << "table " << table << ", journal " << j.journalId << " (" << j.chain << ")\n"
                      << "  records checked: " << report.chain.checked << " of " << j.lastSeq << "\n"
                      << "  hash chain: "
                      << (report.chain.ok ? "ok"
                                          : "BROKEN at record " + std::to_string(report.chain.firstBadSeq.value_or(0)) +
                                                ": " + report.chain.problem)
                      << "\n"
                      << "  meter snapshots compared: " << report.snapshotsCompared << "\n"
                      << "  rounds checked: " << report.roundsChecked << "\n";
            for (const std::string& p : report.roundProblems) {
                std::cout << "  round problem: " << p << "\n";
            }
            if (!whole) {
                std::cout << "  " << out["problem"].get<std::string>() << "\n";
            }
            std::cout << "  audit: " << (sound ? "OK" : "FAILED") << "\n";
        }
        if (asJson) {
            std::cout << reports.dump(2) << "\n";
        }
        if (audited == 0) {
            std::cerr << "pitlink-floor-audit: the server holds no journal of table " << table << "\n";
            return 1;
        }
        return allSound ? 0 : 1;
    } catch (const FloorError& e) {
        std::cerr << "pitlink-floor-audit: " << e.what() << "\n";
        return 3;
    }
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "pitlink-floor-audit: " << e.what() << "\n";
        return 2;
    }
}
