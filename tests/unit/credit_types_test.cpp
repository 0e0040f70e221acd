// Credit types (daemon/journal/ledger/credit_types.h): cashable, restricted and non-restricted
// promotional credits, as bets, settlements, returns, transfers and restarts move them. Every
// expected figure is worked out by hand in the comments, not by the production rules.
#include <gtest/gtest.h>

#include "daemon/journal/ledger/ledger.h"
#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/recovery.h"
#include "daemon/journal/resettlement.h"
#include "tests/unit/fixtures.h"
#include "tests/unit/journal_fixture.h"

namespace pitlink::journal {
namespace {

using game::BetType;
using nlohmann::json;
using test::JournalFixture;

// Player 9 and Banker 9, both natural: a tie, Player and Banker bets push.
constexpr const char* kTie = "9S 9H KD KC";
// Player 9 (natural) beats Banker 6.
constexpr const char* kPlayerWins = "9S 2H KD 4C";

// An in-house transfer to the station: `cashable` + `restricted` + `nonrestricted` credits.
void transferIn(JournalFixture& f, std::int64_t station, Money cashable, Money restricted, Money nonrestricted) {
    JournalTransaction tx = f.journal->begin();
    tx.credit(station, cashable + restricted + nonrestricted, reason::kTransferIn, std::nullopt,
              {.ref = "T1", .promo = PromoParts{restricted, nonrestricted}});
    f.journal->submit(std::move(tx), {});
}

struct Held {
    Money cashable;
    Money restricted;
    Money nonrestricted;
    friend bool operator==(const Held&, const Held&) = default;
};
Held held(const Ledger& ledger, std::int64_t station) {
    const StationAccount acc = ledger.station(station);
    return {acc.cashable(), acc.promo.held.restricted, acc.promo.held.nonrestricted};
}
// NOLINTNEXTLINE(readability-identifier-naming): the name gtest looks for
void PrintTo(const Held& h, std::ostream* os) {
    *os << "cashable " << h.cashable << ", restricted " << h.restricted << ", non-restricted " << h.nonrestricted;
}

json creditBody(Money amount, Money balance, std::string_view why, json extra = json::object()) {
    extra["amount"] = amount;
    extra["balance"] = balance;
    extra["reason"] = why;
    return extra;
}

TEST(CreditTypes, BetsTakeRestrictedThenNonrestrictedThenCashableAndAPushGivesEachBack) {
    JournalFixture f;
    transferIn(f, 1, 500, 300, 200);  // 1000 credits
    // Player 400 takes the 300 restricted and 100 non-restricted; Banker 200 the other 100
    // non-restricted and 100 cashable. A tie pushes both: each stake goes back to its types.
    f.playRound({{1, BetType::Player, 400}, {1, BetType::Banker, 200}}, kTie);
    EXPECT_EQ(held(f.journal->committed(), 1), (Held{500, 300, 200}));
    const MeterSet& m = f.journal->committed().station(1).meters;
    EXPECT_EQ(m[Meter::CoinIn], 600);
    EXPECT_EQ(m[Meter::RestrictedPlayed], 300);
    EXPECT_EQ(m[Meter::NonrestrictedPlayed], 200);
    // Player 400 again (300 restricted, 100 non-restricted) and it wins 1:1: the 800 paid is cashable.
    f.playRound({{1, BetType::Player, 400}}, kPlayerWins);
    EXPECT_EQ(held(f.journal->committed(), 1), (Held{1300, 0, 100}));
    EXPECT_EQ(f.journal->committed().credits(1), 1400);
    EXPECT_EQ(f.journal->committed().station(1).meters[Meter::RestrictedPlayed], 600);
    EXPECT_EQ(f.journal->committed().station(1).meters[Meter::NonrestrictedPlayed], 300);
}

TEST(CreditTypes, ALosingPromotionalStakeIsGoneAndAWithdrawnOrVoidedOneComesBack) {
    JournalFixture f;
    transferIn(f, 2, 1000, 250, 0);
    f.table->openRound();
    const std::int64_t first = f.table->bet(2, BetType::Banker, 100);  // 100 restricted
    f.table->bet(2, BetType::Player, 300);                             // 150 restricted, 150 cashable
    EXPECT_EQ(held(f.journal->projected(), 2), (Held{850, 0, 0}));
    f.table->withdraw(first);
    EXPECT_EQ(held(f.journal->projected(), 2), (Held{850, 100, 0}));
    f.table->voidRound("dealer error");
    EXPECT_EQ(held(f.journal->committed(), 2), (Held{1000, 250, 0}));
    EXPECT_EQ(f.journal->committed().station(2).meters[Meter::RestrictedPlayed], 0);
    // Banker 250 (all restricted) loses to Player's natural 9.
    f.playRound({{2, BetType::Banker, 250}}, kPlayerWins);
    EXPECT_EQ(held(f.journal->committed(), 2), (Held{1000, 0, 0}));
    EXPECT_EQ(f.journal->committed().station(2).meters[Meter::RestrictedPlayed], 250);
}

TEST(CreditTypes, PromotionalStakesInPlaySurviveARestartAndTheRecoveryReturnsThemToTheirTypes) {
    JournalFixture f;
    transferIn(f, 1, 100, 400, 0);
    f.table->openRound();
    f.table->bet(1, BetType::Player, 450);  // 400 restricted, 50 cashable
    f.table->snapshot();                    // the stake in play is in the snapshot too
    f.reopen();                             // the power went with the round open: recovery voids it
    EXPECT_EQ(held(f.recovery->ledger, 1), (Held{100, 400, 0}));
    EXPECT_TRUE(f.recovery->ledger.station(1).promo.stakes.empty());
}

TEST(CreditTypes, ASnapshotKeepsThePartsAndStakesAndAReplayMeetsIt) {
    JournalFixture f;
    transferIn(f, 3, 0, 600, 400);
    f.table->openRound();
    f.table->bet(3, BetType::Banker, 700);  // 600 restricted, 100 non-restricted
    const Ledger live = f.journal->projected();
    const json snapshot = live.toJson();
    EXPECT_EQ(snapshot["stations"]["3"]["promo"]["restricted"], 0);
    EXPECT_EQ(snapshot["stations"]["3"]["promo"]["nonrestricted"], 300);
    EXPECT_EQ(snapshot["stations"]["3"]["promo"]["stakes"][0]["restricted"], 600);
    EXPECT_EQ(snapshot["stations"]["3"]["meters"]["transfer_in_restricted"], 600);
    const Ledger back = Ledger::fromJson(snapshot);
    EXPECT_EQ(back.differenceFrom(live), "");
    EXPECT_EQ(back.station(3).promo, live.station(3).promo);
    // A snapshot naming more restricted credits than the station holds is refused.
    json forged = snapshot;
    forged["stations"]["3"]["promo"]["nonrestricted"] = 301;
    EXPECT_THROW((void)Ledger::fromJson(forged), LedgerError);
}

TEST(CreditTypes, TransfersAreMeteredByTypeWithTheirCounts) {
    Ledger ledger;
    ledger.apply(kind::kCredit, 1,
                 creditBody(1500, 1500, reason::kTransferIn, {{"restricted", 300}, {"nonrestricted", 200}}));
    ledger.apply(kind::kCredit, 1, creditBody(700, 2200, reason::kTransferIn));  // cashable only
    ledger.apply(kind::kCredit, 1, creditBody(50, 2250, reason::kBonus, {{"nonrestricted", 50}}));
    ledger.apply(kind::kCredit, 1, creditBody(-1300, 950, reason::kTransferOut, {{"restricted", -100}}));
    ledger.apply(kind::kCredit, 1, creditBody(-200, 750, reason::kRestrictedExpired, {{"restricted", -200}}));
    const MeterSet& m = ledger.station(1).meters;
    EXPECT_EQ(m[Meter::TransferInCashable], 1700);  // 1500 - 300 - 200, then 700
    EXPECT_EQ(m[Meter::TransferInCashableCount], 2);
    EXPECT_EQ(m[Meter::TransferInRestricted], 300);
    EXPECT_EQ(m[Meter::TransferInRestrictedCount], 1);
    EXPECT_EQ(m[Meter::TransferInNonrestricted], 200);
    EXPECT_EQ(m[Meter::TransferInNonrestrictedCount], 1);
    EXPECT_EQ(m[Meter::BonusNonrestricted], 50);
    EXPECT_EQ(m[Meter::BonusNonrestrictedCount], 1);
    EXPECT_EQ(m[Meter::BonusCashableCount], 0);
    EXPECT_EQ(m[Meter::TransferOutCashable], 1200);
    EXPECT_EQ(m[Meter::TransferOutRestricted], 100);
    EXPECT_EQ(m[Meter::TransferOutRestrictedCount], 1);
    EXPECT_EQ(m[Meter::TransferOutNonrestrictedCount], 0);
    EXPECT_EQ(m[Meter::RestrictedExpired], 200);
    // 1700 cashable - 1200 out; 300 - 100 - 200 restricted; 250 non-restricted.
    EXPECT_EQ(held(ledger, 1), (Held{500, 0, 250}));
}

TEST(CreditTypes, TheLedgerRefusesRecordsThatBreakTheRules) {
    Ledger ledger;
    ledger.apply(kind::kCredit, 1, creditBody(1000, 1000, reason::kTransferIn, {{"restricted", 400}}));
    const auto refused = [&](const json& body, std::optional<std::int64_t> round = std::nullopt) {
        const Ledger before = ledger;
        EXPECT_THROW(ledger.apply(kind::kCredit, 1, body, round), LedgerError) << body.dump();
        EXPECT_EQ(ledger.differenceFrom(before), "");
    };
    // A stake must take the restricted credits first.
    refused(creditBody(-100, 900, reason::kBet, {{"ref", "bet 1"}}), 7);
    refused(creditBody(-100, 900, reason::kBet, {{"ref", "bet 1"}, {"restricted", -50}}), 7);
    // Tips, hand-pays and tickets in move cashable credits only; a tip beyond them is refused.
    refused(creditBody(-100, 900, reason::kTip, {{"restricted", -100}}));
    refused(creditBody(-700, 300, reason::kTip));
    refused(creditBody(-100, 900, reason::kTicketOut, {{"restricted", -100}}));
    // A bonus is never restricted; a transfer out cannot take more restricted credits than held.
    refused(creditBody(100, 1100, reason::kBonus, {{"restricted", 100}}));
    refused(creditBody(-500, 500, reason::kTransferOut, {{"restricted", -500}}));
    // A settlement cannot return restricted credits its round's stakes did not take.
    ledger.apply(kind::kCredit, 1, creditBody(-500, 500, reason::kBet, {{"ref", "bet 1"}, {"restricted", -400}}), 7);
    refused(creditBody(500, 1000, reason::kSettlement,
                       {{"wagered", 500}, {"wagered_restricted", 400}, {"restricted", 401}}),
            7);
    refused(creditBody(500, 1000, reason::kSettlement, {{"wagered", 500}, {"restricted", 400}}), 7);
    ledger.apply(kind::kCredit, 1,
                 creditBody(500, 1000, reason::kSettlement,
                            {{"wagered", 500}, {"wagered_restricted", 400}, {"restricted", 400}}),
                 7);
    EXPECT_EQ(held(ledger, 1), (Held{600, 400, 0}));
}

TEST(CreditTypes, AReSettlementReturnsAStakeToItsTypesAndTakesBackFromEach) {
    JournalFixture f;
    transferIn(f, 1, 2000, 600, 0);
    // Player 1000 (600 restricted, 400 cashable) loses to the Banker's 9...
    const std::int64_t round = f.playRound({{1, BetType::Player, 1000}}, "2S 9H 4D KC");
    EXPECT_EQ(held(f.journal->committed(), 1), (Held{1600, 0, 0}));
    const auto resettle = [&](const char* cards) {
        JournalTransaction tx = f.journal->begin();
        addResettlement(tx, reconstructRound(f.store->recordsOfRound(round)), f.table->paytable(),
                        ResettlementRequest{round, test::cards(cards), "video", "alice"});
        f.journal->submit(std::move(tx), {});
    };
    // ...the video shows a tie: the stake comes back as it was taken, 600 restricted, 400 cashable.
    resettle(kTie);
    EXPECT_EQ(held(f.journal->committed(), 1), (Held{2000, 600, 0}));
    // The 600 restricted credits the push gave back are played away: Banker 600 loses.
    f.playRound({{1, BetType::Banker, 600}}, kPlayerWins);
    EXPECT_EQ(held(f.journal->committed(), 1), (Held{2000, 0, 0}));
    // Then the video shows the Player's 9: the round pays 2000, all cashable (+1000 on the tie),
    // and the 600 restricted the push gave back are taken back from the restricted credits only:
    // none are left, so they are the shortfall (never taken from the cashable credits), and the
    // cashable credits move by 2000 - 400 = 1600.
    resettle(kPlayerWins);
    EXPECT_EQ(held(f.journal->committed(), 1), (Held{3600, 0, 0}));
    auto q = f.store->connection().prepare(
        "SELECT json_extract(body, '$.due'), json_extract(body, '$.shortfall'), json_extract(body, '$.restricted') "
        "FROM record WHERE kind = 'credit' AND json_extract(body, '$.reason') = 'resettlement' ORDER BY seq DESC");
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.integer(0), 1000);
    EXPECT_EQ(q.integer(1), 600);
    EXPECT_TRUE(q.isNull(2));  // no restricted credit moved
}

TEST(CreditTypes, AJournalFromBeforeCreditTypesIsAllCashable) {
    Ledger ledger;
    ledger.apply(kind::kCredit, 1, creditBody(1000, 1000, reason::kTicketIn));
    ledger.apply(kind::kCredit, 1, creditBody(-300, 700, reason::kBet, {{"ref", "bet 1"}}), 1);
    ledger.apply(kind::kCredit, 1, creditBody(600, 1300, reason::kSettlement, {{"wagered", 300}}), 1);
    EXPECT_EQ(held(ledger, 1), (Held{1300, 0, 0}));
    EXPECT_FALSE(ledger.toJson()["stations"]["1"].contains("promo"));
    EXPECT_FALSE(ledger.toJson()["stations"]["1"]["meters"].contains("restricted_played"));
}

}  // namespace
}  // namespace pitlink::journal
