// The expiry of restricted credits brought by SAS AFT (protocols/sas/aft_expiration.h): a
// request's expiration resolved to a date (MMDDYYYY, 0000NNNN days after the transfer's local
// date, 0 with LP 7B's days, 0 and 0: never), the later of two kept, and an expiration that is no
// date or one already past refused 83 (aft_rules.h refusalOf). Every date is worked out by hand
// on a calendar (the days counted in the comments).
#include <gtest/gtest.h>

#include "protocols/sas/aft_expiration.h"
#include "protocols/sas/aft_rules.h"

namespace pitlink::sas::aft {
namespace {

constexpr Date kToday{2026, 11, 18};

TEST(SasAftExpiration, DatesAreRealGregorianDatesLeapYearsIncluded) {
    EXPECT_TRUE(validDate({2026, 12, 31}));
    EXPECT_TRUE(validDate({2028, 2, 29}));   // divisible by 4
    EXPECT_FALSE(validDate({2027, 2, 29}));  // not
    EXPECT_FALSE(validDate({2100, 2, 29}));  // a century
    EXPECT_TRUE(validDate({2000, 2, 29}));   // but every 400th year
    EXPECT_FALSE(validDate({2026, 4, 31}));  // April has 30 days
    EXPECT_FALSE(validDate({2026, 13, 1}));
    EXPECT_FALSE(validDate({2026, 0, 1}));
    EXPECT_FALSE(validDate({2026, 1, 0}));
    EXPECT_FALSE(validDate({0, 1, 1}));

    EXPECT_EQ(dateOfMmddyyyy(2'292'028), (Date{2028, 2, 29}));  // 02292028
    EXPECT_EQ(dateOfMmddyyyy(12'312'026), (Date{2026, 12, 31}));
    EXPECT_EQ(dateOfMmddyyyy(2'292'027), std::nullopt);   // 02292027: 2027 is no leap year
    EXPECT_EQ(dateOfMmddyyyy(13'012'026), std::nullopt);  // month 13
    EXPECT_EQ(dateOfMmddyyyy(152'026), std::nullopt);     // 00152026: month 0
    EXPECT_EQ(mmddyyyyOf({2026, 12, 31}), 12'312'026U);
    EXPECT_EQ(mmddyyyyOf({2027, 1, 2}), 1'022'027U);  // 01022027
}

TEST(SasAftExpiration, DaysCountAcrossMonthsYearsAndLeapDays) {
    EXPECT_EQ(daysAfter(kToday, 1), (Date{2026, 11, 19}));
    EXPECT_EQ(daysAfter(kToday, 12), (Date{2026, 11, 30}));
    EXPECT_EQ(daysAfter(kToday, 30), (Date{2026, 12, 18}));  // 12 days of November, 18 of December
    EXPECT_EQ(daysAfter(kToday, 45), (Date{2027, 1, 2}));    // 12 + 31 = 43: December 31st, then 2 more
    EXPECT_EQ(daysAfter({2028, 2, 28}, 1), (Date{2028, 2, 29}));
    EXPECT_EQ(daysAfter({2027, 2, 28}, 1), (Date{2027, 3, 1}));
    EXPECT_EQ(daysAfter({2100, 2, 28}, 1), (Date{2100, 3, 1}));
    EXPECT_EQ(daysAfter({2000, 2, 28}, 1), (Date{2000, 2, 29}));
    EXPECT_EQ(daysAfter({2024, 3, 1}, -1), (Date{2024, 2, 29}));
    EXPECT_EQ(daysAfter({2028, 1, 1}, 366), (Date{2029, 1, 1}));  // 2028 has 366 days
    // 9999 days, the most 0000NNNN says: 27 years to 2053-11-18 are 27 x 365 + 7 leap days (2028,
    // 2032, ..., 2052) = 9,862; 137 more: 12 to November 30th, 31 to December 31st (43), 31 to
    // January 31st (74), 28 to February 28th (102), 31 to March 31st (133), 4 to April 4th.
    EXPECT_EQ(daysAfter(kToday, 9'999), (Date{2054, 4, 4}));
}

TEST(SasAftExpiration, ARequestsExpirationIsADateDaysTheDefaultOrNever) {
    // 0000NNNN: N days after the transfer's local date.
    EXPECT_EQ(expiryOf(30, kToday, 0), (Expiry{true, Date{2026, 12, 18}}));
    EXPECT_EQ(expiryOf(1, kToday, 7), (Expiry{true, Date{2026, 11, 19}}));  // the default only for 0
    EXPECT_EQ(expiryOf(9'999, kToday, 0), (Expiry{true, Date{2054, 4, 4}}));
    // 0: LP 7B's restricted expiration days; 0 there too: never.
    EXPECT_EQ(expiryOf(0, kToday, 7), (Expiry{true, Date{2026, 11, 25}}));
    EXPECT_EQ(expiryOf(0, kToday, 0), (Expiry{true, std::nullopt}));
    // MMDDYYYY: that date, today's too (they expire at its end); a leap day of a leap year.
    EXPECT_EQ(expiryOf(11'182'026, kToday, 0), (Expiry{true, kToday}));
    EXPECT_EQ(expiryOf(1'012'027, kToday, 5), (Expiry{true, Date{2027, 1, 1}}));
    EXPECT_EQ(expiryOf(2'292'028, kToday, 0), (Expiry{true, Date{2028, 2, 29}}));
    // Not a date, or one already past: not valid (83).
    EXPECT_FALSE(expiryOf(11'172'026, kToday, 0).valid);  // yesterday
    EXPECT_FALSE(expiryOf(12'312'025, kToday, 0).valid);
    EXPECT_FALSE(expiryOf(2'292'027, kToday, 0).valid);  // 02292027
    EXPECT_FALSE(expiryOf(4'312'027, kToday, 0).valid);  // 04312027
    EXPECT_FALSE(expiryOf(10'000, kToday, 0).valid);     // 00010000: above 9999, month 0
    EXPECT_FALSE(expiryOf(13'012'027, kToday, 0).valid);
}

TEST(SasAftExpiration, TheLaterOfTwoStaysAndNeverIsTheLatest) {
    const Date december{2026, 12, 18};
    const Date january{2027, 1, 5};
    EXPECT_EQ(laterExpiry(december, january), january);
    EXPECT_EQ(laterExpiry(january, december), january);  // an earlier date never shortens them
    EXPECT_EQ(laterExpiry(december, december), december);
    EXPECT_EQ(laterExpiry(std::nullopt, december), std::nullopt);  // held credits that never expire
    EXPECT_EQ(laterExpiry(december, std::nullopt), std::nullopt);  // more that never expire
    // Expired on any later local date, not on the date itself.
    EXPECT_FALSE(expiredOn(kToday, kToday));
    EXPECT_TRUE(expiredOn(kToday, Date{2026, 11, 19}));
    EXPECT_TRUE(expiredOn({2026, 12, 31}, Date{2027, 1, 1}));
    EXPECT_FALSE(expiredOn({2028, 2, 29}, Date{2028, 2, 28}));
}

TEST(SasAftExpiration, ARestrictedTransferInWithAnExpirationNotValidIsRefused83) {
    TransferContext c;
    c.asset = 1;
    c.transferLimitCents = 100'000;
    c.transferInAllowed = true;
    c.transferOutAllowed = true;
    c.bonusAllowed = true;
    c.available = {10'000, 0, 0};
    TransferRequest r;
    r.transactionId = "E1";
    r.asset = 1;
    r.amounts = {0, 500, 0};
    r.expiration = 11'172'026;
    EXPECT_EQ(refusalOf(r, c), std::nullopt);  // valid unless the station says otherwise
    c.expirationValid = false;
    EXPECT_EQ(refusalOf(r, c), status::kNotValidAmount);
    r.amounts = {500, 0, 0};  // nothing restricted: its expiration means nothing
    EXPECT_EQ(refusalOf(r, c), std::nullopt);
    r.amounts = {0, 500, 0};
    r.type = type::kInHouseToHost;  // restricted credits to the host: no expiry
    EXPECT_EQ(refusalOf(r, c), std::nullopt);
}

}  // namespace
}  // namespace pitlink::sas::aft
