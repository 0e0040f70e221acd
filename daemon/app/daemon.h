#pragma once
// pitlinkd's composition root: every part of the daemon, started in the order of docs/design.md
// ("Start-up and shutdown") and stopped in reverse. pitlinkd runs it on Asio with threads and
// sockets (pitlinkd_main.cpp); the simulation tier (tests/sim) runs the very same parts on a simulated
// executor, with simulated workers, SAS hosts and Modbus module, and no sockets.
//
// Start-up: configuration (given) -> journal opened, state rebuilt from its snapshots -> integrity
// scan on a worker (nothing is written until it passed) -> unfinished round finished, start-up
// journaled -> writer -> table -> Modbus table I/O -> SAS floor -> engine link -> journal reader
// and control -> rounds -> ready. Stop: Modbus, SAS (queues journaled), meters snapshot, writer.
#include <nlohmann/json.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/app/journal_startup.h"
#include "daemon/config/config.h"
#include "daemon/control/control_commands.h"
#include "daemon/engine/engine_requests.h"
#include "daemon/game/paytable.h"
#include "daemon/game/random_source.h"
#include "daemon/journal/journal.h"
#include "daemon/journal/journal_writer.h"
#include "daemon/journal/read/journal_reader.h"
#include "daemon/journal/segments/sealed_check.h"
#include "daemon/journal/store/integrity_scan.h"
#include "daemon/modbus/modbus_worker.h"
#include "daemon/modbus/table_io.h"
#include "daemon/platform/executor.h"
#include "daemon/platform/worker.h"
#include "daemon/sas/sas_floor.h"
#include "daemon/sas/table_clock.h"
#include "daemon/table/table.h"

namespace boost::asio {
class io_context;
}

namespace pitlink::engine {
class EngineLink;
}
namespace pitlink::control {
class ControlServer;
}

namespace pitlink::app {

// What the daemon gets from the machine it runs on; the simulation tier gives its own.
struct DaemonWorld {
    platform::Executor& executor;
    game::RandomSource& random;                                 // the RNG shoe's (getrandom in pitlinkd)
    boost::asio::io_context* io = nullptr;                      // sockets and SAS ports; null: none (simulation)
    std::function<std::unique_ptr<platform::Worker>()> worker;  // for blocking work: a thread each
    // Each of the table's I/O modules (modules on one serial port share it).
    std::function<std::unique_ptr<modbus::ModbusDevice>(const modbus::ModuleSettings&)> modbusDevice;
    std::vector<sas::LinkOutput*> sasOutputs;  // one per configured link instead of its port (simulation)
    const char* journalVfs = nullptr;          // SQLite VFS of every journal connection (simulation)
    bool idleBackground = false;               // background checks at the idle CPU and I/O class (pitlinkd)
};

// What the daemon tells whoever runs it.
struct DaemonHooks {
    std::function<void(const std::string& why)> tilt;           // the table does not run, or stopped
    std::function<void(const std::string& status)> status;      // systemd STATUS=
    std::function<void(const std::string& status)> ready;       // up (READY=1), even in tilt
    std::function<void(const table::TableEvent& event)> event;  // every table event
    // Each step of a journal rotation, on the writer's thread (the simulation tier crashes there).
    std::function<void(std::string_view step)> rotationStep;
};

class Daemon {
public:
    Daemon(config::Config config, game::Paytable paytable, std::string configText, DaemonWorld world,
           DaemonHooks hooks);
    ~Daemon();
    Daemon(const Daemon&) = delete;
    Daemon& operator=(const Daemon&) = delete;

    // The RNG shoe deals at most `rounds` rounds (pitlinkd --rounds N); 0: no limit. Before start().
    // What scheduling the logic thread got (main applies it; `status` shows it).
    void setScheduling(std::string description, bool realTime) {
        scheduling_ = std::move(description);
        realTime_ = realTime;
    }
    void setRoundLimit(std::uint64_t rounds) { roundLimit_ = rounds; }
    // Opens the journal and starts its integrity scan; the rest follows when the scan has passed.
    void start();
    // SIGTERM: the round in progress ends safely (Table::shutdown); `done` once everything
    // submitted has committed. At once when the table never ran.
    void shutdown(std::function<void(const std::string& verdict)> done);
    // SIGHUP with the configuration and paytable read again.
    void reload(const config::Config& fresh, const game::Paytable& freshPaytable, const std::string& freshText);
    // The orderly stop, in reverse: Modbus, SAS (queues journaled), meters snapshot, writer. Idempotent.
    void stop();

    // The parts, once made (null before, or when the table does not run).
    // The first game (the stations' wallet requests go to it), and every game in config order.
    [[nodiscard]] table::Table* table() { return games_.empty() ? nullptr : games_.front().get(); }
    // Openings a due rotation held until no game was in a round, since start (Controller).
    [[nodiscard]] std::int64_t openingsHeld() const { return controller_ ? controller_->openingsHeld() : 0; }
    [[nodiscard]] const std::vector<std::unique_ptr<table::Table>>& games() const { return games_; }
    [[nodiscard]] journal::Journal* journal() { return journal_ ? &*journal_ : nullptr; }
    [[nodiscard]] engine::EngineRequests* engine() { return engine_ ? &*engine_ : nullptr; }
    [[nodiscard]] control::ControlCommands* control() { return control_ ? &*control_ : nullptr; }
    [[nodiscard]] sas::SasFloor* sas() { return sas_ ? &*sas_ : nullptr; }
    [[nodiscard]] modbus::TableIo* tableIo() { return tableIo_ ? &*tableIo_ : nullptr; }
    [[nodiscard]] const config::Config& config() const { return config_; }
    [[nodiscard]] nlohmann::json statusJson() const;

private:
    std::string scheduling_ = "not set up (simulation)";
    bool realTime_ = false;
    // The start-up steps, in order.
    void openJournal();
    void checkSealedSegments();
    [[nodiscard]] nlohmann::json segmentsJson() const;
    void scanIntegrity();
    void resume(const journal::IntegrityResult& scan);
    void startWriter();
    void startTable();
    void logShoe();  // what became of the shoe in play (resumed, or why not)
    void startModbus();
    void startSas(sas::SasResume resume);
    void startEngineLink();
    [[nodiscard]] std::vector<table::Table*> gamePointers() const;  // each game, in config order
    void startControl();
    void startRounds();

    void onEvent(const table::Table& game, const table::TableEvent& event);
    void tilt(const std::string& why);

    config::Config config_;
    game::Paytable paytable_;
    std::string configText_;
    DaemonWorld world_;
    DaemonHooks hooks_;
    sas::TableClock clock_;  // the journal's: the system clock corrected by the host (LP 7F)
    bool stopped_ = false;
    std::uint64_t roundLimit_ = 0;

    // In start-up order: destroyed in reverse.
    std::optional<JournalStartup> startup_;
    std::optional<journal::IntegrityScan> scan_;
    std::optional<journal::SealedSegmentsCheck> sealedCheck_;
    std::string sealedVerdict_;       // of the sealed segments' check: "running", "passed", or the failure
    std::int64_t sealedAtStart_ = 0;  // sealed segments found at start (status adds the rotations since)
    std::int64_t scanStartedMs_ = 0;
    std::optional<journal::JournalWriter> writer_;
    std::optional<journal::Journal> journal_;
    std::optional<table::Controller> controller_;       // what the games share: wallets, numbers
    std::deque<game::Paytable> otherPaytables_;         // games' paytables that are not the first's
    std::vector<const game::Paytable*> gamePaytables_;  // each game's, in config order
    std::vector<std::unique_ptr<table::Table>> games_;
    std::vector<std::unique_ptr<modbus::ModbusWorker>> modbusWorkers_;  // one per module
    std::optional<modbus::TableIo> tableIo_;
    std::optional<sas::SasFloor> sas_;
    std::optional<engine::EngineRequests> engine_;
    std::unique_ptr<engine::EngineLink> engineLink_;
    std::optional<journal::JournalReader> reader_;
    std::optional<control::ControlCommands> control_;
    std::unique_ptr<control::ControlServer> controlServer_;
};

}  // namespace pitlink::app
