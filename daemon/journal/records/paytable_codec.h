#pragma once
// A paytable as journal JSON, and its content hash. Every round names the hash of the paytable
// it was settled with, and the paytable itself is journaled (paytable.loaded), so recovery and
// re-settlement use exactly the payouts of the time even after the YAML file has changed.
#include <nlohmann/json.hpp>

#include <string>

#include "daemon/game/paytable.h"

namespace pitlink::journal {

// {"id":..., "name":..., "bets":{"banker":{"win":"19/20", ...}, ...}}; a push is "push".
[[nodiscard]] nlohmann::json paytableToJson(const game::Paytable& table);
// Throws std::invalid_argument naming what is wrong.
[[nodiscard]] game::Paytable paytableFromJson(const nlohmann::json& json);
// Hex SHA-256 of the canonical JSON above.
[[nodiscard]] std::string paytableSha256(const game::Paytable& table);

}  // namespace pitlink::journal
