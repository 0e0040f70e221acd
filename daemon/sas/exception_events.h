#pragma once
// Which SAS exceptions a journal transaction raises at which stations: the table's facts mapped
// to docs/sas.md codes. Pure, so that the table's transaction can carry the exceptions it
// causes (they survive a power loss with it) and tests can check the mapping alone.
#include <cstdint>
#include <set>
#include <vector>

#include "daemon/game/bet_rules.h"
#include "daemon/journal/journal.h"

namespace pitlink::sas {

struct RaisedException {
    std::int64_t station = 0;
    std::uint8_t code = 0;
    std::vector<std::uint8_t> eventData;  // 7E / 7F real-time event data
    bool operator==(const RaisedException&) const = default;
};

namespace code {
inline constexpr std::uint8_t kSlotDoorOpened = 0x11;
inline constexpr std::uint8_t kSlotDoorClosed = 0x12;
inline constexpr std::uint8_t kPowerApplied = 0x17;
inline constexpr std::uint8_t kPowerLost = 0x18;
inline constexpr std::uint8_t kGeneralTilt = 0x20;
inline constexpr std::uint8_t kOperatorChangedOptions = 0x3C;
inline constexpr std::uint8_t kTicketPrinted = 0x3D;
inline constexpr std::uint8_t kValidationIdNotConfigured = 0x3F;
inline constexpr std::uint8_t kHandpayPending = 0x51;
inline constexpr std::uint8_t kHandpayReset = 0x52;
inline constexpr std::uint8_t kSystemValidationRequest = 0x57;
inline constexpr std::uint8_t kTipAwarded = 0x5F;
inline constexpr std::uint8_t kCashoutPressed = 0x66;
inline constexpr std::uint8_t kTicketInserted = 0x67;
inline constexpr std::uint8_t kTicketTransferComplete = 0x68;
inline constexpr std::uint8_t kChangeLampOn = 0x71;
inline constexpr std::uint8_t kChangeLampOff = 0x72;
inline constexpr std::uint8_t kGameStarted = 0x7E;
inline constexpr std::uint8_t kGameEnded = 0x7F;
}  // namespace code

// `before`: the ledger the transaction applies to (its coin-in meter goes into 7E); `linked`:
// the stations with a SAS link; `denomination`: minor units per credit (7E/7F count credits).
[[nodiscard]] std::vector<RaisedException> exceptionsOf(const std::vector<journal::Fact>& facts,
                                                        const journal::Ledger& before, game::Money denomination,
                                                        const std::set<std::int64_t>& linked);

}  // namespace pitlink::sas
