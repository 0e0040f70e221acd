// libFuzzer target: the paytable loader. Any input is either a usable paytable or a
// ConfigError with a position and a message; a loaded table must pass paytableProblem and
// settle a bet on every offered spot without overflow.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "daemon/config/config_error.h"
#include "daemon/config/paytable_loader.h"
#include "daemon/game/settlement.h"

using namespace pitlink;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        const game::Paytable table = config::loadPaytable(in, "fuzz.yaml");
        if (game::paytableProblem(table)) {
            std::abort();
        }
        game::Outcome outcome;
        for (const game::BetType t : game::kAllBetTypes) {
            if (table.offers(t)) {
                const auto s = game::settleBet({1, t, 1'000'000'000}, outcome, table);
                if (s.returned < 0 || s.win < 0) {
                    std::abort();
                }
            }
        }
    } catch (const config::ConfigError& e) {
        if (std::string(e.what()).empty()) {
            std::abort();
        }
    }
    return 0;
}
