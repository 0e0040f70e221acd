#pragma once
// A station's ticket setup (LP 7B status bits and expirations, LP 7C/7D host ID and lines) as
// the body of sas.ticket_setup records, and back at start.
#include <nlohmann/json.hpp>

#include "protocols/sas/ticket_host.h"

namespace pitlink::sas {

[[nodiscard]] nlohmann::json ticketSetupJson(const TicketSetup& setup);
// Keys missing from `j` keep their value in `base` (bodies written by older versions); a key
// that does not fit its field is refused (journal::BodyError).
[[nodiscard]] TicketSetup ticketSetupFromJson(const nlohmann::json& j, TicketSetup base);

}  // namespace pitlink::sas
