#pragma once
// Long polls of ticketing (TITO): system validation (57 pending cash-out, 58 receive validation
// number), secure enhanced validation (4C set ID and sequence, 4D validation records), ticket
// redemption (70 escrowed ticket, 71 redeem / interrogate) and ticket set-up (7B extended
// validation status, 7C extended ticket data, 7D ticket data). Layouts: SAS 6.02 chapter 15 as
// a production EGM (Aristocrat's SAS client) parses them. The mapping only; the decisions are
// TicketHost's.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocols/sas/poll_framer.h"
#include "protocols/sas/ticket_host.h"

namespace pitlink::sas {

[[nodiscard]] bool isTicketPoll(std::uint8_t command);
// nullopt: malformed (not answered, as for an unsupported poll).
[[nodiscard]] std::optional<std::vector<std::uint8_t>> answerTicketPoll(const Poll& poll, TicketHost& host);

// BCD bytes as a digit string ("0123...") and back; nullopt if a nibble is not a digit.
[[nodiscard]] std::optional<std::string> bcdDigits(const std::vector<std::uint8_t>& bytes, std::size_t from,
                                                   std::size_t count);
void appendBcdDigits(std::vector<std::uint8_t>& out, const std::string& digits, std::size_t bytes);

}  // namespace pitlink::sas
