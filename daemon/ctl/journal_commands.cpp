#include "daemon/ctl/journal_commands.h"

#include <memory>

#include "daemon/ctl/arguments.h"
#include "daemon/journal/audit.h"
#include "daemon/journal/chain_hasher.h"
#include "daemon/journal/journal_export.h"
#include "daemon/journal/meters.h"
#include "daemon/journal/recall.h"

namespace pitlink::ctl {

namespace {

using nlohmann::json;

std::unique_ptr<journal::JournalStore> openJournal(const Arguments& a) {
    const auto path = a.value("--journal");
    if (!path) {
        throw UsageError("--journal FILE is required");
    }
    journal::StoreOptions options;
    options.readOnly = true;
    if (const auto key = a.value("--key")) {
        options.key = journal::loadChainKey(*key);
    }
    return std::make_unique<journal::JournalStore>(*path, std::move(options));
}

int verify(const Arguments& a, std::ostream& out) {
    auto store = openJournal(a);
    const journal::AuditReport report = journal::auditJournal(*store);
    if (a.flag("--json")) {
        out << journal::auditReportJson(report).dump(2) << "\n";
        return report.ok() ? 0 : 1;
    }
    out << "records checked:    " << report.chain.checked << "\n"
        << "hash chain:         " << (report.chain.ok ? "intact" : "BROKEN at record " +
                                                                     std::to_string(report.chain.firstBadSeq.value_or(0)) +
                                                                     ": " + report.chain.problem)
        << "\n"
        << "meter snapshots:    " << report.snapshotsCompared << " compared with the meters recomputed from the records\n"
        << "rounds checked:     " << report.roundsChecked << "\n";
    for (const std::string& problem : report.roundProblems) {
        out << "round problem:      " << problem << "\n";
    }
    const journal::MeterSet totals = report.ledger.tableTotals();
    out << "table meters (recomputed):\n";
    for (int m = 0; m < journal::kMeterCount; ++m) {
        const auto meter = static_cast<journal::Meter>(m);
        out << "  " << journal::meterName(meter) << ": " << journal::reportedMeter(totals[meter]) << "\n";
    }
    out << "credits held:       " << report.ledger.totalCredits() << "\n"
        << (report.ok() ? "audit: OK\n" : "audit: PROBLEMS FOUND\n");
    return report.ok() ? 0 : 1;
}

int exportRecords(const Arguments& a, std::ostream& out) {
    auto store = openJournal(a);
    journal::ExportRange range;
    if (const auto rounds = a.value("--rounds")) {
        const auto dash = rounds->find('-');
        try {
            range.fromRound = std::stoll(rounds->substr(0, dash));
            range.toRound = dash == std::string::npos ? *range.fromRound : std::stoll(rounds->substr(dash + 1));
        } catch (const std::logic_error&) {
            throw UsageError("--rounds expects A-B, e.g. 120-180");
        }
    }
    if (a.value("--from-ms")) {
        range.fromMs = a.integer("--from-ms", 0, 0, INT64_MAX);
    }
    if (a.value("--to-ms")) {
        range.toMs = a.integer("--to-ms", 0, 0, INT64_MAX);
    }
    const std::string format = a.value("--format").value_or("jsonl");
    if (format != "jsonl" && format != "csv") {
        throw UsageError("--format is jsonl or csv");
    }
    journal::exportJournal(*store, range, format == "csv" ? journal::ExportFormat::Csv : journal::ExportFormat::JsonLines,
                           out);
    return 0;
}

void printRound(std::ostream& out, const journal::RecalledRound& recalled) {
    const json r = journal::recalledRoundJson(recalled);
    out << "round " << r["round"] << " (shoe " << r["shoe"] << " round " << r["round_in_shoe"] << ") "
        << journal::formatUtc(r["opened_at_ms"].get<std::int64_t>()) << ": " << r["state"].get<std::string>();
    if (r.contains("outcome")) {
        out << ", Player " << r["player"].dump() << " (" << r["outcome"]["player_total"] << ") Banker "
            << r["banker"].dump() << " (" << r["outcome"]["banker_total"] << ") -> "
            << r["outcome"]["winner"].get<std::string>();
    }
    if (r.contains("void_reason")) {
        out << " (" << r["void_reason"].get<std::string>() << ")";
    }
    if (r["resettlements"].get<int>() > 0) {
        out << ", re-settled " << r["resettlements"] << "x";
    }
    out << "\n  paytable " << r["paytable"].get<std::string>() << " " << r["paytable_sha256"].get<std::string>().substr(0, 16)
        << "\n";
    for (const json& bet : r["bets"]) {
        out << "  station " << bet["station"] << " " << bet["spot"].get<std::string>() << " " << bet["stake"];
        if (bet.contains("result")) {
            out << ": " << bet["result"].get<std::string>() << ", returned " << bet["returned"];
        }
        out << "\n";
    }
    for (const auto& [station, credits] : r["credits"].items()) {
        out << "  station " << station << " credits " << credits["before"] << " -> " << credits["after"] << "\n";
    }
}

}  // namespace

int runAudit(const std::vector<std::string>& args, std::ostream& out) {
    if (args.empty() || (args[0] != "verify" && args[0] != "export")) {
        throw UsageError("audit needs 'verify' or 'export'");
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "verify") {
        return verify(Arguments(rest, {"--journal", "--key"}, {"--json"}), out);
    }
    return exportRecords(Arguments(rest, {"--journal", "--key", "--rounds", "--from-ms", "--to-ms", "--format"}, {}), out);
}

int runRecall(const std::vector<std::string>& args, std::ostream& out) {
    const Arguments a(args, {"--journal", "--key", "--station", "--last", "--round"}, {"--json"});
    auto store = openJournal(a);
    std::vector<journal::RecalledRound> rounds;
    if (a.value("--round")) {
        rounds.push_back(journal::recallRound(*store, a.integer("--round", 0, 1, INT64_MAX)));
    } else {
        std::optional<std::int64_t> station;
        if (a.value("--station")) {
            station = a.integer("--station", 0, 0, 1'000'000);
        }
        rounds = journal::recallRounds(*store, static_cast<int>(a.integer("--last", 10, 1, 100'000)), station);
    }
    if (a.flag("--json")) {
        json all = json::array();
        for (const auto& round : rounds) {
            all.push_back(journal::recalledRoundJson(round));
        }
        out << all.dump(2) << "\n";
        return 0;
    }
    for (const auto& round : rounds) {
        printRound(out, round);
    }
    return 0;
}

}  // namespace pitlink::ctl
