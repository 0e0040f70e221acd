#pragma once
// LP B0, the multi-denomination preamble: `addr B0 len denom base-LP data CRC` asks a
// multi-denomination-aware long poll for one denomination; the answer is `addr B0 len denom
// base-LP answer-data CRC` (the base answer without its address and CRC), or `denom 00 error`
// (SAS 6.02 section 16, Table 16.1c: 01 long poll not supported, 02 improperly formatted, 03
// not multi-denomination aware, 04 this denomination not supported, 05 not a player
// denomination). Denomination 00 ("default", the station as a whole) and every denomination the
// station offers are answered, each with its own play (meters, games, B5); any other is 04.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "protocols/sas/poll_framer.h"

namespace pitlink::sas {

// The base poll's answer for one denomination (a Table C-4 code; 0: none named).
using LongPollAnswer = std::function<std::optional<std::vector<std::uint8_t>>(const Poll&, std::uint8_t denomination)>;

// The long polls a B0 may carry here (the station's meters and its game's identification).
[[nodiscard]] bool isMultiDenomAware(std::uint8_t command);

// nullopt: not a well-formed B0 (no answer, as for any malformed poll).
// `offered`: the codes of the denominations the station's player may choose (LP B2).
[[nodiscard]] std::optional<std::vector<std::uint8_t>> answerMultiDenomPreamble(const Poll& poll,
                                                                                std::span<const std::uint8_t> offered,
                                                                                const LongPollAnswer& answer);

}  // namespace pitlink::sas
