#include "daemon/ctl/control_commands.h"

#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>

#include "daemon/ctl/arguments.h"

namespace pitlink::ctl {

using nlohmann::json;

namespace {
std::optional<std::string>& gameSlot() {
    static std::optional<std::string> game;
    return game;
}
}  // namespace

void useGame(std::string game) {
    gameSlot() = std::move(game);
}

const std::optional<std::string>& chosenGame() {
    return gameSlot();
}

json askDaemon(const std::string& path, const control::ControlRequest& request) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (fd < 0 || path.size() >= sizeof address.sun_path) {
        throw DaemonUnavailable("cannot use the control socket " + path);
    }
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        const std::string why = std::strerror(errno);
        ::close(fd);
        throw DaemonUnavailable("pitlinkd is not reachable on " + path + ": " + why);
    }
    json sent = control::requestJson(request);
    if (chosenGame() && !sent.contains("game")) {
        sent["game"] = *chosenGame();
    }
    const std::string line = sent.dump() + "\n";
    std::size_t written = 0;
    while (written < line.size()) {
        const ssize_t n = ::write(fd, line.data() + written, line.size() - written);
        if (n <= 0) {
            ::close(fd);
            throw DaemonUnavailable("the control socket closed while sending");
        }
        written += static_cast<std::size_t>(n);
    }
    std::string reply;
    char buffer[4096];
    while (reply.find('\n') == std::string::npos) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0) {
            ::close(fd);
            throw DaemonUnavailable("pitlinkd closed the control socket without a reply");
        }
        reply.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return json::parse(reply.substr(0, reply.find('\n')));
}

namespace {

// "attendant clear 3" and "attendant clear --station 3" are the same.
std::vector<std::string> withStation(std::vector<std::string> args) {
    if (!args.empty() && !args.front().starts_with("--")) {
        args.insert(args.begin(), "--station");
    }
    return args;
}

// Each table I/O module's health: answering or not (and why, for how long), cycles, errors, its
// watchdog and identity; then the faults and presses of the table's lamps and buttons.
void printModbus(const nlohmann::json& m, std::ostream& out) {
    if (!m.is_object()) {
        return;
    }
    const nlohmann::json modules = m.value("modules", nlohmann::json::array());
    for (const auto& module : modules) {
        out << "modbus:  " << (modules.size() > 1 ? module.value("name", "") + " " : std::string())
            << module.value("device", "") << ": ";
        if (module.value("up", false)) {
            out << "up";
        } else {
            out << "DOWN for " << module.value("down_ms", 0) / 1000 << " s (" << module.value("error", "") << ")";
        }
        out << ", " << module.value("cycles", 0) << " cycles, " << module.value("failures", 0) << " failed, "
            << module.value("transient_errors", 0) << " transient errors, " << module.value("connects", 0)
            << " connects\n";
        const nlohmann::json watchdog = module.value("watchdog", nlohmann::json::object());
        out << "         watchdog: ";
        if (watchdog.value("ms", 0) == 0) {
            out << "none configured";
        } else {
            out << (watchdog.value("armed", false) ? "armed" : "NOT armed") << " (" << watchdog.value("ms", 0)
                << " ms)";
        }
        if (const nlohmann::json identity = module.value("identity", nlohmann::json()); identity.is_object()) {
            out << "; module: " << identity.value("vendor", "?") << " " << identity.value("product_code", "?") << " "
                << identity.value("revision", "");
        } else if (module.contains("identity_error")) {
            out << "; module identity: " << module.value("identity_error", "");
        }
        out << "\n";
    }
    out << "         " << m.value("presses", 0) << " presses";
    const nlohmann::json faults = m.value("faults", nlohmann::json::object());
    for (const auto& [point, fault] : faults.items()) {
        out << "; FAULT " << fault.get<std::string>() << ": " << point;
    }
    out << "\n";
}

// `pitlinkctl io`: each input and output as its module reports it.
void printIo(const nlohmann::json& io, std::ostream& out) {
    const nlohmann::json modules = io.value("modules", nlohmann::json::array());
    for (const auto& module : modules) {
        out << module.value("module", "") << " (" << module.value("device", "")
            << "): " << (module.value("up", false) ? "answering" : "NOT answering");
        if (module.contains("error")) {
            out << " (" << module.value("error", "") << ")";
        }
        out << "\n";
        const nlohmann::json inputs = module.value("inputs", nlohmann::json::array());
        const nlohmann::json outputs = module.value("outputs", nlohmann::json::array());
        for (const auto& in : inputs) {
            out << "  in   " << std::left << std::setw(16) << in.value("name", "") << std::setw(28)
                << in.value("where", "") << (in.value("level", false) ? "1" : "0")
                << (in.value("active", false) ? " active" : "");
            if (in.contains("count")) {
                out << ", count " << in["count"];
            }
            out << "\n";
        }
        for (const auto& o : outputs) {
            const bool written = o.value("written", false);
            const bool holds = o.value("holds", false);
            out << "  out  " << std::left << std::setw(16) << o.value("name", "") << std::setw(28)
                << o.value("where", "") << (holds ? "1" : "0")
                << (written != holds ? std::string(" STUCK (written ") + (written ? "1" : "0") + ")" : "") << "\n";
        }
    }
}

void printStations(const json& stations, std::ostream& out) {
    out << "station  credits  bets                 hand-pay          attendant  floor\n";
    for (const auto& s : stations) {
        std::string bets;
        for (const auto& b : s["bets"]) {
            bets += b["spot"].get<std::string>() + " " + std::to_string(b["stake"].get<std::int64_t>()) + " ";
        }
        const std::string handpay = s["handpay"].is_null()
                                        ? "-"
                                        : std::to_string(s["handpay"]["amount"].get<std::int64_t>()) + " " +
                                              s["handpay"]["kind"].get<std::string>();
        out << std::left << std::setw(9) << s["station"].get<std::int64_t>() << std::setw(9)
            << s["credits"].get<std::int64_t>() << std::setw(21) << (bets.empty() ? "-" : bets) << std::setw(18)
            << handpay << std::setw(11) << (s["attendant"].get<bool>() ? "CALLED" : "-");
        // What the floor may have to act on: an open dispute, a reservation; auto-repeat.
        std::string floor;
        if (const json& dispute = s.value("dispute", json()); dispute.is_object()) {
            floor += "DISPUTE of round " + std::to_string(dispute["round"].get<std::int64_t>()) + " ";
        }
        if (s.value("reserved", false)) {
            floor += "reserved ";
        }
        if (s.value("auto_repeat", false)) {
            floor += "auto-repeat ";
        }
        // Credit types and the accounting host's cashless lock (issue 36).
        const std::int64_t restricted = s.value("restricted", std::int64_t{0});
        const std::int64_t nonrestricted = s.value("nonrestricted", std::int64_t{0});
        if (restricted != 0 || nonrestricted != 0) {
            floor += "promo " + std::to_string(restricted) + " restricted " + std::to_string(nonrestricted) +
                     " non-restricted ";
        }
        if (s.value("aft_locked", false)) {
            floor += "AFT-locked ";
        }
        out << (floor.empty() ? "-" : floor) << "\n";
    }
}

// pitlink-ship's line: how far the floor's server is behind the journal.
void printShipping(const json& s, std::ostream& out) {
    if (!s.is_object()) {
        return;
    }
    out << "floor:   " << s.value("state", "?") << ", server at record " << s.value("server_seq", 0) << " of "
        << s.value("journal_seq", 0) << " (" << s.value("lag_records", 0) << " behind";
    if (s.value("lag_ms", 0) > 0) {
        out << ", the oldest unshipped " << s.value("lag_ms", 0) / 1000 << " s old";
    }
    out << ")";
    if (const std::string error = s.value("error", ""); !error.empty()) {
        out << ": " << error;
    }
    out << "\n";
}

void printHuman(const std::string& command, const json& data, std::ostream& out) {
    if (command == "status") {
        out << "table:   " << data["table"].get<std::string>() << " (" << data["source"].get<std::string>()
            << " shoe, paytable " << data["paytable"].get<std::string>() << ")\n"
            << "round:   " << data["round"] << " (" << data["phase"].get<std::string>() << "), shoe " << data["shoe"]
            << " round " << data["round_in_shoe"] << " (" << data.value("cards_left", 0) << " cards left"
            << (data.value("shoe_resumed", false) ? ", resumed at this start" : "") << "), " << data["rounds_finished"]
            << " rounds since start\n"
            << "tilt:    ";
        if (data["tilts"].empty()) {
            out << "none\n";
        } else {
            for (const auto& [cause, message] : data["tilts"].items()) {
                out << cause << ": " << message.get<std::string>() << "; ";
            }
            out << "\n";
        }
        out << "journal: " << data["daemon"].value("journal", "") << " (" << data["daemon"].value("journal_commits", 0)
            << " commits)\n";
        if (const nlohmann::json segments = data["daemon"].value("journal_segments", nlohmann::json());
            segments.is_object()) {
            // The active segment, the sealed ones and their background check (schema/README.md).
            const nlohmann::json& check = segments["sealed_check"];
            char megabytes[32];
            std::snprintf(megabytes, sizeof megabytes, "%.1f",
                          static_cast<double>(segments.value("active_bytes", std::int64_t{0})) / 1e6);
            out << "segments: active " << megabytes << " MB, " << segments["sealed"].dump() << " sealed"
                << (check.is_string() ? " (check: " + check.get<std::string>() + ")" : std::string()) << ", "
                << segments.value("rotations", 0) << " begun since start\n";
        }
        printShipping(data.value("shipping", json()), out);
        out << "engine:  " << data["daemon"].value("engine_clients", 0) << " clients, "
            << data["daemon"].value("engine_requests", 0) << " requests, "
            << data["daemon"].value("engine_bad_requests", 0) << " bad\n";
        if (const nlohmann::json& scheduling = data["daemon"].value("scheduling", nlohmann::json());
            scheduling.is_object()) {
            out << "logic thread: " << scheduling.value("logic_thread", "?") << "\n";
        }
        printModbus(data["daemon"].value("modbus", nlohmann::json()), out);
        out << "offered: " << data.value("limit_levels", 1) << " limit level(s), denominations "
            << data.value("denominations", nlohmann::json::array()).dump() << " (minor units per credit)\n";
        out << "you:     " << data["role"].get<std::string>() << "\n\n";
        printStations(data["stations"], out);
    } else if (command == "stations") {
        printStations(data["stations"], out);
    } else if (command == "meters") {
        for (const auto& [station, account] : data["stations"].items()) {
            out << "station " << station << ": credits " << account["credits"];
            for (const auto& [name, value] : account["meters"].items()) {
                if (value.get<std::int64_t>() != 0) {
                    out << ", " << name << " " << value;
                }
            }
            out << "\n";
        }
        out << "table:";
        for (const auto& [name, value] : data["table"].items()) {
            out << " " << name << " " << value;
        }
        out << "\n";
    } else if (command == "dispute") {
        out << "station " << data["station"] << "'s dispute of round " << data["round"] << ": "
            << data["decision"].get<std::string>() << "\n";
        if (const json& resettled = data["resettlement"]; resettled.is_object()) {
            out << "round " << data["round"] << " re-settled:\n";
            for (const auto& [station, credit] : resettled["credits"].items()) {
                out << "  station " << station << " credits " << std::showpos << credit.value("amount", 0)
                    << std::noshowpos << " -> " << credit.value("balance", 0) << "\n";
            }
        }
    } else if (command == "io") {
        printIo(data, out);
    } else if (command == "lamps") {
        out << "lamp test started: each lamp alone in turn\n";
    } else if (command == "events") {
        for (const auto& e : data["events"]) {
            out << e.dump() << "\n";
        }
    } else {
        out << "done" << (data.empty() ? "" : ": " + data.dump()) << "\n";
    }
}

}  // namespace

int runControl(const std::string& command, const std::vector<std::string>& rawArgs, std::ostream& out) {
    std::vector<std::string> args = rawArgs;
    control::ControlRequest request;
    const auto sub = [&](const char* expected) {
        if (args.empty() || args.front() != expected) {
            throw UsageError("usage: pitlinkctl " + command + " " + expected + " ...");
        }
        args.erase(args.begin());
    };
    if (command == "attendant") {
        sub("clear");
        args = withStation(args);
        request.command = control::Command::AttendantClear;
    } else if (command == "handpay") {
        sub("reset");
        args = withStation(args);
        request.command = control::Command::HandpayReset;
    } else if (command == "station") {
        const std::string what = args.empty() ? "" : args.front();
        sub(what == "release" || what == "level" ? what.c_str() : "limits");
        args = withStation(args);
        request.command = what == "release" ? control::Command::ReserveRelease
                          : what == "level" ? control::Command::StationLevel
                                            : control::Command::StationLimits;
    } else if (command == "dispute") {
        sub("resolve");
        args = withStation(args);
        request.command = control::Command::DisputeResolve;
    } else if (command == "shoe") {
        sub("new");
        request.command = control::Command::ShoeNew;
    } else if (command == "tilt") {
        sub("clear");
        request.command = control::Command::TiltClear;
    } else if (command == "lamps") {
        sub("test");
        request.command = control::Command::LampsTest;
    } else if (command == "void") {
        if (!args.empty() && !args.front().starts_with("--")) {
            args.insert(args.begin(), "--round");
        }
        request.command = control::Command::VoidRound;
    } else {
        request.command = control::parseCommand(command);
        request.name = command;
    }
    const Arguments a(args,
                      {"--socket", "--station", "--reason", "--round", "--cause", "--min", "--max", "--cards",
                       "--level", "--step-ms", "--ship-status"},
                      {"--json", "--upheld", "--rejected"});
    if (const auto station = a.value("--station")) {
        request.station = a.integer("--station", 0, 1, 1000);
    } else if (request.command == control::Command::AttendantClear ||
               request.command == control::Command::HandpayReset ||
               request.command == control::Command::StationLimits ||
               request.command == control::Command::ReserveRelease ||
               request.command == control::Command::StationLevel ||
               request.command == control::Command::DisputeResolve) {
        throw UsageError("which station? (pitlinkctl " + command + " " +
                         (command == "attendant" ? "clear"
                          : command == "station" ? "limits|level|release"
                          : command == "dispute" ? "resolve"
                                                 : "reset") +
                         " N)");
    }
    if (a.value("--step-ms")) {
        request.stepMs = a.integer("--step-ms", 0, 100, 10'000);
    }
    if (request.command == control::Command::StationLevel) {
        if (!a.value("--level")) {
            throw UsageError("usage: pitlinkctl station level N --level L");
        }
        request.level = a.integer("--level", 0, 1, 20);
    }
    if (request.command == control::Command::DisputeResolve) {
        if (a.flag("--upheld") == a.flag("--rejected") || !a.value("--reason")) {
            throw UsageError(
                "usage: pitlinkctl dispute resolve N --upheld|--rejected --reason TEXT [--round R] "
                "[--cards \"P1 B1 P2 B2 [P3] [B3]\"]");
        }
        request.upheld = a.flag("--upheld");
        if (const auto cards = a.value("--cards")) {
            std::string problem;
            const auto coup = control::parseCoupCards(*cards, problem);
            if (!coup) {
                throw UsageError("\"cards\": " + problem);
            }
            request.cards = *coup;
        }
    }
    if (a.value("--min")) {
        request.min = a.integer("--min", 0, 1, 1'000'000'000'000);
    }
    if (a.value("--max")) {
        request.max = a.integer("--max", 0, 1, 1'000'000'000'000);
    }
    if (const auto reason = a.value("--reason")) {
        request.reason = *reason;
    } else if (command == "void") {
        throw UsageError("void needs --reason TEXT");
    }
    if (a.value("--round")) {
        request.round = a.integer("--round", 0, 1, INT64_MAX);
    }
    if (const auto cause = a.value("--cause")) {
        request.cause = *cause;
    } else if (command == "tilt") {
        throw UsageError("tilt clear needs --cause CAUSE (pitlinkctl status shows them)");
    }
    return askAndShow(a.value("--socket").value_or(kDefaultControlSocket), request, [&](const json& answer) {
        json data = answer;
        if (command == "status") {
            // pitlink-ship's own status file (it is not pitlinkd's): null when it is not running here.
            std::ifstream in(a.value("--ship-status").value_or("/run/pitlink-ship/status.json"));
            const json shipping = in ? json::parse(in, nullptr, false) : json();
            data["shipping"] = shipping.is_object() ? shipping : json();
        }
        if (a.flag("--json")) {
            out << data.dump(2) << "\n";
        } else {
            printHuman(command, data, out);
        }
        return 0;
    });
}

int askAndShow(const std::string& socket, const control::ControlRequest& request,
               const std::function<int(const json& data)>& show) {
    json reply;
    try {
        reply = askDaemon(socket, request);
    } catch (const DaemonUnavailable& e) {
        std::cerr << "pitlinkctl: " << e.what() << "\n";
        return kExitUnavailable;
    }
    if (!reply.value("ok", false)) {
        std::cerr << "pitlinkctl: refused (" << reply.value("error", "?") << "): " << reply.value("message", "")
                  << "\n";
        return reply.value("error", "") == "permission_denied" ? kExitNoPermission : 1;
    }
    return show(reply["data"]);
}

}  // namespace pitlink::ctl
