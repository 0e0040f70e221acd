#pragma once
// The accounting meters of docs/rules.md ("Meters"), per station and per table. Meters count up
// for the life of the journal (int64 minor units or counts); what is shown to SAS and inspectors
// rolls over at 10^10, as docs/rules.md requires (at least 10 digits).
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace pitlink::journal {

enum class Meter : std::uint8_t {
    CoinIn,                    // total wagered on settled rounds
    CoinOut,                   // total paid back to the credit meter by settlement (stake + win, pushes)
    GamesPlayed,               // settled rounds with a bet of the station
    GamesWon,                  // ... that paid back more than was wagered
    GamesLost,                 // ... that paid back less than was wagered
    CancelledCredits,          // credits cashed out, by ticket or by hand-pay
    HandpaidCancelledCredits,  // the hand-paid part of the above
    Jackpots,                  // wins at or above the jackpot limit, hand-paid
    TicketInCashable,          // cents redeemed from tickets
    TicketOutCashable,         // cents printed on tickets
    Tips,                      // credits given to the dealer tip pool
    ResettlementPaid,          // credits added by re-settlements
    ResettlementRecovered,     // credits taken back by re-settlements
    BetsReturned,              // stakes returned by voided rounds and withdrawn bets
    DoorOpens,
    RestrictedPlayed,     // the restricted promotional part of CoinIn (SAS 0019)
    NonrestrictedPlayed,  // the non-restricted promotional part of CoinIn (SAS 001A)
    // Cashless transfers (SAS AFT): amounts, and how many transfers moved credits of that type.
    TransferInCashable,  // in-house to the station (SAS 00A0/00A1)
    TransferInCashableCount,
    TransferInRestricted,  // 00A2/00A3
    TransferInRestrictedCount,
    TransferInNonrestricted,  // 00A4/00A5
    TransferInNonrestrictedCount,
    BonusCashable,  // bonus awards to the station (00AE/00AF)
    BonusCashableCount,
    BonusNonrestricted,  // 00B0/00B1
    BonusNonrestrictedCount,
    TransferOutCashable,  // to the host
    TransferOutCashableCount,
    TransferOutRestricted,
    TransferOutRestrictedCount,
    TransferOutNonrestricted,
    TransferOutNonrestrictedCount,
    RestrictedExpired,  // restricted credits gone at their expiration
    // Legacy bonuses the SAS host awarded (LP 8A), by tax status: SAS LP 9A's meters.
    LegacyBonusDeductible,
    LegacyBonusNonDeductible,
    LegacyBonusWagerMatch,
    // AFT bonus jackpots (LP 72 type 11) at or above the jackpot limit, paid by an attendant
    // (SAS 0021, attendant paid external bonus win): credited as a bonus, then off the meter.
    BonusHandpaid,
    PowerUps,         // table: daemon starts
    RoundsSettled,    // table
    RoundsVoided,     // table
    RoundsResettled,  // table: re-settlement steps
};
inline constexpr int kMeterCount = 42;

inline constexpr std::array<Meter, 38> kStationMeters{
    Meter::CoinIn,
    Meter::CoinOut,
    Meter::GamesPlayed,
    Meter::GamesWon,
    Meter::GamesLost,
    Meter::CancelledCredits,
    Meter::HandpaidCancelledCredits,
    Meter::Jackpots,
    Meter::TicketInCashable,
    Meter::TicketOutCashable,
    Meter::Tips,
    Meter::ResettlementPaid,
    Meter::ResettlementRecovered,
    Meter::BetsReturned,
    Meter::DoorOpens,
    Meter::RestrictedPlayed,
    Meter::NonrestrictedPlayed,
    Meter::TransferInCashable,
    Meter::TransferInCashableCount,
    Meter::TransferInRestricted,
    Meter::TransferInRestrictedCount,
    Meter::TransferInNonrestricted,
    Meter::TransferInNonrestrictedCount,
    Meter::BonusCashable,
    Meter::BonusCashableCount,
    Meter::BonusNonrestricted,
    Meter::BonusNonrestrictedCount,
    Meter::TransferOutCashable,
    Meter::TransferOutCashableCount,
    Meter::TransferOutRestricted,
    Meter::TransferOutRestrictedCount,
    Meter::TransferOutNonrestricted,
    Meter::TransferOutNonrestrictedCount,
    Meter::RestrictedExpired,
    Meter::LegacyBonusDeductible,
    Meter::LegacyBonusNonDeductible,
    Meter::LegacyBonusWagerMatch,
    Meter::BonusHandpaid,
};
// The meters of promotional credits, cashless transfers (credit_types.h) and legacy bonuses: a
// snapshot leaves them out while they are 0, so that a table without them writes the snapshots
// it wrote before.
[[nodiscard]] constexpr bool isCashlessMeter(Meter meter) {
    return meter >= Meter::RestrictedPlayed && meter <= Meter::BonusHandpaid;
}
inline constexpr std::array<Meter, 5> kTableMeters{
    Meter::DoorOpens, Meter::PowerUps, Meter::RoundsSettled, Meter::RoundsVoided, Meter::RoundsResettled,
};

[[nodiscard]] std::string_view meterName(Meter meter);
[[nodiscard]] std::optional<Meter> parseMeter(std::string_view name);

inline constexpr std::int64_t kMeterRollover = 10'000'000'000;  // 10^10
[[nodiscard]] constexpr std::int64_t reportedMeter(std::int64_t lifetime) {
    return lifetime % kMeterRollover;
}

class MeterSet {
public:
    [[nodiscard]] std::int64_t operator[](Meter meter) const { return values_[static_cast<std::size_t>(meter)]; }
    // Meters only count up: a negative amount is a programming error (LedgerError), and so is
    // one that would take the meter past 2^63 - 1 (only a forged journal can hold one).
    void add(Meter meter, std::int64_t amount);
    friend bool operator==(const MeterSet&, const MeterSet&) = default;

private:
    std::array<std::int64_t, kMeterCount> values_{};
};

}  // namespace pitlink::journal
