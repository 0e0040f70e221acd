// pitlinkd: the table controller daemon. Start-up order (DESIGN.md): configuration ->
// paytable -> journal open and state rebuilt from its snapshots -> integrity scan (own thread)
// -> unfinished round finished, start-up journaled -> writer thread -> table, engine link, journal
// reader and control socket -> round loop -> READY=1. SAS and Modbus join this order as they are
// built. Shutdown in reverse: the round in progress is voided, finished or parked (Table::shutdown),
// a meters snapshot is journaled, the writer commits what is queued and ends.

#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <csignal>
#include <fstream>
#include <iterator>
#include <optional>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

#include "daemon/app/asio_timers.h"
#include "daemon/app/engine_link.h"
#include "daemon/app/service_notifier.h"
#include "daemon/control/control_server.h"
#include "daemon/app/journal_startup.h"
#include "daemon/journal/chain_hasher.h"
#include "daemon/journal/integrity_scan.h"
#include "daemon/journal/record.h"
#include "daemon/journal/journal_reader.h"
#include "daemon/journal/journal_writer.h"
#include "daemon/app/config.h"
#include "daemon/app/config_error.h"
#include "daemon/app/paytable_loader.h"
#include "daemon/platform/os_random_source.h"
#include "daemon/modbus/modbus_worker.h"
#include "daemon/modbus/table_io.h"
#include "daemon/sas/sas_floor.h"
#include "daemon/sas/sas_resume.h"
#include "daemon/sas/table_clock.h"
#include "protocols/modbus/modbus_backend.h"
#include "daemon/table/table.h"

namespace {

constexpr std::string_view kUsage =
    "usage: pitlinkd [--config FILE] [--rounds N]\n"
    "  --config FILE  configuration (default /etc/pitlink/pitlink.yaml)\n"
    "  --rounds N     stop after N rounds (default: run until SIGTERM)\n";

struct Options {
    std::string config = "/etc/pitlink/pitlink.yaml";
    std::uint64_t rounds = 0;
};

Options parseOptions(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--config" && hasValue) {
            o.config = argv[++i];
        } else if (arg == "--rounds" && hasValue) {
            o.rounds = std::stoull(argv[++i]);
        } else if (arg == "--help" || arg == "-h") {
            std::cout << kUsage;
            std::exit(EXIT_SUCCESS);
        } else {
            std::cerr << "pitlinkd: unknown or incomplete option '" << arg << "'\n" << kUsage;
            std::exit(2);
        }
    }
    return o;
}


// What the SAS stations say about themselves (LPs 1F, 53, 54): the table's game.
pitlink::sas::MachineInfo machineInfo(const pitlink::app::Config& config, const pitlink::game::Paytable& paytable) {
    pitlink::sas::MachineInfo info;
    info.paytableId = (paytable.id + "      ").substr(0, 6);
    // SAS Table C-4 denomination codes of the common denominations (minor units per credit).
    static constexpr std::pair<pitlink::game::Money, std::uint8_t> kCodes[] = {
        {1, 0x01}, {5, 0x02}, {10, 0x03}, {25, 0x04}, {50, 0x05}, {100, 0x06}, {500, 0x07}, {1000, 0x08}, {2, 0x17}};
    info.denominationCode = 0x00;  // none of them
    for (const auto& [minor, code] : kCodes) {
        if (minor == config.table.denomination) {
            info.denominationCode = code;
        }
    }
    const pitlink::game::Money maxCredits = config.bets.maxBet / config.table.denomination;
    info.maxBet = static_cast<std::uint8_t>(std::min<pitlink::game::Money>(maxCredits, 0xFF));
    return info;
}

// "shoe 2 round 5: Player 9S 2H KD (1) | Banker 4C 5D (9) -> banker (round #87)"
void logResult(const nlohmann::json& e) {
    const auto hand = [&](const char* side, const char* total) {
        std::string s;
        for (const auto& card : e.at(side)) {
            s += card.get<std::string>() + " ";
        }
        return s + "(" + std::to_string(e.value(total, 0)) + ")";
    };
    spdlog::info("shoe {} round {}: Player {} | Banker {} -> {} (round #{})", e.value("shoe", 0),
                 e.value("round_in_shoe", 0), hand("player", "player_total"), hand("banker", "banker_total"),
                 e.value("winner", ""), e.value("round", 0));
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
    using namespace pitlink;
    const Options options = parseOptions(argc, argv);
    try {
        const app::Config config = app::loadConfigFile(options.config);
        spdlog::set_level(spdlog::level::from_str(config.log.level));
        const game::Paytable paytable = app::loadPaytableFile(config.table.paytableFile);
        spdlog::info("pitlinkd {}: table '{}', paytable '{}' ({}), {} decks", PITLINK_VERSION, config.table.name,
                     paytable.id, config.table.paytableFile.string(), config.table.shoe.decks);

        // The journal's clock: the system clock, corrected by the accounting host (SAS LP 7F).
        sas::TableClock tableClock;
        const auto wallClockMs = [&tableClock] { return tableClock.nowMs(); };
        // Lamps flash and buttons debounce on a clock that the host's LP 7F does not move.
        const auto steadyMs = [] {
            return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
                .count();
        };
        app::JournalStartup journalStart = app::openJournal(config, wallClockMs);
        const journal::RecoveryReport& recovery = journalStart.recovery;
        boost::asio::io_context io;
        app::ServiceNotifier notifier(io);
        auto tilt = [&notifier](const std::string& why) {
            spdlog::critical("TILT: {}; the table takes no bets until this is cleared", why);
            notifier.status("TILT: " + why);
        };
        // Made once the integrity scan has passed and the journal is resumed; until then nothing
        // is written (a journal that fails a check stays as found for the inspector).
        std::optional<journal::JournalWriter> writer;
        std::optional<journal::Journal> journal;
        platform::OsRandomSource random;
        app::AsioTimers timers(io);
        std::optional<table::Table> table;
        std::optional<app::EngineLink> engineLink;
        std::optional<journal::JournalReader> reader;
        std::optional<control::ControlServer> controlServer;
        std::optional<sas::SasFloor> sasFloor;
        std::optional<modbus::ModbusWorker> modbusWorker;
        std::optional<modbus::TableIo> tableIo;
        std::uint64_t roundsLogged = 0;
        // The table's events: the log for now; the engine link and lights subscribe later.
        auto onEvent = [&](const nlohmann::json& e) {
            if (engineLink) {
                engineLink->publish(e);
            }
            if (controlServer) {
                controlServer->remember(e);
            }
            if (e.value("event", "") == "tilt" && e.value("tilted", false)) {
                tilt(e.value("message", std::string("unknown")));
            }
            if (e.value("event", "") != "result") {
                return;
            }
            if (e.value("voided", false)) {
                spdlog::warn("round #{} voided: {}", e.value("round", 0), e.value("reason", ""));
            } else {
                logResult(e);
            }
            if (e.value("cut_card_out", false)) {
                const game::ShoeStatistics& st = table->scoreboard().statistics();
                spdlog::info("shoe {}: cut card out after round {}, {} cards left; Banker {}, Player {}, Tie {}, "
                             "Banker pairs {}, Player pairs {}, naturals {}",
                             e.value("shoe", 0), e.value("round_in_shoe", 0), e.value("cards_left", 0), st.bankerWins,
                             st.playerWins, st.ties, st.bankerPairs, st.playerPairs, st.naturals);
            }
            if (options.rounds != 0 && ++roundsLogged >= options.rounds) {
                table->stop();
                io.stop();
            }
        };
        std::optional<journal::IntegrityScan> scan;
        auto resume = [&](const journal::IntegrityResult& result) {
            if (!result.ok()) {
                tilt(*result.failure);
                return;
            }
            spdlog::info("journal integrity scan passed in {:.2f} s: quick_check {}{}", result.seconds,
                         result.quickCheck,
                         result.chain ? fmt::format(", whole chain ({} records)", result.chain->checked) : "");
            sas::SasResume sasResume = sas::resumeSas(*journalStart.store);
            tableClock.setOffsetMs(sasResume.clockOffsetMs);
            app::resumeJournal(journalStart, result, config, paytable, readFile(options.config), wallClockMs);
            for (const std::string& action : recovery.actions) {
                spdlog::warn("recovery: {}", action);
            }
            if (!recovery.ok()) {
                tilt(*recovery.tilt);
                return;
            }
            writer.emplace(std::move(journalStart.store),
                           [&io](std::function<void()> done) { boost::asio::post(io, std::move(done)); });
            journal.emplace(*writer, recovery.ledger, wallClockMs, config.journal.snapshotEvery);
            table.emplace(*journal, paytable, app::tableSettings(config), timers, random, journalStart.resume, onEvent);
            if (config.modbus.enabled) {
                // Start-up order (DESIGN.md): journal and meters, then Modbus, then SAS, then the
                // control socket. The module need not answer yet: the table runs without it.
                modbusWorker.emplace(modbus::makeLibmodbusDevice(config.modbus.connection),
                                     [&io](std::function<void()> done) { boost::asio::post(io, std::move(done)); });
                tableIo.emplace(config.modbus, *table, *journal, timers, steadyMs,
                                [&modbusWorker](modbus::CycleRequest request, modbus::ModbusWorker::Done done) {
                                    modbusWorker->submit(std::move(request), std::move(done));
                                });
                tableIo->start();
                spdlog::info("modbus: table I/O on {}: {} lamps, {} buttons, polled every {} ms",
                             modbus::describe(config.modbus.connection), config.modbus.points.outputs.size(),
                             config.modbus.points.inputs.size(), config.modbus.poll.count());
            }
            if (!config.sas.links.empty()) {
                // Start-up order (DESIGN.md): journal and meters, then SAS, then the control socket.
                sasFloor.emplace(config.sas, machineInfo(config, paytable), *table, *journal, timers, tableClock,
                                 std::move(sasResume), &io);
                table->setTicketSystem(&*sasFloor);
                table->setCommitObserver(&*sasFloor);
                try {
                    sasFloor->start();
                } catch (const std::system_error& e) {
                    throw app::ConfigError(config.file.string(), 0, 0, "sas.stations", e.what());
                }
                for (const sas::StationLinkSettings& link : config.sas.links) {
                    spdlog::info("SAS: station {} at address {} on {} ({})", link.station, link.address,
                                 link.transport.device, sas::transportModeName(link.transport.mode));
                }
            }
            if (!config.engine.socket.empty() || config.engine.tcpPort != 0) {
                engineLink.emplace(io, config.engine.socket, config.engine.tcpPort, *table);
                spdlog::info("engine link listening on {}{}", config.engine.socket.string(),
                             config.engine.tcpPort != 0 ? fmt::format(" and 127.0.0.1:{}", config.engine.tcpPort) : "");
            }
            if (!config.control.socket.empty()) {
                reader.emplace(config.journal.path.string(), journalStart.readOptions,
                               [&io](std::function<void()> done) { boost::asio::post(io, std::move(done)); });
                controlServer.emplace(io, config.control.socket,
                                      control::RoleGroups{config.control.inspectorGroup, config.control.operatorGroup},
                                      *table, *journal, *reader, [&] {
                                          return nlohmann::json{
                                              {"version", PITLINK_VERSION},
                                              {"journal", config.journal.path.string()},
                                              {"journal_commits", writer->commits()},
                                              {"journal_transactions", writer->transactions()},
                                              {"engine_clients", engineLink ? engineLink->clients() : 0},
                                              {"engine_requests", engineLink ? engineLink->stats().requests : 0},
                                              {"engine_bad_requests", engineLink ? engineLink->stats().badRequests : 0},
                                              {"sas", sasFloor ? sasFloor->statusJson() : nlohmann::json(nullptr)},
                                              {"modbus", tableIo ? tableIo->statusJson() : nlohmann::json(nullptr)}};
                                      });
                spdlog::info("control socket listening on {}", config.control.socket.string());
            }
            table->start();
            notifier.ready(fmt::format("table '{}' running ({} shoe, {} stations)", config.table.name,
                                       config.table.rngShoe ? "rng" : "reader", config.table.stations));
        };
        if (recovery.ok()) {
            spdlog::info("journal {}: schema {}, state rebuilt from record {} ({} records checked, {} meter "
                         "snapshots compared); integrity scan running, no bets until it passes",
                         config.journal.path.string(), journalStart.store->schemaVersion(), recovery.chain.from,
                         recovery.chain.checked, recovery.snapshotsCompared);
            notifier.status("journal integrity scan");
            scan.emplace(config.journal.path.string(), journalStart.readOptions, config.journal.fullChainCheckAtStart,
                         [&io](std::function<void()> done) { boost::asio::post(io, std::move(done)); },
                         [&](const journal::IntegrityResult& result) {
                             resume(result);
                             if (!table) {
                                 notifier.ready("TILT: the table does not run");  // up, so not restarted in a loop
                             }
                         });
        } else {
            tilt(*recovery.tilt);
            notifier.ready("TILT: " + *recovery.tilt);
        }
        boost::asio::steady_timer shutdownDeadline(io);
        boost::asio::signal_set signals(io, SIGINT, SIGTERM);
        signals.async_wait([&](const boost::system::error_code& ec, int signal) {
            if (!ec) {
                spdlog::info("signal {}: stopping after {} rounds", signal, table ? table->roundsFinished() : 0);
                notifier.stopping();
                if (!table) {
                    io.stop();
                    return;
                }
                // The round in progress is voided, finished or parked (Table::shutdown) before
                // the final snapshot; a journal that no longer commits does not hold the stop.
                shutdownDeadline.expires_after(std::chrono::seconds(5));
                shutdownDeadline.async_wait([&](const boost::system::error_code& error) {
                    if (!error) {
                        spdlog::error("the round in progress did not end within 5 s; stopping anyway");
                        io.stop();
                    }
                });
                table->shutdown([&](const std::string& verdict) {
                    spdlog::info("stopping: {}", verdict);
                    io.stop();
                });
            }
        });
        // SIGHUP re-reads the configuration (and the paytable it names): the log level applies at
        // once, the table's windows, bet rules and limits from the next round (journaled); what
        // shapes the journal, the sockets, the paytable or the stations waits for a restart.
        boost::asio::signal_set hangup(io, SIGHUP);
        std::function<void()> waitHangup = [&] {
            hangup.async_wait([&](const boost::system::error_code& ec, int) {
                if (ec) {
                    return;
                }
                try {
                    const app::Config fresh = app::loadConfigFile(options.config);
                    const game::Paytable freshPaytable = app::loadPaytableFile(fresh.table.paytableFile);
                    spdlog::info("SIGHUP: {} re-read; log level {}", options.config, fresh.log.level);
                    spdlog::set_level(spdlog::level::from_str(fresh.log.level));
                    if (table) {
                        table->reconfigure(app::tableSettings(fresh),
                                           nlohmann::json{{"file", fresh.file.string()},
                                                          {"sha256", journal::toHex(journal::sha256(readFile(options.config)))}},
                                           app::restartNeeded(config, paytable, fresh, freshPaytable),
                                           [](const table::Reply& reply) {
                                               if (!reply.ok) {
                                                   spdlog::error("SIGHUP: not applied: {}", reply.message);
                                                   return;
                                               }
                                               spdlog::info("SIGHUP: applied from the next round: {}; needs a restart: {}",
                                                            reply.data["applied"].dump(),
                                                            reply.data["restart_needed"].dump());
                                           });
                    }
                } catch (const std::exception& e) {
                    spdlog::error("SIGHUP: {} not applied: {}", options.config, e.what());
                }
                waitHangup();
            });
        };
        waitHangup();
        io.run();
        scan.reset();  // interrupts a scan still running
        if (tableIo) {
            tableIo->stop();
            modbusWorker.reset();  // waits for the cycle under way
            tableIo.reset();
        }
        if (sasFloor) {
            if (journal && !journal->failed()) {
                sasFloor->stop();  // every station's queue journaled as it stands
            }
            table->setTicketSystem(nullptr);
            table->setCommitObserver(nullptr);
            sasFloor.reset();
        }
        if (journal && !journal->failed()) {
            journal->snapshot();
        }
        if (writer) {
            writer->stop();  // commits what was submitted, the snapshot last
            spdlog::info("pitlinkd stopped after {} journal commits", writer->commits());
        }
        return EXIT_SUCCESS;
    } catch (const app::ConfigError& e) {
        spdlog::critical("configuration: {}", e.what());
        return 78;  // EX_CONFIG: systemd does not restart into the same bad file in a loop
    } catch (const std::exception& e) {
        spdlog::critical("{}", e.what());
        return EXIT_FAILURE;
    }
}
