#pragma once
// The SAS meter codes a station reports (spec Table C-7; tests/fixtures/sas/meter_codes.csv) and where
// the daemon gets them: the station's committed meters, in credits of the station's
// denomination, or in cents where the code says so. Long polls only read them.
#include <cstdint>
#include <optional>

namespace pitlink::sas {

namespace meter {
inline constexpr std::uint16_t kCoinIn = 0x0000;
inline constexpr std::uint16_t kCoinOut = 0x0001;
inline constexpr std::uint16_t kJackpot = 0x0002;
inline constexpr std::uint16_t kHandPaidCancelledCredits = 0x0003;
inline constexpr std::uint16_t kCancelledCredits = 0x0004;
inline constexpr std::uint16_t kGamesPlayed = 0x0005;
inline constexpr std::uint16_t kGamesWon = 0x0006;
inline constexpr std::uint16_t kGamesLost = 0x0007;
inline constexpr std::uint16_t kCurrentCredits = 0x000C;
inline constexpr std::uint16_t kTicketInCashableCents = 0x000D;
inline constexpr std::uint16_t kTicketOutCashableCents = 0x000E;
inline constexpr std::uint16_t kTotalWonCredits = 0x0022;
inline constexpr std::uint16_t kTotalHandPaidCredits = 0x0023;
inline constexpr std::uint16_t kDrop = 0x0024;
inline constexpr std::uint16_t kKeyedOnCashable = 0x00FA;
inline constexpr std::uint16_t kKeyedOffCashable = 0x00FD;
// Not in Table C-7's numbered list but reported by LP 1C.
inline constexpr std::uint16_t kSlotDoorOpens = 0xF000;
inline constexpr std::uint16_t kPowerResets = 0xF001;
}  // namespace meter

// Read access to a station's committed meters (the daemon implements it over its ledger).
class MeterSource {
public:
    virtual ~MeterSource() = default;
    // nullopt: this station does not keep that meter (the long poll then leaves it out or
    // answers 0, as the poll requires).
    [[nodiscard]] virtual std::optional<std::uint64_t> meter(std::uint16_t code) const = 0;
};

// The BCD width of a meter in LP 2F and LPs 6F/AF answers: cents meters are 5 bytes, the rest 4.
[[nodiscard]] std::size_t meterBytes(std::uint16_t code);

}  // namespace pitlink::sas
