#pragma once
// One table event as the engine link and the control socket send it: {"event": "...", ...} in the
// form protocols/engine/README.md documents. The only place a table event becomes JSON.
#include <nlohmann/json.hpp>

#include "daemon/table/table_events.h"

namespace pitlink::io {

// An event of one game (its rounds, shoe, roads, tilts, a station's play in it), sent to the
// connections serving that game; the others are a station's wallet's (credits, tickets,
// hand-pays, attendant, reservation, host, the games it plays), sent to every connection.
[[nodiscard]] bool isGameEvent(const table::TableEvent& event);
// An event for surveillance only (the side bets' edges, a station reported as a counter): the
// control socket keeps it, the engine link never carries it (docs/protection.md).
[[nodiscard]] bool isControlOnly(const table::TableEvent& event);

[[nodiscard]] nlohmann::json eventJson(const table::TableEvent& event);
// A cash-out ticket's fields (what the ticket system printed, then validation, amount, station,
// table): the "ticket" event's and the cash_out reply's "ticket".
[[nodiscard]] nlohmann::json ticketJson(const table::TicketIssued& ticket);

}  // namespace pitlink::io
