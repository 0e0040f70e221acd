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
inline constexpr std::uint16_t kRestrictedPlayed = 0x0019;
inline constexpr std::uint16_t kNonrestrictedPlayed = 0x001A;
inline constexpr std::uint16_t kCurrentRestrictedCredits = 0x001B;
// Total machine paid external bonus win: every bonus paid to the credit meter (legacy and AFT).
inline constexpr std::uint16_t kMachinePaidExternalBonus = 0x001E;
// Total attendant paid external bonus win: AFT bonus jackpots hand-paid at the jackpot limit.
inline constexpr std::uint16_t kAttendantPaidExternalBonus = 0x0021;
inline constexpr std::uint16_t kTotalWonCredits = 0x0022;
inline constexpr std::uint16_t kTotalHandPaidCredits = 0x0023;
inline constexpr std::uint16_t kDrop = 0x0024;
// AFT (cents, each followed by its count: how many transfers moved that type).
inline constexpr std::uint16_t kAftInHouseCashableIn = 0x00A0;
inline constexpr std::uint16_t kAftInHouseRestrictedIn = 0x00A2;
inline constexpr std::uint16_t kAftInHouseNonrestrictedIn = 0x00A4;
inline constexpr std::uint16_t kAftBonusCashableIn = 0x00AE;
inline constexpr std::uint16_t kAftBonusNonrestrictedIn = 0x00B0;
inline constexpr std::uint16_t kAftInHouseCashableOut = 0x00B8;
inline constexpr std::uint16_t kAftInHouseRestrictedOut = 0x00BA;
inline constexpr std::uint16_t kAftInHouseNonrestrictedOut = 0x00BC;
inline constexpr std::uint16_t kKeyedOnCashable = 0x00FA;
inline constexpr std::uint16_t kKeyedOffCashable = 0x00FD;
// Restricted promotional keyed-off funds: restricted credits gone at their expiry (credits).
inline constexpr std::uint16_t kKeyedOffRestricted = 0x00FE;
// Not in Table C-7's numbered list but reported by LP 1C and LP 18.
inline constexpr std::uint16_t kSlotDoorOpens = 0xF000;
inline constexpr std::uint16_t kPowerResets = 0xF001;
inline constexpr std::uint16_t kGamesSincePowerUp = 0xF002;
inline constexpr std::uint16_t kGamesSinceDoorClosed = 0xF003;
}  // namespace meter

// The play a meter poll asks about: one game (LP 2F/6F/AF/52 with a game number), one
// denomination (under LP B0), or both; game 0 and no denomination is the whole station.
struct MeterScope {
    std::uint16_t game = 0;         // 0: every game
    std::uint8_t denomination = 0;  // Table C-4 code; 0: every denomination
    [[nodiscard]] bool whole() const { return game == 0 && denomination == 0; }
};

// LP 50: the tickets (or hand-pays) of one validation type, how many and their cents.
struct ValidationMeters {
    std::uint64_t count = 0;
    std::uint64_t cents = 0;
};

// Read access to a station's committed meters (the daemon implements it over its ledger).
class MeterSource {
public:
    virtual ~MeterSource() = default;
    // nullopt: this station does not keep that meter (the long poll then leaves it out or
    // answers 0, as the poll requires).
    [[nodiscard]] virtual std::optional<std::uint64_t> meter(std::uint16_t code) const = 0;
    // A game meter (isGameMeter) of the play in `scope` (not the whole station); nullopt for any
    // other meter, which a game or a denomination does not keep.
    [[nodiscard]] virtual std::optional<std::uint64_t> playMeter(std::uint16_t /*code*/,
                                                                 const MeterScope& /*scope*/) const {
        return std::nullopt;
    }
    // LP 50, `type` one of SAS's validation types (Table 15.13c).
    [[nodiscard]] virtual ValidationMeters validationMeters(std::uint8_t /*type*/) const { return {}; }
};

// The meters a game and a denomination keep of their own: coin in and out, jackpot, games
// played, won and lost, total won credits. The rest (credits, tickets, cancelled credits,
// keyed on and off) belong to the station as a whole.
[[nodiscard]] constexpr bool isGameMeter(std::uint16_t code) {
    return code == meter::kCoinIn || code == meter::kCoinOut || code == meter::kJackpot ||
           code == meter::kGamesPlayed || code == meter::kGamesWon || code == meter::kGamesLost ||
           code == meter::kTotalWonCredits;
}

// An AFT amount meter (cents) of those above; its count is the code after it.
[[nodiscard]] constexpr bool isAftAmountMeter(std::uint16_t code) {
    return code == meter::kAftInHouseCashableIn || code == meter::kAftInHouseRestrictedIn ||
           code == meter::kAftInHouseNonrestrictedIn || code == meter::kAftBonusCashableIn ||
           code == meter::kAftBonusNonrestrictedIn || code == meter::kAftInHouseCashableOut ||
           code == meter::kAftInHouseRestrictedOut || code == meter::kAftInHouseNonrestrictedOut;
}

// The BCD width of a meter in LP 2F and LPs 6F/AF answers: cents meters are 5 bytes, the rest 4.
[[nodiscard]] std::size_t meterBytes(std::uint16_t code);

}  // namespace pitlink::sas
