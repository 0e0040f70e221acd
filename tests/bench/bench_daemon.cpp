// Whole-daemon benchmark (issue 5): rounds per second through the real pitlinkd, from the
// engine link's open_round to the result event (every bet, the close, every card and the
// settlement each journaled with fdatasync and acknowledged after commit), against the raw
// fdatasync rate of the same directory measured in the same run; and the daemon's memory
// (VmRSS, VmHWM from /proc) after the rounds, with 16 stations by default.
//
// A game engine with a physical shoe is what it plays: the bench shuffles its own 8-deck shoe
// (seeded), deals each coup by the drawing rules and reports the cards in deal order. One round
// at a time, its requests pipelined as a fast engine would send them.
//
//   bench_daemon [--rounds N] [--stations N] [--baseline-seconds S] [--dir DIR] [--daemon PATH]
//                [--scheduling "policy: other, lock_memory: false"]   (pitlink.yaml `scheduling`)
//                [--games G [--segment-mb M]]
//
// With --games G (2 to 4, issue 34): G live games on one controller (pitlink.yaml `games`), each
// dealt by its own connection (hello role dealer) in its own thread without pause (the opening
// sent alone and its reply awaited, as the engine link's docs ask with several games), every station
// joined to every game and betting in each round of each: the games' rounds overlap and share
// the stations' credit meters. --rounds is then each game's. `opening` is the time from sending
// a round's open_round to its reply: when the journal's segment is due to end (--segment-mb, the
// journal's segment_max_mb) an opening waits for the other games' rounds in progress to end
// (docs/design.md "Games and the wallet"), and that wait is the rotation's stall.
#include <nlohmann/json.hpp>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "daemon/game/random_source.h"
#include "daemon/game/shoe.h"
#include "daemon/game/third_card_rule.h"
#include "tests/bench/command_line.h"
#include "tests/bench/daemon_process.h"
#include "tests/bench/line_socket.h"
#include "tests/bench/raw_fdatasync.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;
using namespace pitlink;

struct Options {
    int rounds = 2000;
    int stations = 16;
    double baselineSeconds = 2.0;
    fs::path dir = fs::current_path() / "bench-daemon";
    std::string daemon = PITLINK_DAEMON_PATH;
    std::string scheduling;  // the daemon's `scheduling` section as a YAML flow map's inside; empty: defaults
    int games = 1;
    int segmentMb = 0;  // journal.segment_max_mb; 0: the default (32)
};

Options parse(int argc, char** argv) {
    Options o;
    test::CommandLine args(argc, argv);
    o.rounds = args.integer("--rounds", o.rounds);
    o.stations = args.integer("--stations", o.stations);
    o.baselineSeconds = args.number("--baseline-seconds", o.baselineSeconds);
    o.dir = args.text("--dir", o.dir.string());
    o.daemon = args.text("--daemon", o.daemon);
    o.scheduling = args.text("--scheduling", o.scheduling);
    o.games = static_cast<int>(args.integer("--games", o.games));
    o.segmentMb = static_cast<int>(args.integer("--segment-mb", o.segmentMb));
    if (o.games < 1 || o.games > 4) {
        throw std::runtime_error("--games is 1 to 4");
    }
    args.rejectUnknown();
    return o;
}

// Sends `requests` at once and reads until every one is answered and, with `untilResult`, the
// round's result event has come (one round at a time: the only result that can come). Throws on
// a refusal or a void: a benchmark of refused requests measures nothing.
void exchange(test::LineSocket& link, const std::vector<json>& requests, std::int64_t& nextId, bool untilResult = false,
              double* firstReplyMs = nullptr) {
    const auto sent = Clock::now();
    std::string text;
    const std::int64_t first = nextId;
    for (json request : requests) {
        request["id"] = nextId++;
        text += request.dump() + "\n";
    }
    link.send(text);
    std::size_t answered = 0;
    bool resulted = !untilResult;
    while (answered < requests.size() || !resulted) {
        const json message = link.read();
        if (message.contains("id")) {
            if (firstReplyMs != nullptr && message["id"].get<std::int64_t>() == first) {
                *firstReplyMs = std::chrono::duration<double, std::milli>(Clock::now() - sent).count();
            }
            if (!message.value("ok", false)) {
                throw std::runtime_error("request " + requests[message["id"].get<std::size_t>() - first].dump() +
                                         " refused: " + message.dump());
            }
            ++answered;
        } else if (message.value("event", "") == "result") {
            if (message.value("voided", false)) {
                throw std::runtime_error("round voided: " + message.dump());
            }
            resulted = true;
        }
    }
}

// Raw fdatasyncs per second on `dir` for `seconds`, appending (the baseline of RESULTS.md).
double fdatasyncRate(const fs::path& dir, double seconds) {
    test::RawFdatasync raw(dir, false);
    const auto start = Clock::now();
    int count = 0;
    while (std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
        if (!raw.once()) {
            throw std::runtime_error("fdatasync failed on " + dir.string());
        }
        ++count;
    }
    return count / std::chrono::duration<double>(Clock::now() - start).count();
}

double procStatusKb(pid_t pid, const std::string& field) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(field + ":", 0) == 0) {
            return std::stod(line.substr(field.size() + 1));
        }
    }
    return -1;
}

// One game's rounds, one at a time, each pipelined whole (open, every station's bet, close, the
// cards), from its own seeded 8-deck shoe; each round's latency to its result and its opening's.
struct GameRun {
    std::vector<double> roundMs;
    std::vector<double> openingMs;
    std::string error;
};

// With several games the opening is sent alone and its reply awaited (protocols/engine/README.md
// "Games": a due rotation may hold it, and the bets written before its reply would be refused).
void playRounds(test::LineSocket& link, std::int64_t& nextId, int rounds, int stations, std::uint64_t seed,
                bool awaitOpening, GameRun& run) {
    game::SeededRandom random(seed);
    std::unique_ptr<game::Shoe> shoe;
    run.roundMs.reserve(static_cast<std::size_t>(rounds));
    run.openingMs.reserve(static_cast<std::size_t>(rounds));
    for (int r = 1; r <= rounds; ++r) {
        if (!shoe || shoe->cutCardOut()) {
            shoe = std::make_unique<game::Shoe>(game::ShoeConfig{}, random, 1);
            exchange(link, {json{{"op", "new_shoe"}}}, nextId);
        }
        std::vector<game::Card> dealt;
        game::dealCoup([&] {
            dealt.push_back(shoe->draw());
            return dealt.back();
        });
        std::vector<json> requests;
        if (!awaitOpening) {
            requests.push_back(json{{"op", "open_round"}});
        }
        for (int s = 1; s <= stations; ++s) {
            requests.push_back(
                json{{"op", "bet"}, {"station", s}, {"spot", (s + r) % 2 == 0 ? "banker" : "player"}, {"stake", 100}});
        }
        requests.push_back(json{{"op", "close_bets"}});
        for (const game::Card& card : dealt) {
            requests.push_back(json{{"op", "card"}, {"card", card.toString()}});
        }
        const auto roundStart = Clock::now();
        double opening = 0;
        if (awaitOpening) {
            exchange(link, {json{{"op", "open_round"}}}, nextId, false, &opening);
            exchange(link, requests, nextId, true);
        } else {
            exchange(link, requests, nextId, true, &opening);
        }
        run.roundMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - roundStart).count());
        run.openingMs.push_back(opening);
    }
}

std::string gameName(int i) {
    return "live-" + std::to_string(i + 1);
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const Options o = parse(argc, argv);
        fs::remove_all(o.dir);
        fs::create_directories(o.dir);
        const fs::path config = o.dir / "pitlink.yaml";
        std::string games;
        if (o.games > 1) {
            games = "games:\n";
            for (int g = 0; g < o.games; ++g) {
                games += "  - name: " + gameName(g) + "\n";
            }
        }
        std::ofstream(config) << "table:\n  source: reader\n  stations: " << o.stations
                              << "\n  paytable: " << PITLINK_SOURCE_DIR << "/etc/paytables/standard.yaml\n"
                              << "rounds:\n  bets_open_ms: 600000\n  last_bets_ms: 1000\n"
                              << games << "cashier:\n  jackpot_limit: 0\n  ticket_in_max: 100000000\n"
                              << "engine:\n  socket: engine.sock\ncontrol:\n  socket: control.sock\n"
                              << "journal:\n  path: journal.db\n"
                              << (o.segmentMb > 0 ? "  segment_max_mb: " + std::to_string(o.segmentMb) + "\n" : "")
                              << "log:\n  level: warn\n"
                              << (o.scheduling.empty() ? "" : "scheduling: {" + o.scheduling + "}\n");

        const double syncBefore = fdatasyncRate(o.dir, o.baselineSeconds);
        const pid_t pid = test::startDaemon(o.daemon, config, o.dir / "pitlinkd.log");
        test::LineSocket link(o.dir / "engine.sock");
        std::int64_t nextId = 1;
        std::vector<json> setup;
        for (int s = 1; s <= o.stations; ++s) {
            setup.push_back(json{{"op", "ticket_in"},
                                 {"station", s},
                                 {"validation", std::to_string(900000 + s)},
                                 {"amount", 100'000'000}});
        }
        exchange(link, setup, nextId);
        const double rssAtStart = procStatusKb(pid, "VmRSS");

        // Every station plays every game (a game's dealer connection also carries its bets).
        std::vector<json> joins;
        if (o.games > 1) {
            json all = json::array();
            for (int g = 0; g < o.games; ++g) {
                all.push_back(gameName(g));
            }
            joins.push_back(json{{"op", "hello"}, {"games", all}, {"role", "stations"}});
        }
        for (int g = 1; g < o.games; ++g) {
            for (int s = 1; s <= o.stations; ++s) {
                joins.push_back(json{{"op", "join"}, {"station", s}, {"game", gameName(g)}});
            }
        }
        exchange(link, joins, nextId);
        std::vector<GameRun> runs(static_cast<std::size_t>(o.games));
        const auto start = Clock::now();
        if (o.games == 1) {
            playRounds(link, nextId, o.rounds, o.stations, 2026, false, runs[0]);
        } else {
            std::vector<std::thread> threads;
            for (int g = 0; g < o.games; ++g) {
                threads.emplace_back([&o, &runs, g] {
                    GameRun& run = runs[static_cast<std::size_t>(g)];
                    try {
                        test::LineSocket dealer(o.dir / "engine.sock");
                        std::int64_t id = 1;
                        exchange(dealer,
                                 {json{{"op", "hello"}, {"games", json::array({gameName(g)})}, {"role", "dealer"}}},
                                 id);
                        playRounds(dealer, id, o.rounds, o.stations, 2026 + static_cast<std::uint64_t>(g), true, run);
                    } catch (const std::exception& e) {
                        run.error = e.what();
                    }
                });
            }
            for (std::thread& t : threads) {
                t.join();
            }
            for (const GameRun& run : runs) {
                if (!run.error.empty()) {
                    throw std::runtime_error(run.error);
                }
            }
        }
        std::vector<double> roundMs;
        std::vector<double> openingMs;
        for (const GameRun& run : runs) {
            roundMs.insert(roundMs.end(), run.roundMs.begin(), run.roundMs.end());
            openingMs.insert(openingMs.end(), run.openingMs.begin(), run.openingMs.end());
        }
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        const double rss = procStatusKb(pid, "VmRSS");
        const double hwm = procStatusKb(pid, "VmHWM");
        std::int64_t commits = -1;
        std::int64_t transactions = -1;
        std::int64_t segments = -1;
        try {
            test::LineSocket control(o.dir / "control.sock");
            control.send("{\"cmd\":\"status\"}\n");
            const json status = control.read();
            commits = status["data"]["daemon"].value("journal_commits", std::int64_t{-1});
            transactions = status["data"]["daemon"].value("journal_transactions", std::int64_t{-1});
            if (status["data"]["daemon"].contains("journal_segments")) {
                segments = status["data"]["daemon"]["journal_segments"].value("rotations", std::int64_t{-1});
            }
        } catch (const std::exception&) {
            // Not root nor in the inspector group: the commit count is left out.
        }
        ::kill(pid, SIGTERM);
        int status = 0;
        ::waitpid(pid, &status, 0);
        const double syncAfter = fdatasyncRate(o.dir, o.baselineSeconds);
        const double syncRate = (syncBefore + syncAfter) / 2;
        const int totalRounds = o.rounds * o.games;
        const double roundsPerSecond = totalRounds / seconds;
        std::cout << "rounds:                  " << totalRounds << " with " << o.stations << " stations ("
                  << 2 + o.stations << "+ journaled requests a round)"
                  << (o.games > 1 ? ", " + std::to_string(o.games) + " games dealing at once" : std::string()) << "\n"
                  << "rounds/s:                " << roundsPerSecond << "\n"
                  << "round latency ms:        p50 " << test::percentile(roundMs, 0.5) << ", p99 "
                  << test::percentile(roundMs, 0.99) << ", max " << test::percentile(roundMs, 1.0) << "\n"
                  << "opening reply ms:        p50 " << test::percentile(openingMs, 0.5) << ", p99 "
                  << test::percentile(openingMs, 0.99) << ", max " << test::percentile(openingMs, 1.0)
                  << (segments >= 0 ? " (" + std::to_string(segments) + " journal segments begun)" : std::string())
                  << "\n"
                  << "raw fdatasync/s:         " << syncRate << " (before " << syncBefore << ", after " << syncAfter
                  << ")\n"
                  << "fdatasyncs per round:    " << syncRate / roundsPerSecond << " (raw fdatasync time per round)\n";
        if (commits >= 0) {
            std::cout << "journal commits:         " << commits << " acknowledged, in " << transactions
                      << " SQLite transactions (" << static_cast<double>(commits) / totalRounds << " and "
                      << static_cast<double>(transactions) / totalRounds << " per round: group commit)\n";
        }
        std::cout << "daemon VmRSS:            " << rss / 1024.0 << " MB after the rounds (" << rssAtStart / 1024.0
                  << " MB at start), peak VmHWM " << hwm / 1024.0 << " MB\n"
                  << "daemon exit:             " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1) << "\n";
        return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "bench_daemon: " << e.what() << "\n";
        return 1;
    }
}
