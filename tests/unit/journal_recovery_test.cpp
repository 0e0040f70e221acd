// Start-up recovery, game recall, re-settlement, audit and export, on real journal files.
#include <gtest/gtest.h>

#include <sstream>

#include "daemon/journal/read/audit.h"
#include "daemon/journal/read/journal_export.h"
#include "daemon/journal/read/recall.h"
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

// Banker 9 (natural) beats Player 6.
constexpr const char* kBankerWins = "2S 9H 4D KC";
// Player 9 (natural) beats Banker 6.
constexpr const char* kPlayerWins = "9S 2H KD 4C";

void fund(JournalFixture& f, std::int64_t station, Money amount) {
    f.table->ticketIn(station, amount, "T" + std::to_string(station) + "-" + std::to_string(amount));
}

std::int64_t count(JournalStore& store, std::string_view kindName, std::int64_t round) {
    auto q = store.connection().prepare("SELECT count(*) FROM record WHERE kind = ? AND round_id = ?");
    q.bind(1, kindName).bind(2, round);
    q.step();
    return q.integer(0);
}

TEST(Recovery, ASettledRoundIsLeftAlone) {
    JournalFixture f;
    fund(f, 1, 5000);
    const auto round = f.playRound({{1, BetType::Banker, 1000}}, kBankerWins);
    const Ledger live = f.journal->committed();
    f.reopen();
    EXPECT_TRUE(f.recovery->actions.empty());
    EXPECT_EQ(f.recovery->ledger.differenceFrom(live), "");
    EXPECT_EQ(count(*f.store, kind::kRoundSettled, round), 1);
    EXPECT_EQ(f.recovery->ledger.credits(1), 5000 - 1000 + 1950);
}

TEST(Recovery, ARoundDealingWithCompleteCardsIsSettledFromThem) {
    JournalFixture f;
    fund(f, 1, 5000);
    fund(f, 2, 5000);
    const auto round = f.table->openRound();
    f.table->bet(1, BetType::Banker, 1000);
    f.table->bet(2, BetType::Player, 400);
    f.table->close();
    for (const game::Card card : test::cards(kBankerWins)) {
        f.table->deal(card);
    }
    f.reopen();  // the power went before the settlement
    ASSERT_EQ(f.recovery->actions.size(), 1U);
    EXPECT_NE(f.recovery->actions[0].find("settled from its journaled cards"), std::string::npos);
    EXPECT_EQ(f.recovery->ledger.credits(1), 5000 + 950);
    EXPECT_EQ(f.recovery->ledger.credits(2), 5000 - 400);
    const RoundHistory history = reconstructRound(f.store->recordsOfRound(round));
    EXPECT_EQ(history.state, RoundState::Settled);
    EXPECT_EQ(history.settlement.at("recovered"), true);
    EXPECT_EQ(history.outcomes.at(1).returned, 1950);
    // A second restart does not settle it again.
    f.reopen();
    EXPECT_TRUE(f.recovery->actions.empty());
    EXPECT_EQ(count(*f.store, kind::kRoundSettled, round), 1);
    EXPECT_EQ(f.recovery->ledger.credits(1), 5950);
}

TEST(Recovery, ARoundWithIncompleteCardsIsVoidedAndEveryBetReturned) {
    JournalFixture f;
    fund(f, 3, 2000);
    const auto round = f.table->openRound();
    f.table->bet(3, BetType::Tie, 300);
    f.table->bet(3, BetType::Banker, 700);
    f.table->close();
    for (const game::Card card : test::cards("2S 9H 4D")) {
        f.table->deal(card);
    }
    f.reopen();
    ASSERT_EQ(f.recovery->actions.size(), 1U);
    EXPECT_NE(f.recovery->actions[0].find("voided, 2 bets returned"), std::string::npos) << f.recovery->actions[0];
    EXPECT_EQ(f.recovery->ledger.credits(3), 2000);
    EXPECT_EQ(f.recovery->ledger.stations().at(3).meters[Meter::BetsReturned], 1000);
    EXPECT_EQ(reconstructRound(f.store->recordsOfRound(round)).state, RoundState::Voided);
}

TEST(Recovery, OpenAndClosedRoundsAreVoided) {
    for (const bool closed : {false, true}) {
        JournalFixture f;
        fund(f, 1, 1000);
        f.table->openRound();
        f.table->bet(1, BetType::Player, 250);
        if (closed) {
            f.table->close();
        }
        f.reopen();
        ASSERT_EQ(f.recovery->actions.size(), 1U);
        EXPECT_NE(f.recovery->actions[0].find(closed ? "was closed" : "was open"), std::string::npos)
            << f.recovery->actions[0];
        EXPECT_EQ(f.recovery->ledger.credits(1), 1000);
    }
}

TEST(Recovery, MetersThatDisagreeWithTheStoredSnapshotTiltTheTable) {
    JournalFixture f;
    fund(f, 1, 1000);
    f.table->snapshot();
    Ledger forged = f.journal->projected();
    forged.apply(kind::kCredit, 1, json{{"amount", 1}, {"balance", 1001}, {"reason", reason::kTicketIn}});
    const std::vector<PendingRecord> record{
        {f.clockMs, std::string(kind::kMetersSnapshot), std::nullopt, std::nullopt, canonicalJson(forged.toJson())}};
    f.store->append(record);
    const std::int64_t tip = f.store->tipSeq();
    const auto report = recover(*f.store, RecoveryOptions{}, [] { return 0; });
    ASSERT_FALSE(report.ok());
    EXPECT_NE(report.tilt->find("differ from snapshot"), std::string::npos) << *report.tilt;
    EXPECT_NE(report.tilt->find("station 1 credits 1000 != 1001"), std::string::npos) << *report.tilt;
    EXPECT_EQ(f.store->tipSeq(), tip);
}

TEST(Recall, LastTenRoundsOfTheTableNewestFirstWithEverythingSpecAsks) {
    JournalFixture f;
    fund(f, 1, 100000);
    fund(f, 2, 100000);
    std::vector<std::int64_t> rounds;
    for (int i = 0; i < 12; ++i) {
        rounds.push_back(f.playRound({{1, BetType::Banker, 1000}, {2, BetType::Player, 500}},
                                     i % 2 == 0 ? kBankerWins : kPlayerWins));
    }
    const auto recalled = recallRounds(*test::whole(f), 10);
    ASSERT_EQ(recalled.size(), 10U);
    EXPECT_EQ(recalled.front().round.roundId, rounds.back());
    EXPECT_EQ(recalled.back().round.roundId, rounds[2]);
    const json last = recalledRoundJson(recalled.front());  // round 12: player wins
    EXPECT_EQ(last.at("player"), json::array({"9S", "KD"}));
    EXPECT_EQ(last.at("outcome").at("winner"), "player");
    EXPECT_EQ(last.at("paytable_sha256"), f.table->paytableSha());
    EXPECT_EQ(last.at("bets").size(), 2U);
    EXPECT_EQ(last.at("bets")[1].at("returned"), 1000);
    EXPECT_EQ(last.at("bets")[0].at("result"), "loss");
    const auto& credits = recalled.front().credits;
    EXPECT_EQ(credits.at(2).after - credits.at(2).before, 500);  // staked 500, got 1000 back
    EXPECT_EQ(credits.at(1).after - credits.at(1).before, -1000);
}

TEST(Recall, StationRecallHasOnlyTheRoundsItPlayed) {
    JournalFixture f;
    fund(f, 1, 10000);
    fund(f, 5, 10000);
    const auto a = f.playRound({{1, BetType::Banker, 100}}, kBankerWins);
    const auto b = f.playRound({{5, BetType::Banker, 100}}, kBankerWins);
    const auto c = f.playRound({{1, BetType::Tie, 100}}, kPlayerWins);
    const auto recalled = recallRounds(*test::whole(f), 10, 1);
    ASSERT_EQ(recalled.size(), 2U);
    EXPECT_EQ(recalled[0].round.roundId, c);
    EXPECT_EQ(recalled[1].round.roundId, a);
    EXPECT_NE(recalled[0].round.roundId, b);
}

// A journal of one game names no game: its rounds are the first game's (whatever its name),
// none is another's, and a game's export leaves the wallet's records out.
TEST(Recall, AOneGameJournalsRoundsAreTheFirstGames) {
    JournalFixture f;
    fund(f, 1, 10000);
    const auto a = f.playRound({{1, BetType::Banker, 100}}, kBankerWins);
    const auto b = f.playRound({{1, BetType::Player, 100}}, kBankerWins);
    const auto first = recallRounds(*test::whole(f), 10, std::nullopt, GameOfRounds{"table-1", true});
    ASSERT_EQ(first.size(), 2U);
    EXPECT_EQ(first[0].round.roundId, b);
    EXPECT_EQ(first[1].round.roundId, a);
    EXPECT_TRUE(recallRounds(*test::whole(f), 10, 1, GameOfRounds{"table-2", false}).empty());
    std::ostringstream lines;
    const auto written = exportJournal(*test::whole(f), ExportRange{{}, {}, {}, {}, GameOfRounds{"table-1", true}},
                                       ExportFormat::JsonLines, lines);
    std::istringstream in(lines.str());
    std::string line;
    std::int64_t ofRounds = 0;
    while (std::getline(in, line)) {
        const json record = json::parse(line);
        EXPECT_TRUE(record.at("game").is_null());
        if (record.at("round_id").is_null()) {
            EXPECT_NE(record.at("kind"), "credit");  // the ticket's credit is the wallet's: no game's
        } else {
            ++ofRounds;
        }
    }
    EXPECT_EQ(ofRounds,
              static_cast<std::int64_t>(f.store->recordsOfRound(a).size() + f.store->recordsOfRound(b).size()));
    EXPECT_GE(written, ofRounds);
}

TEST(Resettlement, MovesCreditsByTheDifferenceKeepsTheOriginalAndCanBeRepeated) {
    JournalFixture f;
    fund(f, 1, 5000);
    fund(f, 2, 5000);
    const auto round = f.playRound({{1, BetType::Banker, 1000}, {2, BetType::Player, 1000}}, kBankerWins);
    EXPECT_EQ(f.journal->committed().credits(1), 5950);
    EXPECT_EQ(f.journal->committed().credits(2), 4000);

    auto resettle = [&](const char* cards, const char* why) {
        JournalTransaction tx = f.journal->begin();
        addResettlement(tx, reconstructRound(f.store->recordsOfRound(round)), f.table->paytable(),
                        ResettlementRequest{round, test::cards(cards), why, "alice"});
        f.journal->submit(std::move(tx));
    };
    resettle(kPlayerWins, "video shows the player's 9");
    EXPECT_EQ(f.journal->committed().credits(1), 5950 - 1950);
    EXPECT_EQ(f.journal->committed().credits(2), 4000 + 2000);
    const auto& m1 = f.journal->committed().stations().at(1).meters;
    EXPECT_EQ(m1[Meter::ResettlementRecovered], 1950);
    EXPECT_EQ(m1[Meter::CoinOut], 1950);  // meters never go down
    RoundHistory history = reconstructRound(f.store->recordsOfRound(round));
    EXPECT_EQ(history.resettlements, 1);
    EXPECT_EQ(history.outcomes.at(2).returned, 2000);
    EXPECT_EQ(count(*f.store, kind::kBetSettled, round), 2);  // the original stays

    resettle(kBankerWins, "second review: the first reading was right");
    EXPECT_EQ(f.journal->committed().credits(1), 5950);
    EXPECT_EQ(f.journal->committed().credits(2), 4000);
    history = reconstructRound(f.store->recordsOfRound(round));
    EXPECT_EQ(history.resettlements, 2);
    const auto steps = count(*f.store, kind::kRoundResettled, round);
    EXPECT_EQ(steps, 2);
    auto who = f.store->connection().prepare(
        "SELECT json_extract(body, '$.operator'), json_extract(body, '$.reason') FROM record "
        "WHERE kind = 'round.resettled' ORDER BY seq DESC LIMIT 1");
    ASSERT_TRUE(who.step());
    EXPECT_EQ(who.text(0), "alice");
    EXPECT_EQ(who.text(1), "second review: the first reading was right");
    EXPECT_TRUE(auditJournal(*test::whole(f)).ok());
}

TEST(Resettlement, TakesNoMoreThanTheStationHasAndRecordsTheShortfall) {
    JournalFixture f;
    fund(f, 1, 1000);
    const auto round = f.playRound({{1, BetType::Banker, 1000}}, kBankerWins);  // 1950 back
    f.table->ticketOut(1, 1900, "OUT1");
    JournalTransaction tx = f.journal->begin();
    addResettlement(tx, reconstructRound(f.store->recordsOfRound(round)), f.table->paytable(),
                    ResettlementRequest{round, test::cards(kPlayerWins), "wrong card read", "bob"});
    f.journal->submit(std::move(tx));
    EXPECT_EQ(f.journal->committed().credits(1), 0);
    auto q = f.store->connection().prepare(
        "SELECT json_extract(body, '$.due'), json_extract(body, '$.shortfall') FROM record "
        "WHERE kind = 'credit' AND json_extract(body, '$.reason') = 'resettlement'");
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.integer(0), -1950);
    EXPECT_EQ(q.integer(1), 1900);
}

TEST(Resettlement, RefusesUnsettledRoundsAndIllegalCards) {
    JournalFixture f;
    fund(f, 1, 1000);
    const auto settled = f.playRound({{1, BetType::Banker, 100}}, kBankerWins);
    JournalTransaction tx = f.journal->begin();
    const RoundHistory history = reconstructRound(f.store->recordsOfRound(settled));
    EXPECT_THROW(addResettlement(tx, history, f.table->paytable(), {settled, test::cards("2S 9H 4D"), "x", "a"}),
                 std::invalid_argument);
    EXPECT_THROW(addResettlement(tx, history, f.table->paytable(), {settled, test::cards(kPlayerWins), "", "a"}),
                 std::invalid_argument);
    f.table->openRound();
    const RoundHistory open = reconstructRound(f.store->recordsOfRound(f.table->roundId()));
    EXPECT_THROW(addResettlement(tx, open, f.table->paytable(), {open.roundId, test::cards(kPlayerWins), "x", "a"}),
                 std::invalid_argument);
    EXPECT_TRUE(tx.empty());
}

TEST(Audit, RecomputesMetersAndFindsARoundPaidTwice) {
    JournalFixture f;
    fund(f, 1, 5000);
    f.playRound({{1, BetType::Banker, 1000}}, kBankerWins);
    f.table->snapshot();
    f.playRound({{1, BetType::Player, 1000}}, kBankerWins);
    AuditReport report = auditJournal(*test::whole(f));
    EXPECT_TRUE(report.ok()) << report.chain.problem;
    EXPECT_EQ(report.roundsChecked, 2);
    EXPECT_EQ(report.snapshotsCompared, 1);
    EXPECT_EQ(report.ledger.differenceFrom(f.journal->committed()), "");
    // A second settlement credit for the last round, chained properly: only the round check sees it.
    JournalTransaction tx = f.journal->begin();
    tx.credit(1, 0, reason::kSettlement, f.table->roundId(), {.wagered = 0});
    tx.add(kind::kBetSettled, f.table->roundId(), 1,
           json{{"bets", {1}},
                {"spot", "player"},
                {"stake", 1000},
                {"result", "win"},
                {"tier", 0},
                {"win", 1000},
                {"returned", 2000},
                {"breakage", "0"}});
    f.journal->submit(std::move(tx));
    report = auditJournal(*test::whole(f));
    EXPECT_TRUE(report.chain.ok);
    ASSERT_FALSE(report.roundProblems.empty());
    EXPECT_NE(report.roundProblems[0].find("settled twice"), std::string::npos) << report.roundProblems[0];
}

TEST(Export, JsonLinesCarryTheChainAndCsvQuotesBodies) {
    JournalFixture f;
    fund(f, 1, 5000);
    f.playRound({{1, BetType::Banker, 1000}}, kBankerWins);
    const auto second = f.playRound({{1, BetType::Tie, 100}}, kPlayerWins);
    std::ostringstream lines;
    const auto written =
        exportJournal(*test::whole(f), ExportRange{second, second, {}, {}, {}}, ExportFormat::JsonLines, lines);
    std::istringstream in(lines.str());
    std::string line;
    std::string previousHash;
    std::int64_t n = 0;
    while (std::getline(in, line)) {
        const json record = json::parse(line);
        EXPECT_EQ(record.at("round_id"), second);
        if (!previousHash.empty()) {
            EXPECT_EQ(record.at("prev_hash"), previousHash);
        }
        previousHash = record.at("hash");
        ++n;
    }
    EXPECT_EQ(n, written);
    EXPECT_EQ(written, static_cast<std::int64_t>(f.store->recordsOfRound(second).size()));
    std::ostringstream csv;
    exportJournal(*test::whole(f), ExportRange{second, second, {}, {}, {}}, ExportFormat::Csv, csv);
    EXPECT_EQ(csv.str().rfind("seq,at_utc,kind,round_id,station,body,hash,prev_hash,game\n", 0), 0U);
    EXPECT_NE(csv.str().find(R"("{""paytable"":""standard"")"), std::string::npos) << csv.str().substr(0, 400);
    EXPECT_EQ(formatUtc(1'795'000'000'123), "2026-11-18T11:06:40.123Z");
}

}  // namespace
}  // namespace pitlink::journal
