#include "protocols/sas/aft_expiration.h"

namespace pitlink::sas::aft {

namespace {

bool leapYear(int year) {
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int daysInMonth(int year, int month) {
    constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && leapYear(year) ? 29 : kDays[month - 1];
}

// Days since 1970-01-01 and back (H. Hinnant's days_from_civil / civil_from_days: eras of 400
// years, each of 146,097 days, with March as the first month so that February's day comes last).
std::int64_t daysOf(const Date& d) {
    const std::int64_t y = d.year - (d.month <= 2 ? 1 : 0);
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const std::int64_t yearOfEra = y - era * 400;
    const std::int64_t dayOfYear = (153 * (d.month + (d.month > 2 ? -3 : 9)) + 2) / 5 + d.day - 1;
    const std::int64_t dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146'097 + dayOfEra - 719'468;
}

Date dateOfDays(std::int64_t z) {
    z += 719'468;
    const std::int64_t era = (z >= 0 ? z : z - 146'096) / 146'097;
    const std::int64_t dayOfEra = z - era * 146'097;
    const std::int64_t yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36'524 - dayOfEra / 146'096) / 365;
    const std::int64_t dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    const std::int64_t mp = (5 * dayOfYear + 2) / 153;
    const auto day = static_cast<int>(dayOfYear - (153 * mp + 2) / 5 + 1);
    const auto month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    const auto year = static_cast<int>(yearOfEra + era * 400 + (month <= 2 ? 1 : 0));
    return Date{year, month, day};
}

}  // namespace

bool validDate(const Date& d) {
    return d.year >= 1 && d.year <= 9999 && d.month >= 1 && d.month <= 12 && d.day >= 1 &&
           d.day <= daysInMonth(d.year, d.month);
}

Date daysAfter(const Date& date, std::int64_t days) {
    return dateOfDays(daysOf(date) + days);
}

std::optional<Date> dateOfMmddyyyy(std::uint32_t mmddyyyy) {
    const Date d{static_cast<int>(mmddyyyy % 10'000), static_cast<int>(mmddyyyy / 1'000'000),
                 static_cast<int>(mmddyyyy / 10'000 % 100)};
    if (mmddyyyy > 99'999'999 || !validDate(d)) {
        return std::nullopt;
    }
    return d;
}

std::uint32_t mmddyyyyOf(const Date& date) {
    return static_cast<std::uint32_t>(date.month) * 1'000'000 + static_cast<std::uint32_t>(date.day) * 10'000 +
           static_cast<std::uint32_t>(date.year);
}

Expiry expiryOf(std::uint32_t expiration, const Date& today, std::uint16_t defaultDays) {
    if (expiration == 0) {
        // The EGM's default: LP 7B's days; none there either: the credits never expire.
        return defaultDays == 0 ? Expiry{true, std::nullopt} : Expiry{true, daysAfter(today, defaultDays)};
    }
    if (expiration <= kMaxExpirationDays) {
        return Expiry{true, daysAfter(today, expiration)};
    }
    const std::optional<Date> date = dateOfMmddyyyy(expiration);
    if (!date || *date < today) {
        return Expiry{false, std::nullopt};  // not a date, or one already past
    }
    return Expiry{true, date};
}

std::optional<Date> laterExpiry(const std::optional<Date>& held, const std::optional<Date>& incoming) {
    if (!held || !incoming) {
        return std::nullopt;  // credits that never expire keep never expiring
    }
    return *held < *incoming ? incoming : held;
}

}  // namespace pitlink::sas::aft
