#pragma once
// pitlinkctl protection --shoe N --svg FILE: each watched side bet's edge through a shoe as a line
// (per cent of the stake, for the player), the rounds a bet was closed shaded in its colour, and one
// station's side-bet stakes as dots on the edge of the bet they were on (docs/protection.md).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace pitlink::ctl {

// `shoe`: the control socket's `protection` answer for one shoe (its `edges`, `stakes`, `alerts`).
[[nodiscard]] std::string protectionSvg(const nlohmann::json& shoe, std::optional<std::int64_t> station);

}  // namespace pitlink::ctl
