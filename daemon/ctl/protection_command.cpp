#include "daemon/ctl/protection_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <thread>

#include "daemon/ctl/arguments.h"
#include "daemon/ctl/control_commands.h"
#include "daemon/ctl/protection_svg.h"

namespace pitlink::ctl {

namespace {

using nlohmann::json;

// "+1.0950 %" for 10950 ppm: the player's edge in per cent of the stake.
std::string percent(std::int64_t ppm) {
    return fmt::format("{:+.4f} %", static_cast<double>(ppm) / 10'000);
}

std::string edgeLine(const json& edge) {
    std::string line =
        fmt::format("shoe {} round {} ({} cards known):", edge.at("shoe").get<std::int64_t>(),
                    edge.at("round_in_shoe").get<std::int64_t>(), edge.at("cards_known").get<std::int64_t>());
    for (const auto& [bet, ppm] : edge.at("edges").items()) {
        line += fmt::format(" {} {}", bet, percent(ppm.get<std::int64_t>()));
    }
    if (!edge.at("closed").empty()) {
        line += " | closed:";
        for (const json& bet : edge.at("closed")) {
            line += " " + bet.get<std::string>();
        }
    }
    return line;
}

std::string scoreLine(const json& s) {
    return fmt::format("station {} on {}: z {:.2f} over {} rounds, staked {}, its mean edge {} against the shoe's {}",
                       s.at("station").get<std::int64_t>(), s.at("bet").get<std::string>(),
                       static_cast<double>(s.at("z_hundredths").get<std::int64_t>()) / 100,
                       s.at("rounds").get<std::int64_t>(), s.at("staked").get<std::int64_t>(),
                       percent(s.at("staked_edge_ppm").get<std::int64_t>()),
                       percent(s.at("mean_edge_ppm").get<std::int64_t>()));
}

void printNow(std::ostream& out, const json& d) {
    if (!d.value("enabled", false)) {
        fmt::print(out, "{}: game protection is off (pitlink.yaml protection.enabled)\n", d.value("table", "?"));
        return;
    }
    fmt::print(out, "{}: shoe {}, round {}, {} cards known\n", d.at("table").get<std::string>(),
               d.at("shoe").get<std::int64_t>(), d.at("round_in_shoe").get<std::int64_t>(),
               d.at("cards_known").get<std::int64_t>());
    const json last = d.at("edges").empty() ? json::object() : d.at("edges").back();
    fmt::print(out, "{:<14} {:<22} {:>14}  {}\n", "side bet", "rule", "edge", "now");
    for (const json& rule : d.at("rules")) {
        const std::string bet = rule.at("bet").get<std::string>();
        const std::string now =
            std::find(d.at("closed").begin(), d.at("closed").end(), bet) != d.at("closed").end() ? "CLOSED"
            : std::find(d.at("waiting").begin(), d.at("waiting").end(), bet) != d.at("waiting").end()
                ? "waiting for its edge"
                : "open";
        const std::string edge = last.contains("edges") && last.at("edges").contains(bet)
                                     ? percent(last.at("edges").at(bet).get<std::int64_t>())
                                     : "-";
        fmt::print(out, "{:<14} {:<22} {:>14}  {}\n", bet,
                   rule.at("action").get<std::string>() + " above " + percent(rule.at("above_ppm").get<std::int64_t>()),
                   edge, now);
    }
    fmt::print(out, "reported this shoe:{}\n", d.at("alerts").empty() ? " none" : "");
    for (const json& alert : d.at("alerts")) {
        fmt::print(out, "  {}\n", scoreLine(alert));
    }
    const json& w = d.at("worker");
    fmt::print(out,
               "edges: {} computed, {} stale; {} rounds opened before their edge, {} bets waited for it, {} refused "
               "closed{}\n",
               w.at("edges_computed").get<std::int64_t>(), w.at("edges_stale").get<std::int64_t>(),
               w.at("rounds_opened_before_edge").get<std::int64_t>(), w.at("bets_waited").get<std::int64_t>(),
               w.at("bets_closed").get<std::int64_t>(),
               w.at("last_error").is_null() ? "" : "; last error: " + w.at("last_error").get<std::string>());
}

json ask(const std::string& socket, std::optional<std::int64_t> shoe) {
    control::ControlRequest request;
    request.command = control::Command::Protection;
    request.shoe = shoe;
    json reply = askDaemon(socket, request);
    if (!reply.value("ok", false)) {
        throw std::runtime_error("refused (" + reply.value("error", std::string("?")) +
                                 "): " + reply.value("message", std::string()));
    }
    return reply.at("data");
}

}  // namespace

int runProtection(const std::vector<std::string>& args, std::ostream& out) {
    const Arguments a(args, {"--shoe", "--svg", "--station", "--socket", "--every-ms"}, {"--json", "--follow"});
    const std::string socket = a.value("--socket").value_or(kDefaultControlSocket);
    const std::optional<std::int64_t> shoe =
        a.value("--shoe") ? std::optional(a.integer("--shoe", 1, 1, UINT32_MAX)) : std::nullopt;
    const std::optional<std::int64_t> station =
        a.value("--station") ? std::optional(a.integer("--station", 1, 1, 64)) : std::nullopt;
    if (a.value("--svg") && !shoe) {
        throw UsageError("--svg draws one shoe: give --shoe N");
    }
    try {
        if (a.flag("--follow")) {
            // Each new edge and report as a line (JSON with --json), polled; until interrupted.
            const auto every = std::chrono::milliseconds(a.integer("--every-ms", 500, 50, 60'000));
            std::int64_t shoeSeen = -1;
            std::size_t edgesSeen = 0;
            std::size_t alertsSeen = 0;
            for (;;) {
                const json d = ask(socket, std::nullopt);
                if (!d.value("enabled", false)) {
                    printNow(out, d);
                    return 1;
                }
                if (d.at("shoe").get<std::int64_t>() != shoeSeen || d.at("edges").size() < edgesSeen) {
                    // A new shoe, or a restart within the shoe (its edges listed again from the start).
                    shoeSeen = d.at("shoe").get<std::int64_t>();
                    edgesSeen = 0;
                    alertsSeen = 0;
                }
                for (std::size_t i = edgesSeen; i < d.at("edges").size(); ++i) {
                    out << (a.flag("--json") ? d.at("edges")[i].dump() : edgeLine(d.at("edges")[i])) << "\n";
                }
                for (std::size_t i = alertsSeen; i < d.at("alerts").size(); ++i) {
                    out << (a.flag("--json") ? d.at("alerts")[i].dump() : "REPORTED " + scoreLine(d.at("alerts")[i]))
                        << "\n";
                }
                edgesSeen = d.at("edges").size();
                alertsSeen = d.at("alerts").size();
                out.flush();
                std::this_thread::sleep_for(every);
            }
        }
        const json d = ask(socket, shoe);
        if (const auto svgFile = a.value("--svg")) {
            std::ofstream file(*svgFile);
            file << protectionSvg(d, station);
            if (!file.flush()) {
                throw std::runtime_error("cannot write " + *svgFile);
            }
        }
        if (a.flag("--json")) {
            out << d.dump() << "\n";
        } else if (shoe) {
            fmt::print(out, "{}shoe {}: {} rounds, {} edges journaled\n",
                       d.contains("table") ? d.at("table").get<std::string>() + ", " : "", *shoe,
                       d.at("rounds").get<std::int64_t>(), d.at("edges").size());
            for (const json& edge : d.at("edges")) {
                fmt::print(out, "  {}\n", edgeLine(edge));
            }
            for (const json& alert : d.at("alerts")) {
                fmt::print(out, "REPORTED station {} on {} (z {:.2f})\n", alert.at("station").get<std::int64_t>(),
                           alert.at("bet").get<std::string>(),
                           static_cast<double>(alert.at("z_hundredths").get<std::int64_t>()) / 100);
            }
        } else {
            printNow(out, d);
        }
    } catch (const DaemonUnavailable& e) {
        std::cerr << "pitlinkctl: " << e.what() << "\n";
        return kExitUnavailable;
    } catch (const std::runtime_error& e) {
        std::cerr << "pitlinkctl: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

}  // namespace pitlink::ctl
