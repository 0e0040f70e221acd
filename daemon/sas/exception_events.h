#pragma once
// Which SAS exceptions a journal transaction raises at which stations: the table's facts mapped
// to docs/sas.md codes. Pure, so that the table's transaction can carry the exceptions it
// causes (they survive a power loss with it) and tests can check the mapping alone.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "daemon/game/bet_rules.h"
#include "daemon/journal/journal.h"
#include "protocols/sas/exception_queue.h"

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
inline constexpr std::uint8_t kAftTransferComplete = 0x69;
inline constexpr std::uint8_t kAftHostCashout = 0x6A;  // AFT request for host cash-out
inline constexpr std::uint8_t kAftRegistrationAcknowledged = 0x6D;
inline constexpr std::uint8_t kAftRegistrationCancelled = 0x6E;
inline constexpr std::uint8_t kAftGameLocked = 0x6F;
inline constexpr std::uint8_t kChangeLampOn = 0x71;
inline constexpr std::uint8_t kChangeLampOff = 0x72;
inline constexpr std::uint8_t kLegacyBonusAwarded = 0x7C;  // event data: LP 90's (legacy_bonus_polls.h)
inline constexpr std::uint8_t kGameStarted = 0x7E;
inline constexpr std::uint8_t kGameEnded = 0x7F;
inline constexpr std::uint8_t kGameSelected = sas::kGameSelected;  // protocols/sas/exception_queue.h
}  // namespace code

// The controller's games as SAS numbers them (1..N, in the configuration's order), and the game
// each linked station was last told of with 8C (absent: game 1). 7E and 7F carry no game number:
// each belongs to the game of the 8C before it, so a 7E or 7F of another game raises 8C first.
struct GameSelection {
    std::vector<std::string> games;  // empty: a controller of one game
    std::map<std::int64_t, std::uint16_t> selected;
    // "" (a record naming no game: the first's) and a name not configured: 1.
    [[nodiscard]] std::uint16_t numberOf(const std::string& game) const;
    [[nodiscard]] std::uint16_t selectedAt(std::int64_t station) const;
};

// `before`: the ledger the transaction applies to (the game's coin-in meter goes into 7E);
// `linked`: the stations with a SAS link; `denomination`: minor units per credit of the
// accounting denomination (7E/7F count its credits); `selection` follows the 8Cs raised.
[[nodiscard]] std::vector<RaisedException> exceptionsOf(const std::vector<journal::Fact>& facts,
                                                        const journal::Ledger& before, game::Money denomination,
                                                        const std::set<std::int64_t>& linked, GameSelection& selection);
// A controller of one game (no 8C ever).
[[nodiscard]] inline std::vector<RaisedException> exceptionsOf(const std::vector<journal::Fact>& facts,
                                                               const journal::Ledger& before, game::Money denomination,
                                                               const std::set<std::int64_t>& linked) {
    GameSelection one;
    return exceptionsOf(facts, before, denomination, linked, one);
}

}  // namespace pitlink::sas
