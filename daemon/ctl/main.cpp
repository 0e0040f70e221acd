// pitlinkctl: the command-line client of pitlinkd. Exit codes: 0 success, 1 failure,
// 2 usage error, 78 unusable configuration or paytable file.

#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/config/config.h"
#include "daemon/config/config_error.h"
#include "daemon/config/paytable_loader.h"
#include "daemon/ctl/arguments.h"
#include "daemon/ctl/control_commands.h"
#include "daemon/ctl/journal_commands.h"
#include "daemon/ctl/odds_command.h"
#include "daemon/ctl/protection_command.h"
#include "daemon/ctl/roads_command.h"
#include "daemon/ctl/simulate_command.h"

namespace {

constexpr std::string_view kUsage =
    "usage: pitlinkctl COMMAND [OPTIONS]\n"
    "\n"
    "  odds --paytable FILE [--decks N] [--json]\n"
    "      exact probability, return to player and house edge of every bet (by enumeration)\n"
    "  simulate --rounds N [--paytable FILE] [--seed S] [--decks N] [--cut N]\n"
    "      deals real shoes (shuffle, cut card, burn) and compares realised returns with the exact odds\n"
    "  roads [--results BPT...] [--svg FILE] [--json] [--rows N] [--columns N] [--shoe N] [--table NAME] [--socket P]\n"
    "      scoreboards of a shoe (the running table's, or given results): bead plate, big road, derived roads, probe\n"
    "  recall [--station N] [--last N] [--round ID] [--game G] [--json] [--journal FILE [--key FILE]]\n"
    "      game recall: cards, outcome, bets, wins, credits before and after, paytable (newest first);\n"
    "      --game G: that game's rounds only (a controller of several games)\n"
    "  round ID [--json]                              the same as recall --round ID\n"
    "  audit verify [--json] [--journal FILE [--key FILE] [--jobs N]]   (exit 1 if anything is wrong;\n"
    "      --jobs: segments read at once, default the number of CPUs)\n"
    "      verifies the hash chain, recomputes every meter against the stored snapshots, checks every round\n"
    "      (recall and audit verify ask the running pitlinkd; with --journal they read that file)\n"
    "  audit export --journal FILE [--rounds A-B] [--from-ms T] [--to-ms T] [--format jsonl|csv] [--game G]\n"
    "               [--key FILE]\n"
    "      the records of a round range or time range, with their chain links and game (--game G: G's only)\n"
    "  tips --journal FILE [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--period day|hour] [--json]\n"
    "                                                 dealer tips by period (UTC) and station (--game G: G's dealer)\n"
    "\n"
    "  against the running pitlinkd (--socket PATH, default /run/pitlink/control.sock; --json;\n"
    "  --game NAME: that game of a controller of several, default the first):\n"
    "  status | stations | meters | events            the table, its stations, meters, recent events; status\n"
    "                                                 also pitlink-ship's (--ship-status FILE, default\n"
    "                                                 /run/pitlink-ship/status.json): the floor's server's lag\n"
    "  attendant clear N | handpay reset N            (operator) clear a call / pay a hand-pay\n"
    "  void [ROUND] --reason TEXT | shoe new          (operator) void the round in progress / new shoe\n"
    "  tilt clear --cause CAUSE                       (operator) clear a tilt whose cause is gone\n"
    "  station limits N [--min X] [--max Y]           (operator) a player's own bet limits (none: cleared)\n"
    "  station release N                              (operator) free a station its player reserved\n"
    "  station level N --level L                      (operator) the limit level station N plays at\n"
    "  io                                             the I/O module's inputs and outputs as it reports them now\n"
    "  protection [--follow] [--shoe N [--svg FILE] [--station S]] [--every-ms MS]\n"
    "                                                 game protection: each side bet's edge, closures, stations\n"
    "                                                 reported (--follow: as they come; --shoe: from the journal)\n"
    "  lamps test [--step-ms MS]                      (operator) each lamp alone in turn, MS each (default 1000)\n"
    "  dispute resolve N --upheld|--rejected --reason TEXT [--round R] [--cards \"P1 B1 P2 B2 [P3] [B3]\"]\n"
    "                                                 (operator) decide station N's open dispute; --cards\n"
    "                                                 re-settles the disputed round with the corrected coup\n"
    "  resettle ROUND --cards \"P1 B1 P2 B2 [P3] [B3]\" --reason TEXT\n"
    "                                                 (operator) re-settle a round with corrected cards\n"
    "  config check FILE                              the configuration and its paytable load (78 if not)\n"
    "  journal archive --journal FILE --to DIR [--older-than-days N] [--ship-status FILE] [--unshipped]\n"
    "                                                 old sealed segments checked, copied with a manifest, removed;\n"
    "                                                 with pitlink-ship, only those the floor's server holds\n"
    "  exit codes: 0 done, 1 refused, 2 usage, 69 pitlinkd not reachable, 77 role not enough\n";

}  // namespace

int main(int argc, char** argv) {
    using namespace pitlink;
    if (argc < 2 || std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h") {
        std::cout << kUsage;
        return argc < 2 ? 2 : 0;
    }
    std::vector<std::string> args(argv + 1, argv + argc);
    std::string command;
    try {
        // --game NAME, before the command or among its arguments.
        if (const auto game = std::find(args.begin(), args.end(), "--game"); game != args.end()) {
            if (game + 1 == args.end()) {
                throw ctl::UsageError("--game needs a game's name");
            }
            ctl::useGame(*(game + 1));
            args.erase(game, game + 2);
        }
        if (args.empty()) {
            throw ctl::UsageError("no command");
        }
        command = args.front();
        args.erase(args.begin());
        if (command == "odds") {
            return ctl::runOdds(args, std::cout);
        }
        if (command == "protection") {
            return ctl::runProtection(args, std::cout);
        }
        if (command == "roads") {
            return ctl::runRoads(args, std::cout);
        }
        if (command == "audit") {
            return ctl::runAudit(args, std::cout);
        }
        if (command == "recall") {
            return ctl::runRecall(args, std::cout);
        }
        if (command == "round") {
            if (args.empty() || args.front().starts_with("--")) {
                throw ctl::UsageError("usage: pitlinkctl round ID [--json]");
            }
            std::vector<std::string> recallArgs{"--round", args.front()};
            recallArgs.insert(recallArgs.end(), args.begin() + 1, args.end());
            return ctl::runRecall(recallArgs, std::cout);
        }
        if (command == "journal") {
            return ctl::runJournal(args, std::cout);
        }
        if (command == "tips") {
            return ctl::runTips(args, std::cout);
        }
        if (command == "resettle") {
            return ctl::runResettle(args, std::cout);
        }
        if (command == "simulate") {
            return ctl::runSimulate(args, std::cout);
        }
        if (command == "config") {
            // config check FILE: the configuration and its paytable load as pitlinkd would load them.
            if (args.size() != 2 || args[0] != "check") {
                throw ctl::UsageError("usage: pitlinkctl config check FILE");
            }
            const config::Config config = config::loadConfigFile(args[1]);
            std::string games;
            for (const config::GameConfig& g : config.games) {
                const game::Paytable paytable = config::loadPaytableFile(g.paytableFile);
                games += (games.empty() ? "" : ", ") + ("'" + g.name + "': ") + (g.rngShoe ? "rng" : "reader") +
                         " shoe, paytable '" + paytable.id + "'";
            }
            std::cout << args[1] << ": OK (table '" << config.table.name << "', " << config.table.stations
                      << " stations, " << (config.games.size() > 1 ? "games " : "game ") << games << ", journal "
                      << config.journal.path.string() << ")\n";
            return 0;
        }
        if (command == "status" || command == "stations" || command == "meters" || command == "events" ||
            command == "attendant" || command == "handpay" || command == "void" || command == "shoe" ||
            command == "tilt" || command == "station" || command == "dispute" || command == "io" ||
            command == "lamps") {
            return ctl::runControl(command, args, std::cout);
        }
        throw ctl::UsageError("unknown command '" + command + "'");
    } catch (const ctl::UsageError& e) {
        std::cerr << "pitlinkctl: " << e.what() << "\n\n" << kUsage;
        return 2;
    } catch (const config::ConfigError& e) {
        std::cerr << "pitlinkctl: " << e.what() << "\n";
        return 78;
    } catch (const std::exception& e) {
        std::cerr << "pitlinkctl: " << e.what() << "\n";
        return 1;
    }
}
