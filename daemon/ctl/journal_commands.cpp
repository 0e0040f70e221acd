#include "daemon/ctl/journal_commands.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <thread>

#include "daemon/ctl/arguments.h"
#include "daemon/ctl/control_commands.h"
#include "daemon/journal/ledger/meters.h"
#include "daemon/journal/read/audit.h"
#include "daemon/journal/read/journal_export.h"
#include "daemon/journal/read/recall.h"
#include "daemon/journal/read/tip_report.h"
#include "daemon/journal/segments/segment_archive.h"
#include "daemon/journal/segments/segmented_journal.h"
#include "daemon/journal/store/chain_hasher.h"

namespace pitlink::ctl {

namespace {

using nlohmann::json;

// The journal with all its segments (journal.db, or the link to its active segment).
std::unique_ptr<journal::SegmentedJournal> openJournal(const Arguments& a) {
    const auto path = a.value("--journal");
    if (!path) {
        throw UsageError("--journal FILE is required");
    }
    journal::StoreOptions options;
    options.readOnly = true;
    if (const auto key = a.value("--key")) {
        options.key = journal::loadChainKey(*key);
    }
    return std::make_unique<journal::SegmentedJournal>(*path, options);
}

// The audit report as auditReportJson gives it (from the file, or from the daemon).
int printAudit(const json& report, std::ostream& out) {
    out << "records checked:    " << report["records_checked"] << "\n"
        << "hash chain:         "
        << (report["chain_ok"].get<bool>()
                ? std::string("intact")
                : "BROKEN at record " + report["first_bad_record"].dump() + ": " + report["problem"].get<std::string>())
        << "\n"
        << "meter snapshots:    " << report["snapshots_compared"]
        << " compared with the meters recomputed from the records\n"
        << "rounds checked:     " << report["rounds_checked"] << "\n";
    if (report.contains("rounds_checked_by_game")) {
        for (const auto& [game, rounds] : report["rounds_checked_by_game"].items()) {
            out << "  of game " << game << ": " << rounds << "\n";
        }
    }
    for (const auto& problem : report["round_problems"]) {
        out << "round problem:      " << problem.get<std::string>() << "\n";
    }
    const journal::Ledger ledger = journal::Ledger::fromJson(report["meters"]);
    const journal::MeterSet totals = ledger.tableTotals();
    out << "table meters (recomputed):\n";
    for (int m = 0; m < journal::kMeterCount; ++m) {
        const auto meter = static_cast<journal::Meter>(m);
        out << "  " << journal::meterName(meter) << ": " << journal::reportedMeter(totals[meter]) << "\n";
    }
    const bool ok = report["ok"].get<bool>();
    out << "credits held:       " << ledger.totalCredits() << "\n" << (ok ? "audit: OK\n" : "audit: PROBLEMS FOUND\n");
    return ok ? 0 : 1;
}

int verify(const Arguments& a, std::ostream& out) {
    const auto show = [&](const json& report) {
        if (a.flag("--json")) {
            out << report.dump(2) << "\n";
            return report["ok"].get<bool>() ? 0 : 1;
        }
        return printAudit(report, out);
    };
    if (!a.value("--journal")) {
        control::ControlRequest request;
        request.command = control::Command::Audit;
        return askAndShow(a.value("--socket").value_or(kDefaultControlSocket), request, show);
    }
    // The sealed segments are read beside each other, one per CPU (the audit's outcome is the same).
    const auto jobs =
        static_cast<unsigned>(a.integer("--jobs", std::max(1U, std::thread::hardware_concurrency()), 1, 64));
    auto store = openJournal(a);
    return show(journal::auditReportJson(journal::auditJournal(*store, jobs)));
}

// The game `--game` named, as the journal file's readers select it (its first game, as the newest
// daemon.started says, also takes the records naming none).
std::optional<journal::GameOfRounds> gameChosenIn(journal::SegmentedJournal& journal) {
    if (!chosenGame()) {
        return std::nullopt;
    }
    return journal::GameOfRounds{*chosenGame(), journal::firstGameOf(journal) == chosenGame()};
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
    range.game = gameChosenIn(*store);
    const std::string format = a.value("--format").value_or("jsonl");
    if (format != "jsonl" && format != "csv") {
        throw UsageError("--format is jsonl or csv");
    }
    journal::exportJournal(*store, range,
                           format == "csv" ? journal::ExportFormat::Csv : journal::ExportFormat::JsonLines, out);
    return 0;
}

// One round as recalledRoundJson gives it.
void printRound(std::ostream& out, const json& r) {
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
    out << "\n  paytable " << r["paytable"].get<std::string>() << " "
        << r["paytable_sha256"].get<std::string>().substr(0, 16) << ", settled per " << r.value("settle", "bet")
        << "\n";
    for (const json& bet : r["bets"]) {
        out << "  station " << bet["station"] << " " << bet["spot"].get<std::string>() << " " << bet["stake"];
        if (bet["additions"].size() > 1) {
            // How the spot's stake was built: "(1,000 bet + 20 raise)".
            const char* plus = " (";
            for (const json& addition : bet["additions"]) {
                out << plus << addition["stake"] << " " << addition.value("action", "bet");
                plus = " + ";
            }
            out << ")";
        }
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
        return verify(Arguments(rest, {"--journal", "--key", "--socket", "--jobs"}, {"--json"}), out);
    }
    return exportRecords(Arguments(rest, {"--journal", "--key", "--rounds", "--from-ms", "--to-ms", "--format"}, {}),
                         out);
}

namespace {

constexpr const char* kShipStatus = "/run/pitlink-ship/status.json";
constexpr const char* kShipConfig = "/etc/pitlink/pitlink-ship.yaml";

// The last record the floor's server holds of this journal, from pitlink-ship's status: a
// segment after it is not archived (removed) until the server has it. nullopt: no shipping on
// this controller (no status and no pitlink-ship configuration). Throws UsageError when
// shipping is configured but its status is unknown or another journal's.
std::optional<std::int64_t> shippedThrough(const std::string& journalPath, const journal::StoreOptions& options,
                                           const std::string& statusPath, bool unshipped) {
    if (unshipped) {
        return std::nullopt;
    }
    std::ifstream in(statusPath);
    if (!in) {
        if (std::filesystem::exists(kShipConfig)) {
            throw UsageError(std::string("pitlink-ship is configured (") + kShipConfig + ") but its status " +
                             statusPath + " cannot be read: is it running? (--unshipped archives anyway)");
        }
        return std::nullopt;
    }
    const json status = json::parse(in, nullptr, false);
    if (!status.is_object() || !status.contains("server_seq") || !status["server_seq"].is_number_integer() ||
        !status.contains("journal_id") || !status["journal_id"].is_number_integer()) {
        throw UsageError(statusPath + " is not pitlink-ship's status");
    }
    const std::int64_t created = journal::SegmentedJournal(journalPath, options).active().createdAtMs();
    if (status["journal_id"].get<std::int64_t>() != created) {
        throw UsageError(statusPath + " is another journal's (" +
                         std::to_string(status["journal_id"].get<std::int64_t>()) + ", this one " +
                         std::to_string(created) + ")");
    }
    return status["server_seq"].get<std::int64_t>();
}

}  // namespace

int runJournal(const std::vector<std::string>& args, std::ostream& out) {
    if (args.empty() || args[0] != "archive") {
        throw UsageError("journal needs 'archive'");
    }
    const Arguments a(std::vector<std::string>(args.begin() + 1, args.end()),
                      {"--journal", "--key", "--to", "--older-than-days", "--ship-status"}, {"--json", "--unshipped"});
    const auto path = a.value("--journal");
    const auto to = a.value("--to");
    if (!path || !to) {
        throw UsageError("journal archive needs --journal FILE and --to DIR");
    }
    journal::StoreOptions options;
    options.readOnly = true;
    if (const auto key = a.value("--key")) {
        options.key = journal::loadChainKey(*key);
    }
    constexpr std::int64_t kDayMs = 86'400'000;
    const std::int64_t days = a.integer("--older-than-days", 0, 0, 100'000);
    const std::int64_t now =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    const auto keepAfter =
        shippedThrough(*path, options, a.value("--ship-status").value_or(kShipStatus), a.flag("--unshipped"));
    const auto archived = journal::archiveSegments(*path, options, now - days * kDayMs, *to, keepAfter);
    if (a.flag("--json")) {
        json list = json::array();
        for (const auto& s : archived) {
            list.push_back(json{{"file", s.file},
                                {"sha256", s.sha256},
                                {"bytes", s.bytes},
                                {"first_seq", s.firstSeq},
                                {"last_seq", s.lastSeq}});
        }
        out << json{{"archived", list}}.dump(2) << "\n";
        return 0;
    }
    for (const auto& s : archived) {
        out << "archived " << s.file << ": records " << s.firstSeq << "-" << s.lastSeq << ", " << s.bytes
            << " bytes, sha256 " << s.sha256 << "\n";
    }
    out << archived.size() << " segment(s) archived to " << *to << "\n";
    if (keepAfter) {
        out << "(only records the floor's server holds: up to " << *keepAfter << ")\n";
    }
    return 0;
}

int runRecall(const std::vector<std::string>& args, std::ostream& out) {
    const Arguments a(args, {"--journal", "--key", "--station", "--last", "--round", "--socket"}, {"--json"});
    const auto show = [&](const json& rounds) {
        if (a.flag("--json")) {
            out << rounds.dump(2) << "\n";
            return 0;
        }
        for (const auto& round : rounds) {
            printRound(out, round);
        }
        return 0;
    };
    std::optional<std::int64_t> station;
    if (a.value("--station")) {
        station = a.integer("--station", 0, 1, 1'000'000);
    }
    const std::int64_t last = a.integer("--last", 10, 1, 1000);
    std::optional<std::int64_t> roundId;
    if (a.value("--round")) {
        roundId = a.integer("--round", 0, 1, INT64_MAX);
    }
    if (!a.value("--journal")) {
        control::ControlRequest request;
        request.command = control::Command::Recall;
        request.last = last;
        request.station = station;
        request.round = roundId;
        return askAndShow(a.value("--socket").value_or(kDefaultControlSocket), request,
                          [&](const json& data) { return show(data["rounds"]); });
    }
    auto store = openJournal(a);
    json rounds = json::array();
    if (roundId) {
        rounds.push_back(journal::recalledRoundJson(journal::recallRound(*store, *roundId)));
    } else {
        for (const auto& round : journal::recallRounds(*store, static_cast<int>(last), station, gameChosenIn(*store))) {
            rounds.push_back(journal::recalledRoundJson(round));
        }
    }
    return show(rounds);
}

int runResettle(const std::vector<std::string>& rawArgs, std::ostream& out) {
    std::vector<std::string> args = rawArgs;
    if (!args.empty() && !args.front().starts_with("--")) {
        args.insert(args.begin(), "--round");
    }
    const Arguments a(args, {"--round", "--cards", "--reason", "--socket"}, {"--json"});
    if (!a.value("--round") || !a.value("--cards") || !a.value("--reason")) {
        throw UsageError("usage: pitlinkctl resettle ROUND --cards \"P1 B1 P2 B2 [P3] [B3]\" --reason TEXT");
    }
    control::ControlRequest request;
    request.command = control::Command::Resettle;
    request.round = a.integer("--round", 0, 1, INT64_MAX);
    request.reason = *a.value("--reason");
    std::string problem;
    const auto cards = control::parseCoupCards(*a.value("--cards"), problem);
    if (!cards) {
        throw std::runtime_error("\"cards\": " + problem);  // the daemon would refuse them the same way
    }
    request.cards = *cards;
    return askAndShow(a.value("--socket").value_or(kDefaultControlSocket), request, [&](const json& data) {
        if (a.flag("--json")) {
            out << data.dump(2) << "\n";
            return 0;
        }
        out << "round " << data["round"] << " re-settled\n";
        for (const auto& record : data["records"]) {
            if (record.contains("outcome")) {
                out << "  result " << record["previous_outcome"].value("winner", "?") << " -> "
                    << record["outcome"].value("winner", "?") << " (re-settlement " << record["step"] << ")\n";
            } else {
                out << "  "
                    << (record.contains("bets") ? "bets " + record["bets"].dump() : "bet " + record["bet"].dump())
                    << " station " << record.value("station", 0) << " " << record.value("spot", "") << " "
                    << record.value("stake", 0) << ": returned " << record.value("previous_returned", 0) << " -> "
                    << record.value("returned", 0) << " (delta " << record.value("delta", 0) << ")\n";
            }
        }
        for (const auto& [station, credit] : data["credits"].items()) {
            out << "  station " << station << " credits " << credit.value("amount", 0) << " -> balance "
                << credit.value("balance", 0) << "\n";
        }
        return 0;
    });
}

namespace {

// YYYY-MM-DD as the UTC midnight that starts it, in ms.
std::int64_t utcDayMs(const std::string& text) {
    int y = 0;
    unsigned m = 0;
    unsigned d = 0;
    char extra = 0;
    if (std::sscanf(text.c_str(), "%4d-%2u-%2u%c", &y, &m, &d, &extra) != 3) {
        throw UsageError("a date is YYYY-MM-DD, not '" + text + "'");
    }
    const std::chrono::year_month_day day{std::chrono::year{y}, std::chrono::month{m}, std::chrono::day{d}};
    if (!day.ok() || y < 1970 || y > 9999) {
        throw UsageError("no such date: " + text);
    }
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::sys_days{day}.time_since_epoch()).count();
}

std::string utcTime(std::int64_t ms) {
    const std::time_t seconds = ms / 1000;
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &tm);
    return text;
}

}  // namespace

int runTips(const std::vector<std::string>& args, std::ostream& out) {
    const Arguments a(args, {"--journal", "--key", "--from", "--to", "--period"}, {"--json"});
    constexpr std::int64_t kDayMs = 86'400'000;
    const std::string period = a.value("--period").value_or("day");
    if (period != "day" && period != "hour") {
        throw UsageError("--period is day or hour");
    }
    const std::int64_t periodMs = period == "day" ? kDayMs : kDayMs / 24;
    const std::int64_t from = a.value("--from") ? utcDayMs(*a.value("--from")) : 0;
    const std::int64_t to = a.value("--to") ? utcDayMs(*a.value("--to")) + kDayMs : INT64_MAX;  // --to's day included
    auto store = openJournal(a);
    const std::vector<journal::TipPeriod> report = journal::tipReport(*store, from, to, periodMs, gameChosenIn(*store));
    if (a.flag("--json")) {
        json periods = json::array();
        for (const journal::TipPeriod& p : report) {
            json stations = json::object();
            for (const auto& [station, t] : p.byStation) {
                stations[std::to_string(station)] = json{{"count", t.count}, {"amount", t.amount}};
            }
            periods.push_back(json{{"from_ms", p.startMs},
                                   {"to_ms", p.endMs},
                                   {"count", p.total.count},
                                   {"amount", p.total.amount},
                                   {"stations", stations}});
        }
        out << json{{"period", period}, {"periods", periods}}.dump(2) << "\n";
        return 0;
    }
    game::Money all = 0;
    std::int64_t count = 0;
    for (const journal::TipPeriod& p : report) {
        out << utcTime(p.startMs) << " UTC  " << p.total.count << " tips, " << p.total.amount << " minor units\n";
        for (const auto& [station, t] : p.byStation) {
            out << "    station " << station << ": " << t.count << " tips, " << t.amount << "\n";
        }
        all += p.total.amount;
        count += p.total.count;
    }
    out << "total: " << count << " tips, " << all << " minor units\n";
    return 0;
}

}  // namespace pitlink::ctl
