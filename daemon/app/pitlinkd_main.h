#pragma once
// pitlinkd's main() as a function of the app library, so that a test build of the daemon
// (tests/integration/pitlinkd_power_cut.cpp: its journal on the power-loss VFS) runs exactly the
// same start-up, options, configuration, sockets and signals as pitlinkd (main.cpp).
#include <functional>

namespace boost::asio {
class io_context;
}

namespace pitlink::app {

// What a test build changes; pitlinkd gives none.
struct PitlinkdTestHooks {
    const char* journalVfs = nullptr;  // SQLite VFS of every journal connection; null: the default
    // Once the daemon has started, on the logic thread, before its io_context runs (a test's own
    // signal_set, for instance). May be empty.
    std::function<void(boost::asio::io_context&)> onStart;
};

// Reads the options (argv) and the configuration, runs the daemon until SIGTERM or SIGINT (or
// --rounds N), and returns the process's exit status: 0, 78 (EX_CONFIG) for an unusable
// configuration or paytable, 1 for any other failure; --help and a bad option exit at once.
int runPitlinkd(int argc, char** argv, const PitlinkdTestHooks& testHooks = {});

}  // namespace pitlink::app
