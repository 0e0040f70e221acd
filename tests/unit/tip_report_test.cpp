// The tip report read from a journal's tip records: by period of the journal's clock and by
// station, sums worked out here; and a journal whose tips add up beyond 64 bits (only a forged
// one can) is refused, not wrapped.
#include "daemon/journal/read/tip_report.h"

#include <gtest/gtest.h>

#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/record_kinds.h"
#include "tests/unit/journal_fixture.h"

namespace pitlink::journal {
namespace {

constexpr std::int64_t kHourMs = 3'600'000;

void tip(test::JournalFixture& f, std::int64_t station, std::int64_t amount) {
    JournalTransaction tx = f.journal->begin();
    tx.add(kind::kTip, std::nullopt, station, nlohmann::json{{"amount", amount}});
    f.journal->submit(std::move(tx));
}

TEST(TipReport, TipsByHourAndStation) {
    test::JournalFixture f;
    f.clockMs = 1'795'000'000'000 / kHourMs * kHourMs + 60'000;  // one minute into an hour
    tip(f, 1, 100);
    tip(f, 2, 300);
    tip(f, 1, 50);
    f.clockMs += kHourMs;
    tip(f, 2, 700);
    const std::vector<TipPeriod> hours = tipReport(*test::whole(f), 0, INT64_MAX, kHourMs);
    ASSERT_EQ(hours.size(), 2U);
    EXPECT_EQ(hours[0].endMs - hours[0].startMs, kHourMs);
    EXPECT_EQ(hours[0].startMs, f.clockMs - kHourMs - 60'000);
    EXPECT_EQ((std::pair{hours[0].total.count, hours[0].total.amount}),
              (std::pair<std::int64_t, std::int64_t>{3, 450}));
    EXPECT_EQ(hours[0].byStation.at(1).amount, 150);
    EXPECT_EQ(hours[0].byStation.at(2).count, 1);
    EXPECT_EQ(hours[1].total.amount, 700);
    // Only the second hour.
    EXPECT_EQ(tipReport(*test::whole(f), hours[1].startMs, INT64_MAX, kHourMs).size(), 1U);
}

TEST(TipReport, SumsBeyondSixtyFourBitsAreRefused) {
    test::JournalFixture f;
    JournalTransaction tx = f.journal->begin();
    for (int i = 0; i < 9'300; ++i) {  // 9,300 x 10^15 > 2^63
        tx.add(kind::kTip, std::nullopt, 1, nlohmann::json{{"amount", kMaxBodyMoney}});
    }
    f.journal->submit(std::move(tx));
    EXPECT_THROW((void)tipReport(*test::whole(f), 0, INT64_MAX, kHourMs), std::runtime_error);
}

}  // namespace
}  // namespace pitlink::journal
