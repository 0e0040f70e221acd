#include "daemon/journal/records/slip_json.h"

#include <string>

namespace pitlink::journal {

nlohmann::json slipJson(const game::BetSlip& slip) {
    nlohmann::json out = nlohmann::json::object();
    for (std::size_t i = 0; i < game::kBetTypes; ++i) {
        if (slip.stakes[i] > 0) {
            out[std::string(game::betTypeName(static_cast<game::BetType>(i)))] = slip.stakes[i];
        }
    }
    return out;
}

}  // namespace pitlink::journal
