// The meter identity of protocols/sas/README.md "Meters", on a real table and journal: after every
// step of a mixed run (ticket in, bets placed and withdrawn, a win at the jackpot limit, its
// hand-pay, a tip, a re-settlement each way, a legacy bonus, a cash-out), what SAS would read balances:
//   current credits = ticket in + coin out + keyed on + legacy bonus - coin in - cancelled credits
//                     - keyed off,
// and each meter holds the amount worked out by hand below (the standard paytable: Banker pays
// 19/20, and "2S 9H 4D KC" is a Banker natural 9 against 6).
#include <gtest/gtest.h>

#include "daemon/journal/records/record_kinds.h"
#include "daemon/sas/station_meters.h"
#include "tests/unit/table_fixture.h"

namespace pitlink::table {
namespace {

using game::BetType;

constexpr const char* kBankerWins = "2S 9H 4D KC";
constexpr const char* kPlayerWins = "9S 2H KD 4C";  // Player natural 9 against 6

struct Expected {
    game::Money current = 0, ticketIn = 0, coinOut = 0, keyedOn = 0, coinIn = 0, cancelled = 0, keyedOff = 0,
                jackpot = 0;
    game::Money legacyBonus = 0;  // LP 9A's three (SAS LP 8A), and 001E with no AFT bonus
};

void expectSas(TableFixture& f, const Expected& e, const char* step) {
    SCOPED_TRACE(step);
    const auto& stations = f.journal->committed().stations();
    ASSERT_TRUE(stations.contains(1));
    const sas::StationSasMeters m = sas::stationSasMeters(stations.at(1));
    EXPECT_EQ(m.current, e.current);
    EXPECT_EQ(m.ticketIn, e.ticketIn);
    EXPECT_EQ(m.coinOut, e.coinOut);
    EXPECT_EQ(m.keyedOn, e.keyedOn);
    EXPECT_EQ(m.coinIn, e.coinIn);
    EXPECT_EQ(m.cancelled, e.cancelled);
    EXPECT_EQ(m.keyedOff, e.keyedOff);
    EXPECT_EQ(m.jackpot, e.jackpot);
    EXPECT_EQ(m.legacyBonus, e.legacyBonus);
    EXPECT_EQ(m.machinePaidBonus, e.legacyBonus);
    EXPECT_EQ(m.current, m.ticketIn + m.coinOut + m.keyedOn + m.legacyBonus - m.coinIn - m.cancelled - m.keyedOff);
}

TEST(SasMeterIdentity, HoldsAfterEveryStepOfAMixedRun) {
    TableSettings limits;
    limits.jackpotLimit = 1'500;
    TableFixture f(CardSource::Reader, limits);
    f.fund(1, 10'000);
    expectSas(f, {10'000, 10'000, 0, 0, 0, 0, 0, 0}, "ticket in");

    f.openReaderRound();
    const std::int64_t round = f.table->roundId();
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Banker, 2'000, r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Banker, 500, r); }).ok);
    // Stakes on the layout are off the credits but still the station's credits for SAS.
    EXPECT_EQ(f.credits(1), 7'500);
    expectSas(f, {10'000, 10'000, 0, 0, 0, 0, 0, 0}, "bets placed");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->undoBet(1, r); }).ok);
    EXPECT_EQ(f.credits(1), 8'000);
    expectSas(f, {10'000, 10'000, 0, 0, 0, 0, 0, 0}, "a bet withdrawn");

    ASSERT_TRUE(f.call([&](Respond r) { f.table->closeBets(r); }).ok);
    f.deal(kBankerWins);
    // 2,000 on Banker returns 3,900; its win of 1,900 reaches the jackpot limit: hand-paid, so
    // it leaves the credits at once and is coin out only for the 2,000 stake given back.
    ASSERT_TRUE(f.table->wallet(1).handpay.has_value());
    EXPECT_EQ(f.table->wallet(1).handpay->amount, 1'900);
    EXPECT_EQ(f.credits(1), 10'000);
    expectSas(f, {10'000, 10'000, 2'000, 0, 2'000, 0, 0, 1'900}, "a jackpot win");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->resetHandpay(1, "bob", r); }).ok);
    EXPECT_EQ(f.credits(1), 10'000);
    expectSas(f, {10'000, 10'000, 2'000, 0, 2'000, 0, 0, 1'900}, "the jackpot hand-paid");

    ASSERT_TRUE(f.call([&](Respond r) { f.table->tip(1, 300, r); }).ok);
    expectSas(f, {9'700, 10'000, 2'000, 0, 2'000, 0, 300, 1'900}, "a tip");

    // The video shows a Player win: the 3,900 paid back is taken back.
    ASSERT_TRUE(f.call([&](Respond r) {
                     f.table->resettle(f.round(round), f.paytable, test::cards(kPlayerWins), "video", "alice", r);
                 }).ok);
    expectSas(f, {5'800, 10'000, 2'000, 0, 2'000, 0, 4'200, 1'900}, "re-settled to a loss");
    // A second review restores the Banker win: 3,900 paid again.
    ASSERT_TRUE(f.call([&](Respond r) {
                     f.table->resettle(f.round(round), f.paytable, test::cards(kBankerWins), "review", "alice", r);
                 }).ok);
    expectSas(f, {9'700, 10'000, 2'000, 3'900, 2'000, 0, 4'200, 1'900}, "re-settled to a win");

    // The host awards a legacy bonus of each tax status: 250 + 40 + 10, all cashable.
    ASSERT_TRUE(f.table->legacyBonus(1, 250, journal::TaxStatus::Deductible, [](bool) {}));
    ASSERT_TRUE(f.table->legacyBonus(1, 40, journal::TaxStatus::NonDeductible, [](bool) {}));
    ASSERT_TRUE(f.table->legacyBonus(1, 10, journal::TaxStatus::WagerMatch, [](bool) {}));
    expectSas(f, {10'000, 10'000, 2'000, 3'900, 2'000, 0, 4'200, 1'900, 300}, "legacy bonuses");

    ASSERT_TRUE(f.call([&](Respond r) { f.table->cashOut(1, r); }).ok);
    EXPECT_EQ(f.credits(1), 0);
    expectSas(f, {0, 10'000, 2'000, 3'900, 2'000, 10'000, 4'200, 1'900, 300}, "cashed out");
}

// Restricted credits brought by an AFT transfer in (00A2), partly played (0000, 0019), the rest
// expired (Table::expireRestricted): they leave the credit meter as restricted promotional
// keyed-off funds (00FE, the ledger's restricted_expired), the identity's term for them:
//   000C = 000D + 0001 + 00FA + AFT in (00A2) - 0000 - 0004 - 00FD - 00FE.
TEST(SasMeterIdentity, RestrictedCreditsExpiredLeaveAsRestrictedKeyedOffFunds) {
    TableFixture f(CardSource::Reader);
    f.fund(1, 1'000);
    journal::JournalTransaction in = f.journal->begin();
    in.credit(1, 600, journal::reason::kTransferIn, std::nullopt,
              {.ref = "aft R1", .promo = journal::PromoParts{600, 0}});
    f.journal->submit(std::move(in));
    f.openReaderRound();
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Banker, 200, r); }).ok);  // restricted first
    ASSERT_TRUE(f.call([&](Respond r) { f.table->closeBets(r); }).ok);
    f.deal(kPlayerWins);  // the banker's 200 lost
    std::optional<bool> committed;
    f.table->expireRestricted(1, 400, "pool 1 expired 2026-11-18", [&](bool ok) { committed = ok; });
    EXPECT_EQ(committed, true);
    EXPECT_EQ(f.events.back()["event"], "credits");
    EXPECT_EQ(f.events.back()["credits"], 1'000);

    const journal::StationAccount& acc = f.journal->committed().stations().at(1);
    const sas::StationSasMeters m = sas::stationSasMeters(acc);
    using journal::Meter;
    EXPECT_EQ(acc.meters[Meter::TransferInRestricted], 600);
    EXPECT_EQ(acc.meters[Meter::RestrictedPlayed], 200);
    EXPECT_EQ(acc.meters[Meter::RestrictedExpired], 400);
    EXPECT_EQ(acc.promo.held.restricted, 0);
    EXPECT_EQ(m.current, 1'000);
    EXPECT_EQ(m.coinIn, 200);
    EXPECT_EQ(m.current, m.ticketIn + m.coinOut + m.keyedOn + acc.meters[Meter::TransferInRestricted] - m.coinIn -
                             m.cancelled - m.keyedOff - acc.meters[Meter::RestrictedExpired]);
    // Only restricted credits expire, never more than are held: the ledger refuses anything else.
    EXPECT_THROW(f.table->expireRestricted(1, 1, "pool 1", [](bool) {}), journal::LedgerError);
}

}  // namespace
}  // namespace pitlink::table
