// pitlinkd_power_cut: pitlinkd (the same options, configuration, sockets and behaviour: it runs
// runPitlinkd, pitlinkd_main.h) with its journal on the power-loss VFS (tests/support/
// power_loss_vfs.h), a disk with a volatile write cache. SIGUSR2 cuts the power: each journal write
// not yet synced is kept or lost (probability 1/2 each, seeded by PITLINK_POWER_CUT_SEED, default
// 1), "power cut" goes to stderr and the process leaves at once with _exit(137): no destructor, no
// shutdown, nothing more journaled, as a machine losing its power. The integration tests find it
// beside their scripts in the build tree (tests/integration/pitlinkd_power_cut).
//
//   PITLINK_POWER_CUT_SEED=S pitlinkd_power_cut [pitlinkd's options]
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <string>

#include "daemon/app/pitlinkd_main.h"
#include "tests/support/power_loss_vfs.h"

namespace {

constexpr int kPowerCutStatus = 137;  // what a shell reports for a SIGKILL: gone, no clean exit

// PITLINK_POWER_CUT_SEED, or 1.
std::uint64_t powerCutSeed() {
    const char* text = std::getenv("PITLINK_POWER_CUT_SEED");
    if (text == nullptr || *text == '\0') {
        return 1;
    }
    try {
        std::size_t used = 0;
        const std::uint64_t seed = std::stoull(text, &used);
        if (used == std::string(text).size()) {
            return seed;
        }
    } catch (const std::exception&) {
    }
    std::cerr << "pitlinkd_power_cut: PITLINK_POWER_CUT_SEED='" << text << "' is not a number\n";
    std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
    using namespace pitlink;
    const std::uint64_t seed = powerCutSeed();
    test::registerPowerLossVfs();
    app::PitlinkdTestHooks hooks;
    hooks.journalVfs = test::kPowerLossVfs;
    hooks.onStart = [seed](boost::asio::io_context& io) {
        // On the logic thread, through the io_context, as pitlinkd's own signals. The handler
        // holds its signal_set: when pitlinkd stops normally (SIGTERM), the io_context's
        // destruction drops the waiting handler and with it the set, before the service goes.
        auto powerSwitch = std::make_shared<boost::asio::signal_set>(io, SIGUSR2);
        powerSwitch->async_wait([seed, powerSwitch](const boost::system::error_code& ec, int) {
            if (ec) {
                return;
            }
            test::PowerLoss::cutNow(seed, 0.5);
            std::cerr << "power cut" << std::endl;
            ::_exit(kPowerCutStatus);
        });
    };
    return app::runPitlinkd(argc, argv, hooks);
}
