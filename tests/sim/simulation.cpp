#include "tests/sim/sim_run.h"

namespace pitlink::sim {

std::vector<std::int64_t> sasStationsFor(bool hostRedeems) {
    return hostRedeems ? std::vector<std::int64_t>{1, 2, 3, 4, 5, 6} : std::vector<std::int64_t>{1, 2, 3};
}

std::vector<std::string> simGames(std::uint64_t seed) {
    std::vector<std::string> games{"sim-table"};
    for (std::uint64_t i = 0; i < (seed / 2) % 4; ++i) {
        games.push_back("rng-" + std::to_string(i + 2));
    }
    return games;
}

// The simulated table: a reader (the dealer connection reports the cards) with a one-deck shoe,
// so that shoes end often and a card seen before is impossible; a low ticket limit, so that
// cash-outs become hand-pays; the lamps and buttons on a Modbus module. Two limit levels: the
// stations switch between them (limit_level) and an operator sets and clears players' own limits
// (station_limits), racing bets. Odd seeds play seed 002's multiplayer mode: bets not confirmed
// when bets close go back in the close's transaction, racing the confirmations and the changes
// after them. Beside the live game, the seed's RNG games (simGames) with one-deck shoes. Every game
// under game protection (simProtectionYaml): side bets closed by their edge, and bets racing the
// edge's computation on the worker.
std::string configYaml(const std::filesystem::path& dir, std::uint64_t seed) {
    const bool hostRedeems = seed % 2 == 0;
    const bool confirmBets = seed % 2 == 1;
    const std::vector<std::string> names = simGames(seed);
    std::string games;
    if (names.size() > 1) {
        games = "games:\n  - name: " + names.front() + "\n";
        for (std::size_t i = 1; i < names.size(); ++i) {
            games += "  - name: " + names[i] +
                     "\n    source: rng\n"
                     "    rounds: {bets_open_ms: " +
                     std::to_string(1500 + 500 * i) + ", last_bets_ms: 500, start: timer}\n";
        }
    }
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
           "  confirm_bets: " +
           std::string(confirmBets ? "true" : "false") +
           "\n"
           "bets:\n"
           "  levels:\n"
           "    - {min: 100, max: 500000}\n"
           "    - {min: 1000, max: 200000}\n" +
           games +
           "cashier:\n"
           "  ticket_limit: 30000\n"
           "  jackpot_limit: " +
           std::to_string(kJackpotLimit) +
           "\n"
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
           "  legacy_bonus: true\n"
           "  aft: {enabled: true, bonus: true, host_cashout_wait_ms: 1000, transfer_limit: " +
           std::to_string(kAftTransferLimit) +
           "}\n"
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
           "    - {name: side_door, discrete_input: 4, door: side}\n" +
           simProtectionYaml();
}

Simulation::Simulation(const SimOptions& options)
    : options_(options),
      random_(options.seed),
      tableRandom_(options.seed * 7919 + 1),
      hostRedeems_(options.seed % 2 == 0),
      games_(simGames(options.seed)),
      lines_(sasStationsFor(hostRedeems_).size()),
      host_(
          sasStationsFor(hostRedeems_), random_,
          [this](std::int64_t station, const std::vector<std::uint8_t>& frame) { return poll(station, frame); },
          [this](const std::string& what) { fail(what); }),
      aft_(
          sasStationsFor(hostRedeems_), kAftTransferLimit, kJackpotLimit, random_,
          [this](std::int64_t station, const std::vector<std::uint8_t>& frame) { return host_.send(station, frame); },
          [this](const std::string& what) { fail(what); }),
      hostSkewMs_(std::uniform_int_distribution<std::int64_t>(-1'800'000, 1'800'000)(random_)) {
    host_.onOtherException(
        [this](std::int64_t station, std::uint8_t code) { aft_.onException(station, code, clockMs_); });
    aft_.onHardOffer([this](std::int64_t station) { return raceHardOffer(station); });
    test::registerPowerLossVfs();
    test::PowerLoss::reset();
    std::filesystem::create_directories(options_.dir);
    std::filesystem::remove(options_.dir / "journal.db");
    std::filesystem::remove(options_.dir / "journal.db-wal");
    std::filesystem::remove(options_.dir / "journal.db-shm");
    std::filesystem::remove_all(options_.dir / "journal.db.segments");
    std::istringstream yaml(configYaml(options_.dir, options_.seed));
    config_ = config::loadConfig(yaml, options_.dir / "pitlink.yaml");
    // Segments of a few hundred rounds' records: several rotations in every run, racing the
    // requests of the rounds around them, some cut by a crash.
    config_.journal.segmentMaxBytes = 150'000;
    // Reservations that time out within a run (the configuration's least is a minute), racing
    // the players' own releases and the operator's.
    config_.table.reserveTimeout = std::chrono::seconds(5);
    // Seed 000's Denomination button: a station may play credits of 1.00 (its stakes are
    // multiples of 100; its 10-cent tips are then refused, journaled with their rule).
    config_.table.denominations = {1, 100};
    paytable_ = config::loadPaytableFile(config::firstGamePaytable(config_));
    spdlog::set_level(options_.verbose ? spdlog::level::info : spdlog::level::off);
}

Simulation::~Simulation() {
    checker_.close();  // before the power-loss VFS that its connections read through is reset
    powerOff();        // nothing more of this run reaches the file
    daemon_.reset();
    executor_.reset();
    test::PowerLoss::reset();
}

SimResult Simulation::run() {
    boot();
    while (result_.ok && result_.requests < options_.requests) {
        ++result_.step;
        try {
            step();
        } catch (const std::exception& e) {
            // What would end pitlinkd (systemd restarts it): a failure of the run, with its seed.
            fail("step " + std::to_string(result_.step) + ": an exception escaped the daemon: " + e.what());
            break;
        }
        checkMeterIdentity();
        if (result_.ok && result_.step % options_.checkEvery == 0) {
            checkpoint("checkpoint");
        }
    }
    if (result_.ok) {
        finish();
    }
    // What the last process's controller held (each crash added its own before it went).
    result_.openingsHeld += daemon_ != nullptr ? daemon_->openingsHeld() : 0;
    result_.simulatedMs = clockMs_;
    const HostStats& host = host_.stats();
    result_.hostExceptions = host.exceptions;
    result_.cashoutsValidated = host.cashoutsValidated;
    result_.gamesSelected = host.gamesSelected;
    result_.gameReads = host.gameReads;
    result_.ticketsRedeemed = host.ticketsRedeemed;
    result_.clockSets = host.clockSets;
    result_.resends = host.resends;
    const AftHostStats& aft = aft_.stats();
    result_.aftTransfers = aft.full + aft.partial;
    result_.aftPartial = aft.partial;
    result_.aftRefused = aft.refused;
    result_.aftCutByRestart = aft.unexpected;
    result_.aftRepeatsAnswered = aft.repeatsAnswered;
    result_.aftUnanswered = aft.unanswered;
    result_.aftLockedCashouts = aft.lockedCashouts;
    result_.aftHistoryReads = aft.historyReads;
    result_.aftRegistrations = aft.registrations;
    result_.aftRegistrationsUnanswered = aft.registrationsUnanswered;
    result_.aftAssetsSet = aft.assetsSet;
    result_.aftHostCashoutsTaken = aft.hostCashoutsTaken;
    result_.aftHardOffersRaced = aft.hardOffersRaced;
    result_.aftHardOffersEmpty = aft.hardOffersEmpty;
    result_.aftBonusJackpotsHandpaid = aft.bonusJackpotsHandpaid;
    return result_;
}

void Simulation::boot() {
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
            // goes there (what is not synced may be lost) and nothing after it runs. Not at the
            // end (finish: no new faults), where the RNG games still deal and rotate.
            if (!ending_ && random_() % 6 == 0) {
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
    if (games_.size() > 1) {
        // The dealer deals the live game; the stations' connections serve every game.
        send(*connections_[0], json{{"op", "hello"}, {"games", json::array({games_.front()})}, {"role", "dealer"}});
        for (std::size_t i = 1; i < 4; ++i) {
            send(*connections_[i], json{{"op", "hello"}, {"games", games_}, {"role", "stations"}});
        }
    }
    dealerRound_ = 0;
    justBooted_ = true;
    dealerRestarted_ = true;
    host_.restarted();
    aft_.restarted();         // every lock is released at a start
    hostDelayUntil_.clear();  // a game delay is not journaled: a restart ends it
}

std::shared_ptr<Connection> Simulation::connection(std::string name, bool control, std::vector<std::int64_t> stations) {
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

void Simulation::powerOff() {
    if (powerOff_) {
        *powerOff_ = true;
    }
}

void Simulation::step() {
    // Time passes: commits complete, timers fire, the module is polled.
    clockMs_ += std::uniform_int_distribution<std::int64_t>(0, 12)(random_);
    executor_->runUntil(clockMs_);
    releaseButtons();
    noteTilts();
    const std::int64_t pendingSeen = aft_.stats().pendingSeen;
    const std::int64_t registrationsAnswered = aft_.stats().registrationsAnswered;
    hostPolls();
    if (!result_.ok) {
        return;
    }
    if (options_.faults && aft_.stats().pendingSeen > pendingSeen) {
        // The host was just told a transfer is pending (40): its end is committing. The power
        // goes now: after the restart it ends as it committed, or 9F with nothing moved.
        ++result_.aftCrashes;
        crash("power cut with a transfer pending", 0.5);
        return;
    }
    if (options_.faults && aft_.stats().registrationsAnswered > registrationsAnswered &&
        std::uniform_int_distribution<int>(0, 3)(random_) == 0) {
        // The host was just answered an LP 73 change or an LP B7 asset number: what it was told
        // of must be there after the restart (the station answers a change once it is durable).
        ++result_.registrationCrashes;
        crash("power cut with a registration change just answered", 0.5);
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
    } else if (roll < 9650) {
        accountingHost();
    } else if (roll < 9850) {
        aftHost();
    } else {
        pressButton();
    }
}

SimResult runSimulation(const SimOptions& options) {
    Simulation simulation(options);
    return simulation.run();
}

}  // namespace pitlink::sim
