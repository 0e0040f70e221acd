#pragma once
// Packed BCD as SAS carries meters, amounts, dates and game numbers: two decimal digits a byte,
// most significant byte first.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace pitlink::sas {

// `value` in `bytes` bytes of BCD. A value with more digits than fit keeps its low digits (a SAS
// meter rolls over at its width, as the meter of a gaming machine does).
[[nodiscard]] std::vector<std::uint8_t> toBcd(std::uint64_t value, std::size_t bytes);
void appendBcd(std::vector<std::uint8_t>& out, std::uint64_t value, std::size_t bytes);

// nullopt when a nibble is not a decimal digit or the value does not fit 64 bits (> 19 digits).
[[nodiscard]] std::optional<std::uint64_t> fromBcd(std::span<const std::uint8_t> bytes);

}  // namespace pitlink::sas
