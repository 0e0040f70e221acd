// pitlinkd: the table controller daemon. Start-up order (DESIGN.md): configuration ->
// paytable -> shoe and round loop. Journal, SAS, Modbus and the control socket join this
// order as they are built.

#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

#include "daemon/app/auto_dealer.h"
#include "daemon/app/config.h"
#include "daemon/app/config_error.h"
#include "daemon/app/paytable_loader.h"
#include "daemon/platform/os_random_source.h"

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

        boost::asio::io_context io;
        platform::OsRandomSource random;
        app::AutoDealer dealer(io, config, random, options.rounds);
        boost::asio::signal_set signals(io, SIGINT, SIGTERM);
        signals.async_wait([&](const boost::system::error_code& ec, int signal) {
            if (!ec) {
                spdlog::info("signal {}: stopping after {} rounds", signal, dealer.roundsDealt());
                dealer.stop();
                io.stop();
            }
        });
        dealer.start();
        io.run();
        spdlog::info("pitlinkd stopped");
        return EXIT_SUCCESS;
    } catch (const app::ConfigError& e) {
        spdlog::critical("configuration: {}", e.what());
        return 78;  // EX_CONFIG: systemd does not restart into the same bad file in a loop
    } catch (const std::exception& e) {
        spdlog::critical("{}", e.what());
        return EXIT_FAILURE;
    }
}
