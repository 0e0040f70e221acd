#include "tests/sim/simulation.h"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <algorithm>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <vector>

#include "daemon/app/daemon.h"
#include "daemon/config/config.h"
#include "daemon/config/paytable_loader.h"
#include "daemon/game/card.h"
#include "daemon/game/random_source.h"
#include "daemon/io/ordered_replies.h"
#include "daemon/sas/station_meters.h"
#include "tests/sim/journal_checker.h"
#include "tests/sim/sim_accounting_host.h"
#include "tests/sim/sim_executor.h"
#include "tests/sim/sim_modbus_device.h"
#include "tests/sim/sim_sas_line.h"
#include "tests/sim/sim_worker.h"
#include "tests/support/power_loss_vfs.h"

namespace pitlink::sim {

using nlohmann::json;

namespace {

constexpr int kStations = 8;
// The dealer's one-deck shoe is cut with this many cards behind the cut card.
constexpr std::size_t kCardsBehindCut = 12;
constexpr const char* kSpots[] = {"player", "banker", "tie", "player_pair", "banker_pair", "any_pair", "big", "small"};
constexpr std::uint16_t kDealButton = 0;
constexpr std::uint16_t kVoidButton = 1;
constexpr std::uint16_t kKeyButton = 2;
constexpr std::uint16_t kShoeButton = 3;
constexpr std::uint16_t kDoorSwitch = 4;
constexpr std::uint16_t kCountedKey = 5;  // the module counts its edges in input register kKeyCounter
constexpr std::uint16_t kKeyCounter = 40;
constexpr std::int64_t kClockToleranceS = 3600;

// The stations on SAS links to the accounting host (address = station). On even seeds the host
// redeems every ticket (`cashier.ticket_in_local: false`) and six stations are linked; on odd
// seeds tickets are redeemed locally and three are. The others cannot print tickets (hand-pays).
std::vector<std::int64_t> sasStationsFor(bool hostRedeems) {
    return hostRedeems ? std::vector<std::int64_t>{1, 2, 3, 4, 5, 6} : std::vector<std::int64_t>{1, 2, 3};
}

// The simulated table: a reader (the dealer connection reports the cards) with a one-deck shoe,
// so that shoes end often and a card seen before is impossible; a low ticket limit, so that
// cash-outs become hand-pays; the lamps and buttons on a Modbus module.
std::string configYaml(const std::filesystem::path& dir, bool hostRedeems) {
    std::string links;
    for (const std::int64_t s : sasStationsFor(hostRedeems)) {
        const std::string n = std::to_string(s);
        links += "    - {station: " + n + ", address: " + n + ", port: sas-" + n + ", transport: pty}\n";
    }
    return "table:\n"
           "  name: sim-table\n"
           "  source: reader\n"
           "  stations: " +
           std::to_string(kStations) +
           "\n"
           "  decks: 1\n"
           "  rescan_attempts: 2\n"
           "  paytable: " PITLINK_SOURCE_DIR
           "/etc/paytables/standard.yaml\n"
           "rounds:\n"
           "  bets_open_ms: 3000\n"
           "  last_bets_ms: 1000\n"
           "cashier:\n"
           "  ticket_limit: 30000\n"
           "  jackpot_limit: 120000\n"
           "  ticket_in_local: " +
           std::string(hostRedeems ? "false" : "true") +
           "\n"
           "  ticket_in_max: 1000000\n"
           "journal:\n"
           "  path: " +
           (dir / "journal.db").string() +
           "\n"
           "  snapshot_every: 500\n"
           "engine:\n"
           "  socket: \"\"\n"
           "control:\n"
           "  socket: \"\"\n"
           "log:\n"
           "  level: critical\n"
           "sas:\n"
           "  system_validation_timeout_ms: 1000\n"
           "  ticket_read_timeout_ms: 2000\n"
           "  ticket_redeem_timeout_ms: 4000\n"
           "  clock_tolerance_s: " +
           std::to_string(kClockToleranceS) +
           "\n"
           "  stations:\n" +
           links +
           "modbus:\n"
           "  device: {transport: tcp, port: 1502}\n"
           "  poll_ms: 50\n"
           "  debounce_ms: 30\n"
           "  lamps:\n"
           "    - {name: candle, coil: 0, when: {tilt: fast_flash, handpay: slow_flash, call_attendant: on}}\n"
           "    - {name: closed, coil: 1, safe: on, when: {}}\n"
           "  read_back_ms: 200\n"
           "  buttons:\n"
           "    - {name: deal, discrete_input: 0, action: close_bets}\n"
           "    - {name: void, discrete_input: 1, action: void_round}\n"
           "    - {name: key, discrete_input: 2, action: attendant_key}\n"
           "    - {name: shoe, discrete_input: 3, action: new_shoe}\n"
           "    - {name: counted_key, discrete_input: 5, action: attendant_key, counter_register: 40}\n"
           "  switches:\n"
           "    - {name: side_door, discrete_input: 4, door: side}\n";
}

// One connection to the engine link or the control socket, as the simulation sees it: the ids
// it wrote, in order, and the replies it must get, exactly once and in that order.
// Whether the accounting host had delayed the station's next game (LP 2E) when a bet was sent:
// well inside the delay it cannot be accepted; well outside it cannot be refused for it.
enum class HostDelay : std::uint8_t { NotABet, Inside, Outside, AtTheEdge };

struct Awaited {
    std::int64_t id = 0;
    std::string op;
    HostDelay delay = HostDelay::NotABet;
};

struct Connection {
    std::string name;
    bool control = false;
    std::vector<std::int64_t> stations;  // the stations whose ops it writes
    std::shared_ptr<io::OrderedReplies> replies;
    std::deque<Awaited> awaiting;
    std::int64_t nextId = 1;
};

class Simulation {
public:
    explicit Simulation(const SimOptions& options)
        : options_(options),
          random_(options.seed),
          tableRandom_(options.seed * 7919 + 1),
          hostRedeems_(options.seed % 2 == 0),
          lines_(sasStationsFor(hostRedeems_).size()),
          host_(
              sasStationsFor(hostRedeems_), random_,
              [this](std::int64_t station, const std::vector<std::uint8_t>& frame) { return poll(station, frame); },
              [this](const std::string& what) { fail(what); }),
          hostSkewMs_(std::uniform_int_distribution<std::int64_t>(-1'800'000, 1'800'000)(random_)) {
        test::registerPowerLossVfs();
        test::PowerLoss::reset();
        std::filesystem::create_directories(options_.dir);
        std::filesystem::remove(options_.dir / "journal.db");
        std::filesystem::remove(options_.dir / "journal.db-wal");
        std::filesystem::remove(options_.dir / "journal.db-shm");
        std::filesystem::remove_all(options_.dir / "journal.db.segments");
        std::istringstream yaml(configYaml(options_.dir, hostRedeems_));
        config_ = config::loadConfig(yaml, options_.dir / "pitlink.yaml");
        // Segments of a few hundred rounds' records: several rotations in every run, racing the
        // requests of the rounds around them, some cut by a crash.
        config_.journal.segmentMaxBytes = 150'000;
        // Two limit levels: the stations switch between them (limit_level) and an operator sets
        // and clears players' own limits (station_limits), racing bets; both kept in station.state.
        config_.bets.limits.levels = {game::LimitLevel{{100, 500'000}, {}}, game::LimitLevel{{1'000, 200'000}, {}}};
        // Reservations that time out within a run (the configuration's least is a minute), racing
        // the players' own releases and the operator's.
        config_.table.reserveTimeout = std::chrono::seconds(5);
        // Odd seeds play seed 002's multiplayer mode: bets not confirmed when bets close go back
        // in the close's transaction, racing the confirmations and the changes after them.
        config_.rounds.confirmBets = options_.seed % 2 == 1;
        // Seed 000's Denomination button: a station may play credits of 1.00 (its stakes are
        // multiples of 100; its 10-cent tips are then refused, journaled with their rule).
        config_.table.denominations = {1, 100};
        paytable_ = config::loadPaytableFile(config_.table.paytableFile);
        spdlog::set_level(options_.verbose ? spdlog::level::info : spdlog::level::off);
    }

    ~Simulation() {
        checker_.close();  // before the power-loss VFS that its connections read through is reset
        powerOff();        // nothing more of this run reaches the file
        daemon_.reset();
        executor_.reset();
        test::PowerLoss::reset();
    }

    SimResult run() {
        boot();
        while (result_.ok && result_.requests < options_.requests) {
            ++result_.step;
            step();
            checkMeterIdentity();
            if (result_.ok && result_.step % options_.checkEvery == 0) {
                checkpoint("checkpoint");
            }
        }
        if (result_.ok) {
            finish();
        }
        result_.simulatedMs = clockMs_;
        const HostStats& host = host_.stats();
        result_.hostExceptions = host.exceptions;
        result_.cashoutsValidated = host.cashoutsValidated;
        result_.ticketsRedeemed = host.ticketsRedeemed;
        result_.clockSets = host.clockSets;
        result_.resends = host.resends;
        return result_;
    }

private:
    // --- the daemon's life ---

    void boot() {
        executor_ = std::make_unique<SimExecutor>(clockMs_);
        powerOff_ = std::make_shared<bool>(false);
        inputs_.clear();
        pressed_.clear();
        app::DaemonWorld world{
            *executor_,
            tableRandom_,
            nullptr,
            [this] { return std::make_unique<SimWorker>(*executor_, random_, WorkerLatency{}, powerOff_); },
            [this](const modbus::ModuleSettings&) {
                auto device = std::make_unique<SimModbusDevice>();
                device->inputs = &inputs_;
                device->inputRegisters = &inputRegisters_;
                return device;
            },
            sasOutputs(),
            test::kPowerLossVfs};
        app::DaemonHooks hooks{
            {},
            {},
            [this](const std::string&) { ready_ = true; },
            {},
            [this](std::string_view step) {
                if (step == "activated") {
                    ++result_.rotations;
                }
                // A third of the rotations die at one of their steps: the power
                // goes there (what is not synced may be lost) and nothing after it runs.
                if (random_() % 6 == 0) {
                    ++result_.rotationsCut;
                    test::PowerLoss::cutNow(random_(), 0.5);
                    throw std::runtime_error("power cut while sealing a segment at step " + std::string(step));
                }
            }};
        ready_ = false;
        daemon_ = std::make_unique<app::Daemon>(config_, paytable_, "sim", std::move(world), std::move(hooks));
        daemon_->start();
        while (!ready_ && executor_->runOne()) {
        }
        clockMs_ = executor_->nowMs();
        if (daemon_->table() == nullptr) {
            fail("the daemon did not start: its table does not run");
            return;
        }
        connections_.clear();
        connections_.push_back(connection("dealer", false, {}));
        connections_.push_back(connection("stations 1-4", false, {1, 2, 3, 4}));
        connections_.push_back(connection("stations 5-8", false, {5, 6, 7, 8}));
        connections_.push_back(connection("stations 1,3,5,7", false, {1, 3, 5, 7}));
        connections_.push_back(connection("operator", true, {}));
        dealerRound_ = 0;
        host_.restarted();
        hostDelayUntil_.clear();  // a game delay is not journaled: a restart ends it
    }

    std::shared_ptr<Connection> connection(std::string name, bool control, std::vector<std::int64_t> stations) {
        auto c = std::make_shared<Connection>();
        c->name = std::move(name);
        c->control = control;
        c->stations = std::move(stations);
        std::weak_ptr<Connection> weak = c;
        c->replies = io::OrderedReplies::create([this, weak](const std::string& line) {
            if (const auto alive = weak.lock()) {
                onReply(*alive, line);
            }
        });
        return c;
    }

    void powerOff() {
        if (powerOff_) {
            *powerOff_ = true;
        }
    }

    // The process dies: its memory and whatever was not yet committed go; the file stays (with
    // what a power cut lost). Then a new process recovers from it and the workload goes on.
    void crash(const std::string& how, double keep) {
        ++result_.crashes;
        checker_.close();  // its connections die with the power
        journal::Journal* journal = daemon_->journal();
        // What was acknowledged, and the link of a record known to be committed (the last one,
        // or, when the power went during a commit, the one read at the last checkpoint).
        const std::int64_t acked = journal != nullptr ? journal->lastCommittedSeq() : 0;
        std::int64_t hashSeq = committedSeq_;
        std::string hash = committedHash_;
        if (!test::PowerLoss::powerIsOff()) {
            if (acked > 0) {
                hashSeq = acked;
                hash = recordHash(path(), test::kPowerLossVfs, acked);
            }
            test::PowerLoss::cutNow(random_(), keep);
        }
        powerOff();
        daemon_.reset();
        executor_.reset();
        connections_.clear();
        test::PowerLoss::reset();
        if (options_.verbose) {
            spdlog::set_level(spdlog::level::info);
            spdlog::info("sim: step {}: {}; record {} was acknowledged", result_.step, how, acked);
        }
        boot();
        if (!result_.ok) {
            return;
        }
        if (acked > 0) {
            const std::int64_t last = lastSeq(path(), test::kPowerLossVfs);
            if (last < acked) {
                fail(how + ": record " + std::to_string(acked) + " was acknowledged, the journal ends at " +
                     std::to_string(last));
                return;
            }
            if (hashSeq > 0 && recordHash(path(), test::kPowerLossVfs, hashSeq) != hash) {
                fail(how + ": committed record " + std::to_string(hashSeq) + " changed or vanished");
                return;
            }
        }
        checkpoint("after " + how + " and recovery");
    }

    // --- one step of the workload ---

    void step() {
        // Time passes: commits complete, timers fire, the module is polled.
        clockMs_ += std::uniform_int_distribution<std::int64_t>(0, 12)(random_);
        executor_->runUntil(clockMs_);
        releaseButtons();
        hostPolls();
        if (!result_.ok) {
            return;
        }
        if (test::PowerLoss::powerIsOff() || daemon_->journal()->failed()) {
            // A power cut struck a commit, or the disk is full: the table has tilted and wants a
            // restart; the process is killed as systemd would restart it.
            crash(test::PowerLoss::powerIsOff() ? "power cut during a commit" : "restart after a failed commit", 1.0);
            return;
        }
        const int roll = std::uniform_int_distribution<int>(0, 9999)(random_);
        if (options_.faults && roll < 6) {
            crash("process killed", 1.0);
        } else if (options_.faults && roll < 10) {
            const int writes = std::uniform_int_distribution<int>(0, 12)(random_);
            const std::uint64_t seed = random_();  // drawn in order: one seed, one run, whatever the compiler
            test::PowerLoss::cutAfterWrites(writes, seed, 0.5);
        } else if (options_.faults && roll < 13) {
            ++result_.diskFull;
            test::PowerLoss::failWritesAfter(std::uniform_int_distribution<int>(0, 12)(random_), SQLITE_FULL);
        } else if (roll < 3000) {
            dealer();
        } else if (roll < 9000) {
            stations();
        } else if (roll < 9500) {
            operatorAction();
        } else if (roll < 9750) {
            accountingHost();
        } else {
            pressButton();
        }
    }

    // A bet's expectation under the host's game delays: the daemon's delay starts when it reads
    // the poll, a little after the host sent it, so only what is clearly inside or outside counts.
    HostDelay hostDelayOf(const std::string& op, const json& request) const {
        if ((op != "bet" && op != "repeat" && op != "double" && op != "raise") || !request.contains("station")) {
            return HostDelay::NotABet;
        }
        const auto it = hostDelayUntil_.find(request["station"].get<std::int64_t>());
        const std::int64_t until = it == hostDelayUntil_.end() ? 0 : it->second;
        if (clockMs_ < until - 5) {
            return HostDelay::Inside;
        }
        return until == 0 || clockMs_ > until + 200 ? HostDelay::Outside : HostDelay::AtTheEdge;
    }

    void send(Connection& c, json request) {
        const std::int64_t id = c.nextId++;
        request["id"] = id;
        const std::string op =
            request.contains("op") ? request["op"].get<std::string>() : request["cmd"].get<std::string>();
        c.awaiting.push_back(Awaited{id, op, hostDelayOf(op, request)});
        ++result_.requests;
        const io::OrderedReplies::Fill fill = c.replies->next();
        const std::string line = request.dump();
        if (c.control) {
            daemon_->control()->handle(line, control::Role::Root, "sim operator", fill);
        } else {
            daemon_->engine()->handle(line, fill);
        }
    }

    void onReply(Connection& c, const std::string& line) {
        ++result_.replies;
        const json reply = json::parse(line, nullptr, false);
        if (reply.is_discarded() || !reply.contains("id") || !reply["id"].is_number_integer()) {
            fail(c.name + ": a reply without its id: " + line);
            return;
        }
        const std::int64_t id = reply["id"].get<std::int64_t>();
        if (c.awaiting.empty() || c.awaiting.front().id != id) {
            fail(c.name + ": reply to request " + std::to_string(id) + " out of order (expected " +
                 (c.awaiting.empty() ? std::string("none") : std::to_string(c.awaiting.front().id)) + ")");
            return;
        }
        const Awaited awaited = c.awaiting.front();
        const std::string& op = awaited.op;
        c.awaiting.pop_front();
        const bool ok = reply.value("ok", false);
        if (awaited.delay == HostDelay::Inside && ok) {
            fail(c.name + ": " + op + " accepted while the host delayed the station's next game (LP 2E): " + line);
        } else if (awaited.delay != HostDelay::Inside && awaited.delay != HostDelay::AtTheEdge &&
                   reply.value("error", "") == "host_delay") {
            fail(c.name + ": " + op + " refused for a host delay the host had not set or had ended: " + line);
        } else if (reply.value("error", "") == "host_delay") {
            ++result_.hostDelayRefusals;
        }
        if (!ok) {
            ++result_.refused;
            const std::string error = reply.value("error", "");
            if (error == "bad_request" || error == "bad_field" || error == "missing_field" || error == "unknown_op" ||
                error == "malformed_json") {
                fail(c.name + ": the simulation wrote a request the daemon could not read (" + op + "): " + line);
            }
        }
    }

    // The dealer: a round opened, its bets closed and its coup dealt, from its own one-deck shoe,
    // each as a pipelined burst; with a card too many, an impossible card, an unreadable card or
    // a void racing the last card now and then.
    void dealer() {
        Connection& d = *connections_[0];
        table::Table& t = *daemon_->table();
        std::uniform_int_distribution<int> percent(0, 99);
        switch (t.phase()) {
            case table::RoundPhase::Idle:
                if (t.tilts().contains("reader") && percent(random_) < 30) {
                    send(d, json{{"op", "reader"}, {"ok", true}});  // the reader works again
                }
                // The table ends the shoe once no more cards are left than the cut had behind it.
                if (shoe_.size() - next_ <= kCardsBehindCut || t.shoeNumber() == 0) {
                    newDealerShoe();
                    send(d, json{{"op", "new_shoe"}});
                    reportShoePreparation(d);
                }
                if (percent(random_) < 2) {
                    send(d, json{{"op", "reader"}, {"ok", false}, {"message", "reader cover open"}});
                }
                send(d, json{{"op", "open_round"}});
                if (percent(random_) < 3) {
                    send(d, json{{"op", "cut"}, {"cards_behind", kCardsBehindCut}});  // too late: shoe_in_play
                }
                return;
            case table::RoundPhase::BetsOpen:
            case table::RoundPhase::LastBets:
                if (percent(random_) < 40) {
                    return;  // the players are still betting
                }
                send(d, json{{"op", "close_bets"}});
                dealCoup(d, t.roundId());
                return;
            case table::RoundPhase::Closed:
            case table::RoundPhase::Dealing:
                if (dealerRound_ != t.roundId()) {
                    dealCoup(d, t.roundId());  // the window closed by itself, or a button did
                } else if (percent(random_) < 10) {
                    send(d, json{{"op", "void_round"}, {"reason", "dealer saw a problem"}});
                }
                return;
        }
    }

    // The reader's report of the shoe's cut and burn (seeds 003/004), pipelined after new_shoe;
    // now and then reported twice (already_reported) or with a count that does not match.
    void reportShoePreparation(Connection& d) {
        std::uniform_int_distribution<int> percent(0, 99);
        send(d, json{{"op", "cut"}, {"cards_behind", kCardsBehindCut}});
        const game::Card turned = *game::parseCard(shoe_[0]);
        json burned = json::array();
        for (int i = 0; i <= turned.burnCount(); ++i) {
            burned.push_back(shoe_[next_++]);
            seen_.insert(burned.back().get<std::string>());
        }
        if (percent(random_) < 5) {
            send(d, json{{"op", "burn"}, {"cards", json::array({burned[0]})}});  // burn_count: one card is never a burn
        }
        send(d, json{{"op", "burn"}, {"cards", burned}});
        if (percent(random_) < 5) {
            send(d, json{{"op", "burn"}, {"cards", burned}});  // already_reported
        }
    }

    void newDealerShoe() {
        shoe_.clear();
        for (const char* suit : {"C", "D", "H", "S"}) {
            for (const char* rank : {"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"}) {
                shoe_.push_back(std::string(rank) + suit);
            }
        }
        std::shuffle(shoe_.begin(), shoe_.end(), random_);
        next_ = 0;
        seen_.clear();
    }

    void dealCoup(Connection& d, std::int64_t round) {
        dealerRound_ = round;
        std::uniform_int_distribution<int> percent(0, 99);
        std::vector<std::string> coup;
        while (next_ < shoe_.size() && coup.size() < 6) {
            coup.push_back(shoe_[next_++]);
            if (isCompleteCoup(coup)) {
                break;
            }
        }
        for (std::size_t i = 0; i < coup.size(); ++i) {
            if (percent(random_) < 3) {
                send(d, json{{"op", "card_unreadable"}});
            }
            if (percent(random_) < 2 && !seen_.empty()) {
                // A card already out of this one-deck shoe: impossible, a misdeal.
                send(d, json{{"op", "card"}, {"card", *seen_.begin()}});
            }
            send(d, json{{"op", "card"}, {"card", coup[i]}});
            seen_.insert(coup[i]);
        }
        const int roll = percent(random_);
        if (roll < 8 && next_ < shoe_.size()) {
            send(d, json{{"op", "card"}, {"card", shoe_[next_]}});  // one card too many
        } else if (roll < 16) {
            send(d, json{{"op", "void_round"}, {"reason", "void racing the last card"}});
        }
    }

    // Cents to add to a stake so that it is not a multiple of 20: a Banker win of 19/20 then breaks,
    // and a spot paid per addition would come to less than the spot paid whole. Half the stakes
    // stay whole credits of 1.00, which the stations that chose that denomination can play.
    std::int64_t oddCents() {
        static constexpr std::int64_t kCents[] = {10, 30, 55, 5};
        return random_() % 2 == 0 ? 0 : kCents[random_() % std::size(kCents)];
    }

    // Station connections: bursts of station ops, pipelined.
    void stations() {
        std::uniform_int_distribution<std::size_t> which(1, 3);
        Connection& c = *connections_[which(random_)];
        const int burst = std::uniform_int_distribution<int>(1, 5)(random_);
        for (int i = 0; i < burst; ++i) {
            const std::int64_t station =
                c.stations[std::uniform_int_distribution<std::size_t>(0, c.stations.size() - 1)(random_)];
            stationOp(c, station);
        }
    }

    void stationOp(Connection& c, std::int64_t station) {
        const int roll = std::uniform_int_distribution<int>(0, 99)(random_);
        std::uniform_int_distribution<int> hundreds(1, 50);
        if (roll < 45) {
            const char* spot = kSpots[std::uniform_int_distribution<std::size_t>(0, std::size(kSpots) - 1)(random_)];
            // A spot built in steps (settled on its whole stake, issue 30): now and then the
            // station's last spot again.
            if (const auto last = lastSpot_.find(station); last != lastSpot_.end() && random_() % 3 == 0) {
                spot = last->second;
            }
            lastSpot_[station] = spot;
            std::int64_t stake = std::int64_t{hundreds(random_)} * 100 + oddCents();
            if (roll < 2) {
                stake = 15'000;  // a tie of 15,000 wins 120,000: the jackpot hand-pay
                spot = "tie";
            }
            send(c, json{{"op", "bet"}, {"station", station}, {"spot", spot}, {"stake", stake}});
            if (config_.rounds.confirmBets && random_() % 3 != 0) {
                send(c, json{{"op", "confirm"}, {"station", station}});
            }
        } else if (roll < 52) {
            send(c, json{{"op", "clear"}, {"station", station}});
        } else if (roll < 59) {
            send(c, json{{"op", "undo"}, {"station", station}});
        } else if (roll < 64) {
            send(c, json{{"op", "repeat"}, {"station", station}});
        } else if (roll < 66) {
            send(c, json{{"op", "double"}, {"station", station}});
        } else if (roll < 68) {
            // Raise by a chip, and now and then a limit level (refused under bets), racing the
            // round's close and the other stations' requests like any bet.
            if (roll == 66) {
                send(c, json{{"op", "raise"},
                             {"station", station},
                             {"chip", std::int64_t{hundreds(random_)} * 100 + oddCents()}});
            } else {
                send(c, json{{"op", "limit_level"}, {"station", station}, {"level", 1 + random_() % 2}});
            }
        } else if (roll < 80) {
            std::int64_t amount = std::int64_t{hundreds(random_)} * 400;
            std::string validation = std::to_string(1'000'000 + ++tickets_);
            if (hostRedeems_ && host_.linked(station)) {
                validation = host_.ticketToInsert(amount);  // the host decides; the amount is the ticket's
            }
            send(c, json{{"op", "ticket_in"}, {"station", station}, {"validation", validation}, {"amount", amount}});
        } else if (roll < 88) {
            send(c, json{{"op", "cash_out"}, {"station", station}});
        } else if (roll < 94) {
            send(c, json{{"op", "tip"}, {"station", station}, {"amount", hundreds(random_) * 10}});
        } else if (roll < 97) {
            send(c, json{{"op", "call_attendant"}, {"station", station}});
        } else if (roll == 97) {
            send(c, json{{"op", "status"}});
        } else if (roll == 98) {
            floorFunction(c, station);
        } else if (random_() % 2 == 0) {
            send(c, json{{"op", "roads"}});
        } else {
            send(c, json{{"op", "bet_list"}, {"station", station}, {"rounds", 1 + random_() % 5}});
        }
    }

    // Issue 20's station functions, racing the rest: a dispute of the current or last deal
    // (the table then holds until the operator decides), a reservation with or without a PIN and
    // its release with a PIN that may be wrong, auto-repeat turned on or off.
    void floorFunction(Connection& c, std::int64_t station) {
        const table::Table& t = *daemon_->table();
        static constexpr const char* kPins[] = {"1111", "2222"};
        const int roll = std::uniform_int_distribution<int>(0, 7)(random_);
        if (roll < 2) {
            const std::int64_t round =
                std::max<std::int64_t>(1, t.roundId() - static_cast<std::int64_t>(random_() % 2));
            send(c, json{{"op", "dispute"}, {"station", station}, {"round", round}, {"text", "the card was misread"}});
        } else if (roll < 4) {
            json reserve{{"op", "reserve"}, {"station", station}, {"on", true}};
            if (random_() % 2 == 0) {
                reserve["pin"] = kPins[random_() % 2];
            }
            send(c, reserve);
        } else if (roll < 6) {
            send(c, json{{"op", "reserve"}, {"station", station}, {"on", false}, {"pin", kPins[random_() % 2]}});
        } else if (roll == 6) {
            send(c, json{{"op", "auto_repeat"}, {"station", station}, {"on", random_() % 2 == 0}});
        } else if (random_() % 2 == 0) {
            send(c, json{{"op", "denomination"}, {"station", station}, {"value", random_() % 2 == 0 ? 1 : 100}});
        } else {
            // A live table: no DEAL button and no Keep Bets On (refused, journaled, in order).
            send(c, json{{"op", random_() % 2 == 0 ? "deal" : "keep_bets"}, {"station", station}, {"on", true}});
        }
    }

    // The operator on the control commands.
    void operatorAction() {
        Connection& o = *connections_.back();
        const std::int64_t station = std::uniform_int_distribution<std::int64_t>(1, kStations)(random_);
        const int roll = std::uniform_int_distribution<int>(0, 99)(random_);
        table::Table& t = *daemon_->table();
        // An open dispute holds the table: the operator decides it first, now and then by
        // re-settling the disputed round with other cards (refused while it is still dealt).
        for (std::int64_t n = 1; n <= kStations; ++n) {
            if (t.station(n).dispute && roll < 60) {
                json decision{{"cmd", "dispute_resolve"},
                              {"station", n},
                              {"decision", roll < 40 ? "upheld" : "rejected"},
                              {"reason", "floor decision"}};
                if (roll < 20) {
                    decision["cards"] = randomCoup();
                    decision["round"] = t.station(n).dispute->round;
                }
                send(o, decision);
                return;
            }
        }
        if (roll >= 95) {
            send(o, json{{"cmd", "reserve_release"}, {"station", station}});
        } else if (roll < 30) {
            const std::int64_t locked = lockedOr(station, allStations());
            send(o, json{{"cmd", "handpay_reset"}, {"station", locked}});
            if (host_.linked(locked) && random_() % 2 == 0) {
                remoteHandpayReset(locked);  // the host's LP 94 at the same moment
            }
        } else if (roll < 55) {
            send(o, json{{"cmd", "attendant_clear"}, {"station", station}});
        } else if (roll < 65) {
            send(o, json{{"cmd", "void_round"}, {"reason", "operator void"}});
        } else if (roll < 70) {
            send(o, json{{"cmd", "shoe_new"}});
        } else if (roll < 72) {
            json limits{{"cmd", "station_limits"}, {"station", station}};
            if (roll == 70) {
                limits["max"] = std::int64_t{20} * 100;
            }
            send(o, limits);
        } else if (roll < 76) {
            // What the module reports now: answered after its next cycle, in order with the rest.
            send(o, json{{"cmd", "io"}});
        } else if (roll < 78) {
            // A lamp test: accepted between rounds, refused (and journaled) during one.
            send(o, json{{"cmd", "lamps_test"}, {"step_ms", 100}});
        } else if (t.roundId() > 1) {
            // A re-settlement of a recent round with other cards, racing the round in play.
            const std::int64_t round = std::uniform_int_distribution<std::int64_t>(
                std::max<std::int64_t>(1, t.roundId() - 5), t.roundId())(random_);
            send(o, json{{"cmd", "resettle"}, {"round", round}, {"cards", randomCoup()}, {"reason", "video review"}});
        }
    }

    static std::vector<std::int64_t> allStations() {
        std::vector<std::int64_t> all;
        for (std::int64_t n = 1; n <= kStations; ++n) {
            all.push_back(n);
        }
        return all;
    }

    std::string randomCoup() {
        std::vector<std::string> deck;
        for (const char* suit : {"C", "D", "H", "S"}) {
            for (const char* rank : {"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"}) {
                deck.push_back(std::string(rank) + suit);
            }
        }
        std::shuffle(deck.begin(), deck.end(), random_);
        std::vector<std::string> coup;
        for (const auto& card : deck) {
            coup.push_back(card);
            if (isCompleteCoup(coup)) {
                break;
            }
        }
        std::string text;
        for (const auto& card : coup) {
            text += (text.empty() ? "" : " ") + card;
        }
        return text;
    }

    // A dealer button held for a few polls, then released; a tap on the key whose edges the
    // module counts (shorter than a poll: only its counter sees it); now and then the side door
    // opened for a while (a tilt racing the round).
    void pressButton() {
        static constexpr std::uint16_t kButtons[] = {kDealButton, kVoidButton, kKeyButton, kShoeButton,
                                                     kCountedKey, kCountedKey, kDoorSwitch};
        const std::uint16_t button = kButtons[std::uniform_int_distribution<std::size_t>(0, 6)(random_)];
        if (button == kCountedKey) {
            ++inputRegisters_[kKeyCounter];  // wraps at 65536 like the module's
            return;
        }
        if (inputs_[button] || (button == kDoorSwitch && random_() % 4 != 0)) {
            return;
        }
        inputs_[button] = true;
        pressed_[button] =
            clockMs_ + (button == kDoorSwitch ? std::uniform_int_distribution<std::int64_t>(300, 1500)(random_)
                                              : std::uniform_int_distribution<std::int64_t>(120, 300)(random_));
    }

    void releaseButtons() {
        for (auto it = pressed_.begin(); it != pressed_.end();) {
            if (it->second <= clockMs_) {
                inputs_[it->first] = false;
                it = pressed_.erase(it);
            } else {
                ++it;
            }
        }
    }

    // --- the accounting host (SAS) ---

    std::vector<sas::LinkOutput*> sasOutputs() {
        std::vector<sas::LinkOutput*> outputs;
        for (auto& line : lines_) {
            outputs.push_back(&line);
        }
        return outputs;
    }

    // Writes one poll into the station's port and returns what it answered (the host's wire).
    std::vector<std::uint8_t> poll(std::int64_t station, const std::vector<std::uint8_t>& frame) {
        SimSasLine& line = lines_[static_cast<std::size_t>(station - 1)];
        line.answer.clear();
        bool first = true;
        for (const std::uint8_t b : frame) {
            daemon_->sas()->port(station)->receive(sas::WireByte{b, first}, first);
            first = false;
        }
        return line.answer;
    }

    // The host polls its links in turn, one every 30 ms of simulated time, and acts on the
    // exceptions it reads (sim_accounting_host.h).
    void hostPolls() {
        if (clockMs_ >= nextHostPollMs_ && daemon_ != nullptr && daemon_->sas() != nullptr) {
            host_.pollNext();
            nextHostPollMs_ = clockMs_ + 30;
        }
    }

    // The host on its own initiative: LP 94 (remote hand-pay reset, racing the attendant's reset
    // on the control socket), LP 1A, LP 2E (a game delay of up to 3 s, or its end, racing the
    // stations' bets), or now and then LP 7F (its clock, mostly within the tolerance, sometimes
    // far off).
    void accountingHost() {
        const auto& linked = host_.stations();
        const std::int64_t station =
            lockedOr(linked[std::uniform_int_distribution<std::size_t>(0, linked.size() - 1)(random_)], linked);
        const int roll = std::uniform_int_distribution<int>(0, 99)(random_);
        if (roll < 45) {
            remoteHandpayReset(station);
            if (random_() % 3 == 0) {
                send(*connections_.back(), json{{"cmd", "handpay_reset"}, {"station", station}});  // the attendant too
            }
        } else if (roll < 78) {
            ++result_.sasPolls;
            host_.currentCredits(station);
        } else if (roll < 90) {
            ++result_.sasPolls;
            const int tenths = roll < 81 ? 0 : std::uniform_int_distribution<int>(1, 30)(random_);
            const std::int64_t sentMs = clockMs_;
            if (host_.delayGame(station, tenths)) {
                hostDelayUntil_[station] = tenths == 0 ? 0 : sentMs + std::int64_t{tenths} * 100;
            }
        } else {
            ++result_.sasPolls;
            const std::int64_t stationMs =
                executor_->wallMs() + daemon_->sas()->statusJson().value("clock_offset_ms", std::int64_t{0});
            const std::int64_t far = roll < 93 ? (roll % 2 == 0 ? 1 : -1) * (kClockToleranceS + 600) * 1000 : 0;
            host_.setClock(station, executor_->wallMs() + hostSkewMs_ + far, stationMs, kClockToleranceS);
        }
    }

    // LP 94: answered 00 (reset), 01 (unable) or 02 (not in a hand-pay).
    void remoteHandpayReset(std::int64_t station) {
        ++result_.sasPolls;
        host_.remoteHandpayReset(station);
    }

    // Mostly a station locked for a hand-pay among `among`, so that the attendant's reset and
    // the host's LP 94 race for it; else `fallback`.
    std::int64_t lockedOr(std::int64_t fallback, const std::vector<std::int64_t>& among) {
        std::vector<std::int64_t> locked;
        for (const std::int64_t n : among) {
            if (daemon_->table()->station(n).handpay) {
                locked.push_back(n);
            }
        }
        if (locked.empty() || random_() % 10 < 3) {
            return fallback;
        }
        return locked[std::uniform_int_distribution<std::size_t>(0, locked.size() - 1)(random_)];
    }

    // --- checks ---

    std::string path() const { return (options_.dir / "journal.db").string(); }

    void checkpoint(const std::string& where) {
        if (!result_.ok || daemon_->journal() == nullptr) {
            return;
        }
        for (const auto& c : connections_) {
            if (c->replies->duplicates() != 0) {
                fail(where + ": " + c->name + " got a reply twice");
                return;
            }
        }
        // A quiet moment (what is in flight commits), so that the daemon's committed state can be
        // compared with the journal's; the workload waits meanwhile, as if nobody played.
        for (int i = 0; i < 100 && daemon_->journal()->inFlight() > 0 && !test::PowerLoss::powerIsOff(); ++i) {
            clockMs_ += 2;
            executor_->runUntil(clockMs_);
        }
        if (test::PowerLoss::powerIsOff() || daemon_->journal()->failed()) {
            return;  // the next step restarts the daemon, and checks the journal after its recovery
        }
        CheckReport report;
        try {
            report = checker_.check(path(), test::kPowerLossVfs);
        } catch (const std::exception& error) {
            fail(where + ": the journal cannot be read: " + error.what());
            return;
        }
        if (!report.ok()) {
            std::string all;
            for (const auto& p : report.problems) {
                all += "\n    " + p;
            }
            fail(where + ": the journal does not reconcile:" + all);
            return;
        }
        result_.records = report.records;
        result_.roundsSettled = report.settledRounds;
        result_.roundsVoided = report.voidedRounds;
        const journal::Journal& j = *daemon_->journal();
        if (j.lastCommittedSeq() > 0 && !test::PowerLoss::powerIsOff()) {
            committedSeq_ = j.lastCommittedSeq();
            committedHash_ = checker_.hashAtLastCheck(committedSeq_);
            if (committedHash_.empty()) {  // committed after the check read the files
                committedHash_ = recordHash(path(), test::kPowerLossVfs, committedSeq_);
            }
        }
        if (j.inFlight() == 0 && !j.failed()) {
            // Nothing on its way: the daemon's credits are the checker's.
            for (std::int64_t s = 1; s <= kStations; ++s) {
                const auto it = report.credits.find(s);
                const std::int64_t mine = it == report.credits.end() ? 0 : it->second;
                if (j.committed().credits(s) != mine) {
                    fail(where + ": station " + std::to_string(s) + " holds " +
                         std::to_string(j.committed().credits(s)) + " credits in the daemon, " + std::to_string(mine) +
                         " by the journal's own sums");
                    return;
                }
            }
            checkMeters(where, report);
        }
        checkTickets(where, report);
    }

    // After every step, from the daemon's committed ledger (what SAS answers from): each station's
    // SAS meters balance (protocols/sas/README.md "Meters") and none has gone down since the
    // last step, across crashes too (what was committed stays committed).
    void checkMeterIdentity() {
        if (!result_.ok || daemon_ == nullptr || daemon_->journal() == nullptr) {
            return;
        }
        for (const auto& [station, account] : daemon_->journal()->committed().stations()) {
            const sas::StationSasMeters m = sas::stationSasMeters(account);
            const std::int64_t balance = m.ticketIn + m.coinOut + m.keyedOn - m.coinIn - m.cancelled - m.keyedOff;
            if (m.current != balance) {
                fail("step " + std::to_string(result_.step) + ": station " + std::to_string(station) +
                     "'s SAS meters do not balance: current credits " + std::to_string(m.current) +
                     " != " + std::to_string(balance));
                return;
            }
            const sas::StationSasMeters before = lastSasMeters_[station];
            const std::vector<std::pair<const char*, std::pair<std::int64_t, std::int64_t>>> counted{
                {"coin in", {before.coinIn, m.coinIn}},       {"coin out", {before.coinOut, m.coinOut}},
                {"jackpot", {before.jackpot, m.jackpot}},     {"cancelled", {before.cancelled, m.cancelled}},
                {"ticket in", {before.ticketIn, m.ticketIn}}, {"keyed on", {before.keyedOn, m.keyedOn}},
                {"keyed off", {before.keyedOff, m.keyedOff}}};
            for (const auto& [name, values] : counted) {
                if (values.second < values.first) {
                    fail("step " + std::to_string(result_.step) + ": station " + std::to_string(station) + "'s SAS " +
                         name + " meter went down from " + std::to_string(values.first) + " to " +
                         std::to_string(values.second));
                    return;
                }
            }
            lastSasMeters_[station] = m;
        }
    }

    // What the accounting host reads is what the journal says: current credits (LP 1A) and the
    // meters of LP 2F, each against the checker's own sums of the bet and credit records (4 BCD
    // bytes, 5 for the cents meters: what is reported keeps the low digits). And what a host
    // reconciles from its reads alone: current credits = ticket in + coin out + keyed on - coin in
    // - cancelled credits - keyed off (protocols/sas/README.md "Meters"; the denomination is 1).
    void checkMeters(const std::string& where, const CheckReport& report) {
        static const std::vector<std::uint8_t> kFirst = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0D, 0x0E};
        static const std::vector<std::uint8_t> kSecond = {0x22, 0x23, 0xFA, 0xFD};
        for (const std::int64_t s : host_.stations()) {
            const auto it = report.meters.find(s);
            const StationMeters mine = it == report.meters.end() ? StationMeters{} : it->second;
            const std::map<std::uint8_t, std::int64_t> expected{
                {0x00, mine.coinIn},    {0x01, mine.coinOut},     {0x02, mine.jackpots},
                {0x03, mine.handpaid},  {0x04, mine.cancelled},   {0x05, mine.gamesPlayed},
                {0x06, mine.gamesWon},  {0x07, mine.gamesLost},   {0x0D, mine.ticketIn},
                {0x0E, mine.ticketOut}, {0x22, mine.settledPaid}, {0x23, mine.handpaid + mine.jackpots},
                {0xFA, mine.keyedOn},   {0xFD, mine.keyedOff}};
            const auto credits = host_.currentCredits(s);
            auto meters = host_.meters(s, kFirst);
            const auto more = host_.meters(s, kSecond);
            ++result_.meterChecks;
            if (!credits || !meters || !more) {
                return;  // the host reported what was wrong
            }
            meters->insert(more->begin(), more->end());
            const std::int64_t current = mine.credits + mine.inPlay;
            if (*credits != current % 100'000'000) {
                fail(where + ": station " + std::to_string(s) + "'s SAS current credits meter reads " +
                     std::to_string(*credits) + ", the journal's own sums say " + std::to_string(current) + " (" +
                     std::to_string(mine.credits) + " and " + std::to_string(mine.inPlay) + " in play)");
                return;
            }
            for (const auto& [code, value] : expected) {
                const std::int64_t modulus = code == 0x0D || code == 0x0E ? 10'000'000'000 : 100'000'000;
                if (meters->at(code) != value % modulus) {
                    fail(where + ": station " + std::to_string(s) + "'s SAS meter " + std::to_string(code) + " reads " +
                         std::to_string(meters->at(code)) + ", the journal's own sums say " + std::to_string(value));
                    return;
                }
            }
            const auto& m = *meters;
            const std::int64_t in = m.at(0x0D) + m.at(0x01) + m.at(0xFA);
            const std::int64_t out = m.at(0x00) + m.at(0x04) + m.at(0xFD);
            if (*credits != in - out) {
                fail(where + ": station " + std::to_string(s) + "'s SAS meters do not reconcile: current credits " +
                     std::to_string(*credits) + " != " + std::to_string(in) + " in - " + std::to_string(out) + " out");
                return;
            }
        }
    }

    // Every ticket the journal credited through the host is one the host accepted, for its
    // amount; every ticket printed at a linked station carries a number the host gave that
    // station for that amount; a station without a link prints none.
    void checkTickets(const std::string& where, const CheckReport& report) {
        for (const TicketRecord& t : report.ticketsIn) {
            if (!t.host) {
                continue;
            }
            const auto it = host_.accepted().find(t.validation);
            if (it == host_.accepted().end() || it->second != t.amount) {
                fail(where + ": station " + std::to_string(t.station) + " credited ticket " + t.validation + " for " +
                     std::to_string(t.amount) + ", which the host did not accept for that");
                return;
            }
        }
        for (const TicketRecord& t : report.ticketsOut) {
            const auto it = host_.validated().find(t.validation);
            if (it == host_.validated().end() || it->second.first != t.station || it->second.second != t.amount) {
                fail(where + ": station " + std::to_string(t.station) + " printed ticket " + t.validation + " for " +
                     std::to_string(t.amount) + ", which the host did not validate for it");
                return;
            }
        }
    }

    // The end: every request answered once everything has committed, then the journal checked.
    // Time passes until every request is answered and nothing is in flight, then until the host
    // has read what is left (what it does raises more: 3D for the next record, 68).
    void drain() {
        for (int i = 0; i < 2000 && result_.ok; ++i) {
            clockMs_ += 10;
            executor_->runUntil(clockMs_);
            releaseButtons();
            hostPolls();
            bool answered = true;
            for (const auto& c : connections_) {
                answered = answered && c->awaiting.empty();
            }
            if (answered && daemon_->journal()->inFlight() == 0) {
                break;
            }
        }
        if (test::PowerLoss::powerIsOff() || daemon_->journal()->failed()) {
            return;  // the process is restarted; what it had not answered goes with it
        }
        for (const auto& c : connections_) {
            if (!c->awaiting.empty()) {
                fail(c->name + ": request " + std::to_string(c->awaiting.front().id) + " (" + c->awaiting.front().op +
                     ") never answered");
                return;
            }
        }
        // The host reads what is left; what it does raises more (3D for the next record, 68), once
        // committed: time passes until nothing is left.
        for (int i = 0; i < 500; ++i) {
            const bool any = host_.drain();
            clockMs_ += 20;
            executor_->runUntil(clockMs_);
            if (!any && daemon_->journal()->inFlight() == 0 && !host_.drain()) {
                break;
            }
        }
    }

    void finish() {
        // No new faults at the end: one armed in the last steps that has not struck is forgotten;
        // one that struck (the power cut, a commit failed) is restarted from as a step would,
        // so that the end's checks read a journal a running daemon has recovered.
        test::PowerLoss::disarm();
        drain();
        if (result_.ok && (test::PowerLoss::powerIsOff() || daemon_->journal()->failed())) {
            crash(test::PowerLoss::powerIsOff() ? "power cut at the end" : "restart after a failed commit at the end",
                  1.0);
            drain();
        }
        if (!result_.ok) {
            return;
        }
        checkpoint("end");
        if (!result_.ok) {
            return;
        }
        // Every ticket the journal credited through the host has reached its final status at the
        // host (68, LP 71 FF: 00), restarts or not: none stays pending for ever.
        // Every ticket printed has reached the host's database (3D, LP 4D), restarts or not.
        const CheckReport report = checker_.check(path(), test::kPowerLossVfs);
        for (const TicketRecord& t : report.ticketsIn) {
            if (t.host && !host_.redeemed().contains(t.validation)) {
                fail("end: ticket " + t.validation + " was credited at station " + std::to_string(t.station) +
                     " but the host never learnt that it was redeemed");
                return;
            }
        }
        for (const TicketRecord& t : report.ticketsOut) {
            if (!host_.knows(t.validation)) {
                fail("end: ticket " + t.validation + " was printed at station " + std::to_string(t.station) +
                     " but the host never read its record");
                return;
            }
        }
    }

    void fail(const std::string& what) {
        if (!result_.ok) {
            return;
        }
        result_.ok = false;
        result_.failure = "seed " + std::to_string(options_.seed) + ", step " + std::to_string(result_.step) + " (" +
                          std::to_string(clockMs_) + " ms simulated): " + what;
    }

    SimOptions options_;
    std::mt19937_64 random_;
    game::SeededRandom tableRandom_;
    bool hostRedeems_;
    std::vector<SimSasLine> lines_;  // station n's line is lines_[n - 1]
    SimAccountingHost host_;
    std::int64_t hostSkewMs_;  // the casino's clock against the controller's
    std::int64_t nextHostPollMs_ = 0;
    std::map<std::int64_t, std::int64_t> hostDelayUntil_;
    std::map<std::int64_t, const char*> lastSpot_;  // each station's last spot bet
    std::map<std::int64_t, sas::StationSasMeters>
        lastSasMeters_;  // each station's, after the last step  // station -> end of its LP 2E delay (simulated ms)
    config::Config config_;
    game::Paytable paytable_;
    std::unique_ptr<SimExecutor> executor_;
    std::shared_ptr<bool> powerOff_;
    std::unique_ptr<app::Daemon> daemon_;
    bool ready_ = false;
    std::int64_t clockMs_ = 0;
    std::vector<std::shared_ptr<Connection>> connections_;
    std::map<std::uint16_t, bool> inputs_;
    std::map<std::uint16_t, std::uint16_t> inputRegisters_;  // the module's edge counters
    std::map<std::uint16_t, std::int64_t> pressed_;          // button -> when it is released
    std::vector<std::string> shoe_;
    std::size_t next_ = 0;
    std::set<std::string> seen_;
    std::int64_t dealerRound_ = 0;
    std::int64_t tickets_ = 0;
    std::int64_t committedSeq_ = 0;
    std::string committedHash_;
    JournalChecker checker_;  // one for the run: each check feeds it what was added since the last
    SimResult result_;
};

}  // namespace

SimResult runSimulation(const SimOptions& options) {
    Simulation simulation(options);
    return simulation.run();
}

}  // namespace pitlink::sim
