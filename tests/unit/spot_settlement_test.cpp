// Settlement by spot (issue 30): a station's additions to one spot are one bet, paid on the spot's
// whole stake; rounds opened before that rule keep being settled, recalled, re-settled and
// audited per bet. Every expected sum is worked out by hand from the paytable's ratio.
#include <gtest/gtest.h>

#include "daemon/game/round_settlement.h"
#include "daemon/journal/read/audit.h"
#include "daemon/journal/read/recall.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/resettlement.h"
#include "tests/unit/fixtures.h"
#include "tests/unit/journal_fixture.h"
#include "tests/unit/table_fixture.h"

namespace pitlink {
namespace {

using game::Bet;
using game::BetType;
using game::Money;
using game::SettleRule;
using nlohmann::json;

// P 5 (K Q 5, three cards) v B 6 (3 3): Banker wins on six.
constexpr const char* kBankerWinsWithSix = "KH 3S QD 3C 5H";
// P 6 (2 4) v B 9 (9 K, natural): Banker wins.
constexpr const char* kBankerWins = "2S 9H 4D KC";
// P 9 (natural) v B 6.
constexpr const char* kPlayerWins = "9S 2H KD 4C";

// A round on the scripted journal table: station 1 bets `stakes` on Banker one after the other,
// the coup is dealt, and the round is settled unless `settle` is false (the power went first).
std::int64_t bankerInSteps(test::JournalFixture& f, SettleRule rule, const std::vector<Money>& stakes, const char* deal,
                           bool settle = true) {
    const auto round = f.table->openRound(rule);
    for (const Money stake : stakes) {
        f.table->bet(1, BetType::Banker, stake);
    }
    f.table->close();
    for (const game::Card card : test::cards(deal)) {
        f.table->deal(card);
    }
    if (settle) {
        f.table->settle();
    }
    return round;
}

Money winOf(const std::vector<Bet>& bets, const char* deal, const char* paytable, SettleRule rule) {
    const game::RoundSettlement round =
        game::settleCoup(test::coupFromDeal(deal), bets, test::shippedPaytable(paytable), rule);
    return round.stations.at(1).win;
}

TEST(SpotSettlement, ASpotBuiltInStepsIsPaidOnItsWholeStake) {
    // Standard Banker pays 19/20: 1,020 x 0.95 = 969; each addition alone: 959 (959.5) + 9 (9.5).
    const std::vector<Bet> raised{{1, BetType::Banker, 1'010}, {1, BetType::Banker, 10}};
    EXPECT_EQ(winOf(raised, kBankerWinsWithSix, "standard", SettleRule::PerSpot), 969);
    EXPECT_EQ(winOf(raised, kBankerWinsWithSix, "standard", SettleRule::PerBet), 968);
    // 240 x 0.95 = 228; 110 x 0.95 = 104.5 and 130 x 0.95 = 123.5 give 227 per bet.
    const std::vector<Bet> twoChips{{1, BetType::Banker, 110}, {1, BetType::Banker, 130}};
    EXPECT_EQ(winOf(twoChips, kBankerWinsWithSix, "standard", SettleRule::PerSpot), 228);
    EXPECT_EQ(winOf(twoChips, kBankerWinsWithSix, "standard", SettleRule::PerBet), 227);
    // No-commission: a Banker win on six pays 1:2: 242 / 2 = 121; per bet 55 (55.5) + 65 (65.5).
    const std::vector<Bet> onSix{{1, BetType::Banker, 111}, {1, BetType::Banker, 131}};
    EXPECT_EQ(winOf(onSix, kBankerWinsWithSix, "no_commission", SettleRule::PerSpot), 121);
    EXPECT_EQ(winOf(onSix, kBankerWinsWithSix, "no_commission", SettleRule::PerBet), 120);
}

TEST(SpotSettlement, EachStationsSpotIsOneStakeCoveringItsAdditionsInOrder) {
    const std::vector<Bet> bets{{1, BetType::Banker, 110},
                                {2, BetType::Banker, 50},
                                {1, BetType::Tie, 20},
                                {1, BetType::Banker, 130},
                                {2, BetType::Banker, 70}};
    const auto stakes = game::stakesToSettle(bets, SettleRule::PerSpot);
    ASSERT_EQ(stakes.size(), 3U);
    EXPECT_EQ(stakes[0].bet, (Bet{1, BetType::Banker, 240}));
    EXPECT_EQ(stakes[0].covers, (std::vector<std::size_t>{0, 3}));
    EXPECT_EQ(stakes[1].bet, (Bet{2, BetType::Banker, 120}));
    EXPECT_EQ(stakes[1].covers, (std::vector<std::size_t>{1, 4}));
    EXPECT_EQ(stakes[2].bet, (Bet{1, BetType::Tie, 20}));
    EXPECT_EQ(game::stakesToSettle(bets, SettleRule::PerBet).size(), 5U);
    // Station 1: 240 wins 228, the tie loses; station 2: 120 wins 114.
    const game::RoundSettlement round = game::settleCoup(test::coupFromDeal(kBankerWinsWithSix), bets,
                                                         test::shippedPaytable("standard"), SettleRule::PerSpot);
    EXPECT_EQ(round.stations.at(1).wagered, 260);
    EXPECT_EQ(round.stations.at(1).returned, 240 + 228);
    EXPECT_EQ(round.stations.at(2).returned, 120 + 114);
    EXPECT_EQ(round.stations.at(1).evenMoneyStake, 240);
}

// The engine link's example through the table: banker 1,010 raised by 10 shows 969 and wins 969.
TEST(SpotSettlement, TheTablePaysTheRaisedSpotWhatLimitsShowedAndJournalsOneSettlement) {
    table::TableFixture f(table::CardSource::Reader);
    f.fund(1, 5'000);
    f.openReaderRound();
    ASSERT_TRUE(f.call([&](table::Respond r) { f.table->placeBet(1, BetType::Banker, 1'010, r); }).ok);
    ASSERT_TRUE(f.call([&](table::Respond r) { f.table->raiseBets(1, 10, r); }).ok);
    const table::Reply limits = f.table->limits(1);
    ASSERT_TRUE(limits.ok);
    EXPECT_EQ(std::get<table::LimitsAnswer>(limits.data).winnings[BetType::Banker], 969);
    ASSERT_TRUE(f.call([&](table::Respond r) { f.table->closeBets(r); }).ok);
    f.deal(kBankerWins);
    EXPECT_EQ(f.credits(1), 5'000 - 1'020 + 1'020 + 969);
    EXPECT_EQ(f.count(journal::kind::kBetAccepted), 2);
    EXPECT_EQ(f.count(journal::kind::kBetSettled), 1);
    auto settled = f.store->connection().prepare(
        "SELECT json_extract(body, '$.bets'), json_extract(body, '$.stake'), json_extract(body, '$.win'), "
        "json_extract(body, '$.bet') IS NULL FROM record WHERE kind = 'bet.settled'");
    ASSERT_TRUE(settled.step());
    EXPECT_EQ(settled.text(0), "[1,2]");
    EXPECT_EQ(settled.integer(1), 1'020);
    EXPECT_EQ(settled.integer(2), 969);
    EXPECT_EQ(settled.integer(3), 1);
    const journal::RoundHistory round = f.round(1);
    EXPECT_EQ(round.rule, SettleRule::PerSpot);
    EXPECT_EQ(round.outcomes.at(1).bets, (std::vector<std::int64_t>{1, 2}));
    EXPECT_EQ(round.outcomes.at(1).returned, 1'989);
}

TEST(SpotSettlement, AJackpotCrossedOnlyByTheSpotsTotalIsCrossed) {
    table::TableSettings settings;
    settings.jackpotLimit = 969;  // 1,010 alone wins 959, 10 alone 9: neither would reach it
    table::TableFixture f(table::CardSource::Reader, settings);
    f.fund(1, 5'000);
    f.openReaderRound();
    ASSERT_TRUE(f.call([&](table::Respond r) { f.table->placeBet(1, BetType::Banker, 1'010, r); }).ok);
    ASSERT_TRUE(f.call([&](table::Respond r) { f.table->placeBet(1, BetType::Banker, 10, r); }).ok);
    ASSERT_TRUE(f.call([&](table::Respond r) { f.table->closeBets(r); }).ok);
    f.deal(kBankerWins);
    ASSERT_TRUE(f.table->wallet(1).handpay.has_value());
    EXPECT_EQ(f.table->wallet(1).handpay->amount, 969);
    EXPECT_EQ(f.credits(1), 5'000 + 969 - 969);  // the stake back; the win is hand-paid
}

TEST(SpotSettlement, RoundsOfBothRulesRecallReSettleRecoverAndAuditAsTheyWerePaid) {
    test::JournalFixture f;
    f.table->ticketIn(1, 10'000, "T1");
    // An old round: per bet (no `settle` in round.opened), 110 + 130 on Banker win 104 + 123.
    const auto old = bankerInSteps(f, SettleRule::PerBet, {110, 130}, kBankerWinsWithSix);
    EXPECT_EQ(f.journal->committed().credits(1), 10'000 + 227);
    // A new round: by spot, the same stakes win 228.
    const auto spot = bankerInSteps(f, SettleRule::PerSpot, {110, 130}, kBankerWinsWithSix);
    EXPECT_EQ(f.journal->committed().credits(1), 10'000 + 227 + 228);

    const journal::AuditReport audit = journal::auditJournal(*test::whole(f));
    EXPECT_TRUE(audit.ok()) << audit.chain.problem << (audit.roundProblems.empty() ? "" : audit.roundProblems[0]);
    EXPECT_EQ(audit.roundsChecked, 2);

    const json recalledOld = journal::recalledRoundJson(journal::recallRound(*test::whole(f), old));
    EXPECT_EQ(recalledOld.at("settle"), "bet");
    ASSERT_EQ(recalledOld.at("bets").size(), 2U);
    EXPECT_EQ(recalledOld.at("bets")[0].at("bet"), 1);
    EXPECT_EQ(recalledOld.at("bets")[0].at("win"), 104);
    EXPECT_EQ(recalledOld.at("bets")[1].at("win"), 123);
    const json recalledSpot = journal::recalledRoundJson(journal::recallRound(*test::whole(f), spot));
    EXPECT_EQ(recalledSpot.at("settle"), "spot");
    ASSERT_EQ(recalledSpot.at("bets").size(), 1U);
    const json& line = recalledSpot.at("bets")[0];
    EXPECT_FALSE(line.contains("bet"));
    EXPECT_EQ(line.at("bets"), json::parse("[1,2]"));
    EXPECT_EQ(line.at("stake"), 240);
    EXPECT_EQ(line.at("win"), 228);
    EXPECT_EQ(line.at("additions"),
              json::parse(R"([{"action":"bet","bet":1,"stake":110},{"action":"bet","bet":2,"stake":130}])"));

    // Each re-settled under its own rule: the player's natural makes both Banker stakes lose.
    for (const auto round : {old, spot}) {
        journal::JournalTransaction tx = f.journal->begin();
        journal::addResettlement(tx, journal::reconstructRound(f.store->recordsOfRound(round)), f.table->paytable(),
                                 journal::ResettlementRequest{round, test::cards(kPlayerWins), "review", "alice"});
        f.journal->submit(std::move(tx));
    }
    EXPECT_EQ(f.journal->committed().credits(1), 10'000 - 240 - 240);
    auto adjusted = f.store->connection().prepare(
        "SELECT round_id, count(*), sum(json_extract(body, '$.previous_returned')) FROM record "
        "WHERE kind = 'bet.adjusted' GROUP BY round_id ORDER BY round_id");
    ASSERT_TRUE(adjusted.step());
    EXPECT_EQ(adjusted.integer(1), 2);          // per bet
    EXPECT_EQ(adjusted.integer(2), 214 + 253);  // 110 + 104, 130 + 123
    ASSERT_TRUE(adjusted.step());
    EXPECT_EQ(adjusted.integer(1), 1);  // per spot
    EXPECT_EQ(adjusted.integer(2), 468);
    EXPECT_TRUE(journal::auditJournal(*test::whole(f)).ok());
}

TEST(SpotSettlement, RecoverySettlesAnUnfinishedRoundUnderTheRuleItWasOpenedWith) {
    for (const SettleRule rule : {SettleRule::PerBet, SettleRule::PerSpot}) {
        test::JournalFixture f;
        f.table->ticketIn(1, 10'000, "T1");
        bankerInSteps(f, rule, {1'010, 10}, kBankerWins, false);
        f.reopen();  // the power went before the settlement
        EXPECT_EQ(f.recovery->ledger.credits(1), 10'000 + (rule == SettleRule::PerSpot ? 969 : 968));
        EXPECT_TRUE(journal::auditJournal(*test::whole(f)).ok());
    }
}

TEST(SpotSettlement, TheAuditFindsASpotSettledInPartsOrForAnotherStake) {
    test::JournalFixture f;
    f.table->ticketIn(1, 10'000, "T1");
    const auto round = bankerInSteps(f, SettleRule::PerSpot, {110, 130}, kBankerWinsWithSix, false);
    // The old rule's records in a round opened by spot: each addition settled on its own.
    journal::JournalTransaction tx = f.journal->begin();
    tx.add(journal::kind::kRoundSettled, round, std::nullopt,
           json{{"player", {"KH", "QD", "5H"}}, {"banker", {"3S", "3C"}}, {"outcome", json::object()}});
    const std::pair<std::int64_t, Money> parts[] = {{1, 110}, {2, 130}};
    for (const auto& [bet, stake] : parts) {
        tx.add(journal::kind::kBetSettled, round, 1,
               json{{"bets", {bet}},
                    {"spot", "banker"},
                    {"stake", stake},
                    {"result", "win"},
                    {"tier", 0},
                    {"win", stake * 19 / 20},
                    {"returned", stake + stake * 19 / 20},
                    {"breakage", "1/2"}});
    }
    tx.credit(1, 110 + 104 + 130 + 123, journal::reason::kSettlement, round, {.wagered = 240});
    f.journal->submit(std::move(tx));
    const journal::AuditReport report = journal::auditJournal(*test::whole(f));
    EXPECT_TRUE(report.chain.ok) << report.chain.problem;
    ASSERT_EQ(report.roundProblems.size(), 1U);
    EXPECT_NE(report.roundProblems[0].find("banker is settled in parts"), std::string::npos) << report.roundProblems[0];
}

}  // namespace
}  // namespace pitlink
