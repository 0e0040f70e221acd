#pragma once
// Secure enhanced validation numbers (docs/sas.md "Tickets"): the station makes each cash-out
// ticket's 18-digit validation number itself from the machine validation ID and a sequence
// number the host set with LP 4C (the sequence is incremented before each use and wraps after
// 0xFFFFFF to 0). Worked example: ID 0x654321, sequence 1 -> 006429188185446104.
#include <array>
#include <cstdint>
#include <string>

namespace pitlink::sas {

// The 8 BCD bytes of the number as SAS sends it (system ID 00 first), e.g. 00 64 29 18 81 85 44 61 04.
[[nodiscard]] std::array<std::uint8_t, 9> secureEnhancedValidation(std::uint32_t machineId, std::uint32_t sequence);
// The same as 18 decimal digits.
[[nodiscard]] std::string secureEnhancedValidationNumber(std::uint32_t machineId, std::uint32_t sequence);

}  // namespace pitlink::sas
