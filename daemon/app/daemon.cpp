#include "daemon/app/daemon.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "daemon/app/config_effects.h"
#include "daemon/app/segment_carry.h"
#include "daemon/config/config_error.h"
#include "daemon/config/paytable_loader.h"
#include "daemon/control/control_server.h"
#include "daemon/engine/engine_link.h"
#include "daemon/io/event_line.h"
#include "daemon/journal/records/start_records.h"
#include "daemon/journal/store/chain_hasher.h"
#include "daemon/sas/machine_info.h"
#include "daemon/sas/sas_resume.h"
#include "protocols/modbus/modbus_backend.h"

namespace pitlink::app {

using nlohmann::json;

namespace {

// "shoe 2 round 5: Player 9S 2H KD (1) | Banker 4C 5D (9) -> banker (round #87)"
void logResult(const table::RoundSettled& e) {
    spdlog::info("shoe {} round {}: Player {} ({}) | Banker {} ({}) -> {} (round #{})", e.shoe, e.roundInShoe,
                 fmt::join(e.player.cardNames(), " "), e.outcome.playerTotal, fmt::join(e.banker.cardNames(), " "),
                 e.outcome.bankerTotal, game::winnerName(e.outcome.winner), e.round);
    if (e.statistics) {
        const game::ShoeStatistics& st = *e.statistics;
        spdlog::info(
            "shoe {}: cut card out after round {}, {} cards left; Banker {}, Player {}, Tie {}, "
            "Banker pairs {}, Player pairs {}, naturals {}",
            e.shoe, e.roundInShoe, e.cardsLeft, st.bankerWins, st.playerWins, st.ties, st.bankerPairs, st.playerPairs,
            st.naturals);
    }
}

}  // namespace

Daemon::Daemon(config::Config config, game::Paytable paytable, std::string configText, DaemonWorld world,
               DaemonHooks hooks)
    : config_(std::move(config)),
      paytable_(std::move(paytable)),
      configText_(std::move(configText)),
      world_(std::move(world)),
      hooks_(std::move(hooks)),
      clock_(world_.executor) {
    // Each game's paytable: the first's as given (`paytable`, read from the first game's file),
    // another file's read here, before anything starts (its errors are the configuration's).
    gamePaytables_.push_back(&paytable_);
    for (std::size_t i = 1; i < config_.games.size(); ++i) {
        const std::filesystem::path& file = config_.games[i].paytableFile;
        gamePaytables_.push_back(file == config::firstGamePaytable(config_)
                                     ? &paytable_
                                     : &otherPaytables_.emplace_back(config::loadPaytableFile(file)));
    }
}

Daemon::~Daemon() {
    // Without stop() (a crash in the simulation tier): the parts go in reverse order, nothing more
    // is journaled. The table first forgets the floor that is about to go.
    if (controller_) {
        controller_->setTicketSystem(nullptr);
        controller_->setCommitObserver(nullptr);
    }
}

void Daemon::start() {
    openJournal();
    if (!startup_->recovery.ok()) {
        tilt(*startup_->recovery.tilt);
        hooks_.ready("TILT: " + *startup_->recovery.tilt);
        return;
    }
    scanIntegrity();
}

void Daemon::openJournal() {
    startup_.emplace(app::openJournal(
        config_, [this] { return clock_.nowMs(); }, world_.journalVfs));
    const journal::RecoveryReport& recovery = startup_->recovery;
    if (recovery.ok()) {
        spdlog::info(
            "journal {}: schema {}, state rebuilt from record {} ({} records checked, {} meter "
            "snapshots compared); integrity scan running, no bets until it passes",
            config_.journal.path.string(), startup_->store->schemaVersion(), recovery.chain.from,
            recovery.chain.checked, recovery.snapshotsCompared);
    }
}

void Daemon::scanIntegrity() {
    if (hooks_.status) {
        hooks_.status("journal integrity scan");
    }
    scanStartedMs_ = world_.executor.nowMs();  // timed on the executor's clock (docs/design.md rule 7)
    scan_.emplace(config_.journal.path.string(), startup_->readOptions, config_.journal.fullChainCheckAtStart,
                  world_.worker(), world_.executor, [this](const journal::IntegrityResult& result) {
                      resume(result);
                      if (games_.empty()) {
                          hooks_.ready("TILT: the table does not run");  // up, so not restarted in a loop
                      }
                  });
}

void Daemon::resume(const journal::IntegrityResult& scan) {
    if (!scan.ok()) {
        tilt(*scan.failure);
        return;
    }
    spdlog::info("journal integrity scan passed in {:.2f} s: quick_check {}{}",
                 static_cast<double>(world_.executor.nowMs() - scanStartedMs_) / 1000.0, scan.quickCheck,
                 scan.chain ? fmt::format(", whole chain ({} records)", scan.chain->checked) : "");
    startup_->facts = journal::resumeFacts(*startup_->store, config::firstGameName(config_));
    sas::SasResume sasResume = sas::resumeSas(*startup_->store);
    clock_.setOffsetMs(startup_->facts.clockOffsetMs);
    resumeJournal(*startup_, scan, config_, gamePaytables_, configText_, [this] { return clock_.nowMs(); });
    const journal::RecoveryReport& recovery = startup_->recovery;
    for (const std::string& action : recovery.actions) {
        spdlog::warn("recovery: {}", action);
    }
    if (!recovery.ok()) {
        tilt(*recovery.tilt);
        return;
    }
    startWriter();
    startTable();
    logShoe();
    startModbus();
    startSas(std::move(sasResume));
    startEngineLink();
    startControl();
    startRounds();
    checkSealedSegments();
    if (tableIo_) {
        tableIo_->tableReady();  // the lamps leave the safe image: the table answers now
    }
    hooks_.ready(fmt::format("table '{}' running ({} shoe, {} stations)", config_.table.name,
                             config_.table.rngShoe ? "rng" : "reader", config_.table.stations));
}

void Daemon::checkSealedSegments() {
    const std::size_t sealed = journal::SegmentFiles(config_.journal.path).sealed().size();
    sealedAtStart_ = static_cast<std::int64_t>(sealed);
    if (sealed == 0) {
        return;
    }
    sealedVerdict_ = "running";
    spdlog::info("journal: {} sealed segments trusted by their seals; checking them in the background", sealed);
    sealedCheck_.emplace(config_.journal.path.string(), startup_->readOptions, world_.worker(), world_.idleBackground,
                         world_.executor, [this](const journal::SealedCheckResult& result) {
                             if (result.ok()) {
                                 sealedVerdict_ = "passed";
                                 spdlog::info("journal: {} sealed segments checked ({} records): sound",
                                              result.segments, result.records);
                                 return;
                             }
                             sealedVerdict_ = *result.failure;
                             for (const auto& game : games_) {
                                 game->raiseTilt("journal_segment", *result.failure);
                             }
                         });
}

void Daemon::startWriter() {
    const journal::SegmentPolicy policy = segmentPolicy(config_);
    const std::int64_t segmentStart = startup_->store->firstAtMs().value_or(clock_.nowMs());
    std::error_code error;
    const auto bytes = std::filesystem::file_size(config_.journal.path, error);
    writer_.emplace(std::move(startup_->store), world_.worker(), world_.executor);
    if (policy.enabled()) {
        writer_->setRotation(std::make_unique<journal::SegmentRotation>(
            config_.journal.path.string(), startup_->writeOptions,
            [first = config::firstGameName(config_)](journal::JournalStore& sealing, std::int64_t atMs) {
                return app::carryOverFor(sealing, atMs, first);
            },
            hooks_.rotationStep));
    }
    journal_.emplace(
        *writer_, startup_->recovery.ledger, [this] { return clock_.nowMs(); }, config_.journal.snapshotEvery);
    journal_->setSegmentPolicy(policy, segmentStart, error ? 0 : static_cast<std::int64_t>(bytes));
}

void Daemon::startTable() {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < std::max<std::size_t>(config_.games.size(), 1); ++i) {
        names.push_back(gameSettings(config_, i).name);
    }
    const table::TableSettings first = gameSettings(config_, 0);
    controller_.emplace(first.stations, first.denominations, startup_->resume, names);
    for (std::size_t i = 0; i < names.size(); ++i) {
        auto game = std::make_unique<table::Table>(*journal_, *controller_, *gamePaytables_[i],
                                                   gameSettings(config_, i), world_.executor, world_.random,
                                                   gameStart(*startup_, names[i]), table::Publish{});
        table::Table& ref = *game;
        game->setPublish([this, &ref](const table::TableEvent& e) { onEvent(ref, e); });
        game->setRoundLimit(roundLimit_);
        if (config_.protection.enabled) {
            game->enableProtection(world_.worker());  // a worker of its own: the edges take milliseconds
        }
        games_.push_back(std::move(game));
    }
}

void Daemon::logShoe() {
    for (std::size_t i = 0; i < games_.size(); ++i) {
        const table::Table& game = *games_[i];
        const table::TableSettings settings = gameSettings(config_, i);
        const std::optional<journal::ShoeInPlay> shoe = startup_->facts.game(game.name()).shoe;
        const bool reader = settings.source == table::CardSource::Reader;
        if (game.shoeResumed()) {
            spdlog::info("{}: shoe {} resumed: round {} of the shoe dealt, {} cards left{}", game.name(), shoe->shoe,
                         shoe->roundInShoe, shoe->left.total(),
                         shoe->cutCardOut() ? "; its cut card is out: a new shoe is due" : "");
        } else if (shoe && reader) {
            spdlog::warn("{}: shoe {} of the journal has {} decks, the configuration {}: report a new shoe",
                         game.name(), shoe->shoe, shoe->decks, settings.shoe.decks);
        } else if (reader) {
            spdlog::info("{}: no shoe in play to resume: report a new shoe", game.name());
        } else {
            spdlog::info("{}: RNG shoe: a new shoe is shuffled for the first round (a shoe's order is never journaled)",
                         game.name());
        }
    }
}

void Daemon::startModbus() {
    if (!config_.modbus.enabled) {
        return;
    }
    // The module need not answer yet: the table runs without it.
    // A worker thread per module: one that does not answer delays only its own lamps and inputs.
    for (const modbus::ModuleSettings& module : config_.modbus.modules) {
        modbusWorkers_.push_back(
            std::make_unique<modbus::ModbusWorker>(world_.modbusDevice(module), world_.worker(), world_.executor));
    }
    tableIo_.emplace(config_.modbus, gamePointers(), *journal_, world_.executor,
                     [this](std::size_t module, modbus::CycleRequest request, modbus::ModbusWorker::Done done) {
                         modbusWorkers_.at(module)->submit(std::move(request), std::move(done));
                     });
    tableIo_->holdSafeImage();  // until the whole daemon is up
    tableIo_->start();
    for (std::size_t i = 0; i < config_.modbus.modules.size(); ++i) {
        const modbus::ModuleSettings& module = config_.modbus.modules[i];
        const modbus::ModulePoints points = modbus::pointsOf(config_.modbus, i);
        spdlog::info("modbus: module {} on {}: {} lamps, {} inputs, polled every {} ms, {}", module.name,
                     modbus::describe(module.connection), points.map.outputs.size(), points.map.inputs.size(),
                     config_.modbus.poll.count(),
                     module.watchdog.count() > 0 ? fmt::format("its watchdog {} ms", module.watchdog.count())
                                                 : std::string("no watchdog"));
    }
}

void Daemon::startSas(sas::SasResume resume) {
    if (config_.sas.links.empty()) {
        return;
    }
    sas_.emplace(config_.sas, sas::machineInfo(config_, paytable_, gamePaytables_), *table(), *journal_,
                 world_.executor, clock_, std::move(resume), world_.io, world_.sasOutputs, world_.worker);
    controller_->setTicketSystem(&*sas_);
    controller_->setCommitObserver(&*sas_);
    try {
        sas_->start();
    } catch (const std::system_error& e) {
        throw config::ConfigError(config_.file.string(), 0, 0, "sas.stations", e.what());
    }
    for (const sas::StationLinkSettings& link : config_.sas.links) {
        spdlog::info("SAS: station {} at address {} on {} ({})", link.station, link.address, link.transport.device,
                     sas::transportModeName(link.transport.mode));
    }
}

std::vector<table::Table*> Daemon::gamePointers() const {
    std::vector<table::Table*> games;
    for (const auto& game : games_) {
        games.push_back(game.get());
    }
    return games;
}

void Daemon::startEngineLink() {
    // The journal reader answers the engine link's bet lists and the control socket's reads.
    reader_.emplace(config_.journal.path.string(), startup_->readOptions, world_.worker(), world_.executor);
    reader_->followSegments(&writer_->segmentGeneration());
    engine_.emplace(gamePointers(), &*journal_, &*reader_);
    if (world_.io != nullptr && (!config_.engine.socket.empty() || config_.engine.tcpPort != 0)) {
        engineLink_ =
            std::make_unique<engine::EngineLink>(*world_.io, config_.engine.socket, config_.engine.tcpPort, *engine_);
        spdlog::info("engine link listening on {}{}", config_.engine.socket.string(),
                     config_.engine.tcpPort != 0 ? fmt::format(" and 127.0.0.1:{}", config_.engine.tcpPort) : "");
    }
}

void Daemon::startControl() {
    control_.emplace(gamePointers(), *journal_, *reader_, [this] { return statusJson(); });
    if (tableIo_) {
        control_->setTableIo(control::TableIoControl{
            [this](std::chrono::milliseconds step, const std::string& by, std::optional<std::size_t> game,
                   const table::Respond& respond) { tableIo_->lampTest(step, by, game, respond); },
            [this](std::optional<std::size_t> game, std::function<void(nlohmann::json)> answer) {
                tableIo_->readIo(game, std::move(answer));
            }});
    }
    if (world_.io != nullptr && !config_.control.socket.empty()) {
        controlServer_ = std::make_unique<control::ControlServer>(
            *world_.io, config_.control.socket,
            control::RoleGroups{config_.control.inspectorGroup, config_.control.operatorGroup}, *control_);
        spdlog::info("control socket listening on {}", config_.control.socket.string());
    }
}

void Daemon::startRounds() {
    for (const auto& game : games_) {
        game->start();
    }
}

json Daemon::segmentsJson() const {
    // Counted, not listed: status is answered on the logic thread, which reads no folder.
    json out{{"sealed", sealedAtStart_ + static_cast<std::int64_t>(journal_ ? journal_->segments().rotations : 0)},
             {"sealed_check", sealedVerdict_.empty() ? json(nullptr) : json(sealedVerdict_)}};
    if (journal_) {
        const journal::SegmentStats& s = journal_->segments();
        out["rotations"] = s.rotations;
        out["rotations_postponed"] = s.postponed;
        out["active_since_ms"] = s.segmentStartMs;
        out["active_bytes"] = s.segmentBytes;
        if (!s.lastPostponed.empty()) {
            out["last_postponed"] = s.lastPostponed;
        }
    }
    return out;
}

json Daemon::statusJson() const {
    return json{{"version", PITLINK_VERSION},
                {"journal", config_.journal.path.string()},
                {"journal_commits", writer_ ? writer_->commits() : 0},
                {"journal_transactions", writer_ ? writer_->transactions() : 0},
                {"journal_in_flight", journal_ ? journal_->inFlight() : 0},
                {"journal_segments", segmentsJson()},
                {"engine_clients", engineLink_ ? engineLink_->clients() : 0},
                {"engine_requests", engine_ ? engine_->stats().requests : 0},
                {"engine_bad_requests", engine_ ? engine_->stats().badRequests : 0},
                {"sas", sas_ ? sas_->statusJson() : json(nullptr)},
                {"modbus", tableIo_ ? tableIo_->statusJson() : json(nullptr)},
                {"scheduling", json{{"logic_thread", scheduling_}, {"real_time", realTime_}}}};
}

void Daemon::onEvent(const table::Table& game, const table::TableEvent& e) {
    if (engineLink_ && !io::isControlOnly(e)) {
        // A game's events go to the connections serving it, naming it when there are several;
        // a station's wallet's to every connection. Surveillance's never (docs/protection.md).
        json line = io::eventJson(e);
        if (!io::isGameEvent(e)) {
            engineLink_->publish(line);
        } else {
            if (games_.size() > 1) {
                line["game"] = game.name();
            }
            engineLink_->publish(line, game.name());
        }
    }
    if (control_) {
        control_->remember(e, game.name());
    }
    if (const auto* t = std::get_if<table::TiltChanged>(&e); t != nullptr && t->tilted) {
        if (t->cause == "journal" && sas_) {
            sas_->journalFailed();  // other tilts reach SAS through their journal record
        }
        tilt(t->message.value_or("unknown"));
    } else if (const auto* voided = std::get_if<table::RoundVoided>(&e)) {
        spdlog::warn("round #{} voided: {}", voided->round, voided->reason);
    } else if (const auto* settled = std::get_if<table::RoundSettled>(&e)) {
        logResult(*settled);
    } else if (const auto* alert = std::get_if<table::ProtectionAlert>(&e)) {
        spdlog::warn("{}: protection: station {} reported on {} in shoe {}: z {:.2f} over {} rounds, staked {}{}",
                     game.name(), alert->station, game::betTypeName(alert->bet), alert->shoe,
                     static_cast<double>(alert->zHundredths) / 100, alert->rounds, alert->staked,
                     alert->attendantCalled ? "; attendant called" : "");
    }
    if (hooks_.event) {
        hooks_.event(e);
    }
}

void Daemon::tilt(const std::string& why) {
    spdlog::critical("TILT: {}; the table takes no bets until this is cleared", why);
    if (hooks_.tilt) {
        hooks_.tilt(why);
    }
}

void Daemon::shutdown(std::function<void(const std::string& verdict)> done) {
    if (games_.empty()) {
        done("the table was not running");
        return;
    }
    engine_->stopTaking();
    // Every game ends its round safely; `done` once all have, with what each did.
    auto verdicts = std::make_shared<std::vector<std::string>>(games_.size());
    auto left = std::make_shared<std::size_t>(games_.size());
    auto finish = std::make_shared<std::function<void(const std::string&)>>(std::move(done));
    for (std::size_t i = 0; i < games_.size(); ++i) {
        games_[i]->shutdown([this, i, verdicts, left, finish](const std::string& verdict) {
            (*verdicts)[i] = games_.size() > 1 ? games_[i]->name() + ": " + verdict : verdict;
            if (--*left == 0) {
                std::string all;
                for (const std::string& v : *verdicts) {
                    all += (all.empty() ? "" : "; ") + v;
                }
                (*finish)(all);
            }
        });
    }
}

void Daemon::reload(const config::Config& fresh, const game::Paytable& freshPaytable, const std::string& freshText) {
    spdlog::set_level(spdlog::level::from_str(fresh.log.level));
    if (games_.empty()) {
        return;
    }
    // Each game running takes the settings of its namesake in the file re-read; a game the file
    // no longer names keeps its own until the next start ("games" is then restart-only).
    for (std::size_t i = 1; i < games_.size(); ++i) {
        const std::optional<std::size_t> index = gameIndex(fresh, games_[i]->name());
        if (!index) {
            continue;
        }
        games_[i]->reconfigure(
            gameSettings(fresh, *index),
            journal::ConfigLoadedRecord{fresh.file.string(), journal::toHex(journal::sha256(freshText)), std::nullopt,
                                        std::nullopt, std::nullopt},
            {}, [](const table::Reply&) {});
    }
    games_.front()->reconfigure(
        gameSettings(fresh, 0),
        journal::ConfigLoadedRecord{fresh.file.string(), journal::toHex(journal::sha256(freshText)), std::nullopt,
                                    std::nullopt, std::nullopt},
        restartNeeded(config_, paytable_, fresh, freshPaytable), [](const table::Reply& reply) {
            if (!reply.ok) {
                spdlog::error("SIGHUP: not applied: {}", reply.message);
                return;
            }
            const auto& answer = std::get<table::ReconfigureAnswer>(reply.data);
            spdlog::info("SIGHUP: applied from the next round: {}; needs a restart: {}", json(answer.applied).dump(),
                         json(answer.restartNeeded).dump());
        });
}

void Daemon::stop() {
    if (stopped_) {
        return;
    }
    stopped_ = true;
    scan_.reset();  // interrupts a scan still running
    controlServer_.reset();
    engineLink_.reset();
    for (const auto& game : games_) {
        game->stop();
    }
    if (tableIo_) {
        // The last cycle leaves the lamps in the safe image: no "bets open" at a stopped table.
        std::vector<modbus::CycleRequest> safe;
        for (std::size_t i = 0; i < modbusWorkers_.size(); ++i) {
            safe.push_back(tableIo_->safeCycle(i));
        }
        tableIo_->stop();
        for (std::size_t i = 0; i < modbusWorkers_.size(); ++i) {
            modbusWorkers_[i]->submit(std::move(safe[i]), [](const modbus::CycleResult& result) {
                if (!result.ok) {
                    spdlog::warn("modbus: the safe image was not written at stop: {}", result.error);
                }
            });
        }
        modbusWorkers_.clear();  // each waits for its cycle under way and the safe image
        tableIo_.reset();
        spdlog::info("modbus: the safe image written to the module at stop");
    }
    if (sas_) {
        if (journal_ && !journal_->failed()) {
            sas_->stop();  // every station's queue journaled as it stands
        }
        controller_->setTicketSystem(nullptr);
        controller_->setCommitObserver(nullptr);
        sas_.reset();
    }
    if (journal_ && !journal_->failed()) {
        journal_->snapshot();
    }
    if (writer_) {
        writer_->stop();  // commits what was submitted, the snapshot last
        spdlog::info("pitlinkd stopped after {} journal commits", writer_->commits());
    }
}

}  // namespace pitlink::app
