#pragma once
// The expiry of restricted promotional credits brought by SAS AFT (LP 72 type 00), decided on
// nothing but its inputs (protocols/sas/README.md "AFT", docs/sas.md "AFT"). A request's
// expiration is 4 BCD: MMDDYYYY (a date), 0000NNNN (N days after the transfer's local date), or 0
// (the EGM's default: LP 7B's restricted expiration days; 0 days there too: they never expire).
// Restricted credits expire at the end of their expiry date, station local time.
#include <cstdint>
#include <optional>

namespace pitlink::sas::aft {

// A calendar date (proleptic Gregorian), station local time.
struct Date {
    int year = 0;
    int month = 0;  // 1-12
    int day = 0;    // 1-31
    friend bool operator==(const Date&, const Date&) = default;
    friend constexpr bool operator<(const Date& a, const Date& b) {
        return a.year != b.year ? a.year < b.year : a.month != b.month ? a.month < b.month : a.day < b.day;
    }
    friend constexpr bool operator>(const Date& a, const Date& b) { return b < a; }
};

// A real date of years 1-9999 (leap years: every 4th year, not centuries, but every 400th).
[[nodiscard]] bool validDate(const Date& date);
// `date` moved by `days` (may be negative).
[[nodiscard]] Date daysAfter(const Date& date, std::int64_t days);
// SAS's MMDDYYYY (as its 8 decimal digits) and back; nullopt when the digits are no valid date.
[[nodiscard]] std::optional<Date> dateOfMmddyyyy(std::uint32_t mmddyyyy);
[[nodiscard]] std::uint32_t mmddyyyyOf(const Date& date);

// Up to 9999 the expiration counts days (0000NNNN), above it is a date (MMDDYYYY), as Monaco
// reads it (TicketStorageDataExtensions: ValueIsInDays, ValueIsDate).
inline constexpr std::uint32_t kMaxExpirationDays = 9999;

// A request's expiration resolved on the transfer's local date `today`, `defaultDays` being LP
// 7B's restricted expiration days of the station: `expires` the last day the credits may be
// played (nullopt: never), or not valid (an impossible date, or one before today: LP 72 83).
struct Expiry {
    bool valid = true;
    std::optional<Date> expires;
    friend bool operator==(const Expiry&, const Expiry&) = default;
};
[[nodiscard]] Expiry expiryOf(std::uint32_t expiration, const Date& today, std::uint16_t defaultDays);

// The expiry of restricted credits held (`held`) once more of them come with `incoming`: the
// later of the two (nullopt, never, is the latest), so that a transfer never shortens a player's
// credits (Monaco keeps the later one: SetRestrictedExpirationWithPriority).
[[nodiscard]] std::optional<Date> laterExpiry(const std::optional<Date>& held, const std::optional<Date>& incoming);

// Restricted credits expiring at the end of `expires` are gone on any later local date.
[[nodiscard]] constexpr bool expiredOn(const Date& expires, const Date& today) {
    return today > expires;
}

}  // namespace pitlink::sas::aft
