#pragma once
// Long polls that report meters (one file per group of long polls): 0F, 10-17, 19, 1A, 1C
// (fixed sets of 4-byte BCD meters), 2F (selected meters of game N, one-byte codes) and 6F/AF
// (extended meters of game N, two-byte codes with a size byte). Game 0 is the whole station;
// a station is one game (1), so 0 and 1 report the same. Each maps a poll to its answer and
// nothing else; a malformed poll (bad length, BCD) gets no answer.
#include <cstdint>
#include <optional>
#include <vector>

#include "protocols/sas/meter_codes.h"
#include "protocols/sas/poll_framer.h"

namespace pitlink::sas {

// True for the commands this group answers.
[[nodiscard]] bool isMeterPoll(std::uint8_t command);
[[nodiscard]] std::optional<std::vector<std::uint8_t>> answerMeterPoll(const Poll& poll, const MeterSource& meters);

}  // namespace pitlink::sas
