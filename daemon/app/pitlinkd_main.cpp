// pitlinkd: the table controller daemon. runPitlinkd() (pitlinkd's main(), main.cpp) reads the
// options, the configuration and the paytable, builds the Daemon (daemon.h: the start-up order
// and the stop in reverse) on the logic thread's io_context with threads for its blocking work,
// and runs it until SIGTERM or SIGINT; SIGHUP re-reads the configuration.
#include "daemon/app/pitlinkd_main.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "daemon/app/daemon.h"
#include "daemon/config/config.h"
#include "daemon/config/config_error.h"
#include "daemon/config/paytable_loader.h"
#include "daemon/io/asio_executor.h"
#include "daemon/io/service_notifier.h"
#include "daemon/platform/os_random_source.h"
#include "daemon/platform/scheduling.h"
#include "daemon/platform/worker_thread.h"
#include "protocols/modbus/modbus_backend.h"

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

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

namespace pitlink::app {

int runPitlinkd(int argc, char** argv, const PitlinkdTestHooks& testHooks) {
    const Options options = parseOptions(argc, argv);
    // A write past a file-size limit (RLIMIT_FSIZE, systemd's LimitFSIZE=) raises SIGXFSZ, whose
    // default action ends the process with a core: the journal would stop in the middle of a
    // commit, unexplained, and systemd would restart it into the same limit. Ignored, the write
    // fails with EFBIG instead: the commit fails, the table tilts and says why (issue 31).
    std::signal(SIGXFSZ, SIG_IGN);
    try {
        config::Config config = config::loadConfigFile(options.config);
        spdlog::set_level(spdlog::level::from_str(config.log.level));
        game::Paytable paytable = config::loadPaytableFile(config::firstGamePaytable(config));
        spdlog::info("pitlinkd {}: table '{}', {} game(s), the first's paytable '{}' ({})", PITLINK_VERSION,
                     config.table.name, config.games.size(), paytable.id, config::firstGamePaytable(config).string());
        // This thread becomes the logic thread: its scheduling first, so that every thread it
        // starts knows to leave it (WorkerThread drops back to normal priority).
        const platform::SchedulingOutcome scheduling = platform::applyScheduling(config.scheduling);
        const bool asked = config.scheduling.policy != platform::SchedulingPolicy::Other;
        if ((asked && !scheduling.realTime) || (config.scheduling.lockMemory && !scheduling.memoryLocked)) {
            spdlog::warn("scheduling: the logic thread runs at {}; SAS answers may be late on a busy controller",
                         scheduling.description);
        } else {
            spdlog::info("scheduling: the logic thread runs at {}", scheduling.description);
        }

        boost::asio::io_context io;
        io::AsioExecutor executor(io);  // the one executor and clock of the logic thread
        platform::OsRandomSource random;
        io::ServiceNotifier notifier(io);
        modbus::LibmodbusBuses modbusBuses;  // modules on one serial port share it
        std::optional<app::Daemon> daemon;
        app::DaemonHooks hooks{
            [&notifier](const std::string& why) { notifier.status("TILT: " + why); },
            [&notifier](const std::string& status) { notifier.status(status); },
            [&notifier](const std::string& status) { notifier.ready(status); },
            [&](const table::TableEvent& e) {
                // --rounds N: the table opens no round past its limit
                // (setRoundLimit); the process ends when the last round's
                // ending is published (endings commit in order).
                std::optional<std::int64_t> ended;
                if (const auto* settled = std::get_if<table::RoundSettled>(&e)) {
                    ended = settled->round;
                } else if (const auto* voided = std::get_if<table::RoundVoided>(&e)) {
                    ended = voided->round;
                }
                const table::Table* t = daemon->table();
                if (options.rounds != 0 && ended && t->roundsFinished() >= options.rounds && *ended == t->roundId()) {
                    daemon->table()->stop();
                    io.stop();
                }
            },
            {}};
        app::DaemonWorld world{
            executor,
            random,
            &io,
            [] { return std::make_unique<platform::WorkerThread>(); },
            [&modbusBuses](const modbus::ModuleSettings& module) { return modbusBuses.device(module.connection); },
            {},
            testHooks.journalVfs,
            true};
        const std::string configText = readFile(options.config);
        daemon.emplace(std::move(config), std::move(paytable), configText, std::move(world), std::move(hooks));
        daemon->setRoundLimit(options.rounds);
        daemon->setScheduling(scheduling.description, scheduling.realTime);
        daemon->start();

        boost::asio::steady_timer shutdownDeadline(io);
        boost::asio::signal_set signals(io, SIGINT, SIGTERM);
        signals.async_wait([&](const boost::system::error_code& ec, int signal) {
            if (ec) {
                return;
            }
            spdlog::info("signal {}: stopping after {} rounds", signal,
                         daemon->table() != nullptr ? daemon->table()->roundsFinished() : 0);
            notifier.stopping();
            // The round in progress is voided, finished or parked (Table::shutdown) and what was
            // submitted commits, its replies sent, before the final snapshot; a journal that no
            // longer commits does not hold the stop.
            shutdownDeadline.expires_after(std::chrono::seconds(5));
            shutdownDeadline.async_wait([&](const boost::system::error_code& error) {
                if (!error) {
                    spdlog::error("the round in progress did not end within 5 s; stopping anyway");
                    io.stop();
                }
            });
            daemon->shutdown([&](const std::string& verdict) {
                spdlog::info("stopping: {}", verdict);
                // A moment for the last replies to leave their sockets.
                shutdownDeadline.expires_after(std::chrono::milliseconds(100));
                shutdownDeadline.async_wait([&io](const boost::system::error_code&) { io.stop(); });
            });
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
                    const config::Config fresh = config::loadConfigFile(options.config);
                    const game::Paytable freshPaytable = config::loadPaytableFile(config::firstGamePaytable(fresh));
                    spdlog::info("SIGHUP: {} re-read; log level {}", options.config, fresh.log.level);
                    daemon->reload(fresh, freshPaytable, readFile(options.config));
                } catch (const std::exception& e) {
                    spdlog::error("SIGHUP: {} not applied: {}", options.config, e.what());
                }
                waitHangup();
            });
        };
        waitHangup();
        if (testHooks.onStart) {
            testHooks.onStart(io);
        }
        io.run();
        daemon->stop();
        return EXIT_SUCCESS;
    } catch (const config::ConfigError& e) {
        spdlog::critical("configuration: {}", e.what());
        return 78;  // EX_CONFIG: systemd does not restart into the same bad file in a loop
    } catch (const std::exception& e) {
        spdlog::critical("{}", e.what());
        return EXIT_FAILURE;
    }
}

}  // namespace pitlink::app
