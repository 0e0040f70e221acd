// Credits and meters from journal records; the logic thread's journal with its writer thread.
#include "daemon/journal/ledger/ledger.h"

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <thread>

#include "daemon/journal/journal_writer.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/store_sink.h"
#include "tests/support/completion_queue.h"
#include "tests/unit/journal_fixture.h"

namespace pitlink::journal {
namespace {

using nlohmann::json;

json credit(Money amount, Money balance, std::string_view why, json extra = json::object()) {
    extra["amount"] = amount;
    extra["balance"] = balance;
    extra["reason"] = why;
    return extra;
}

TEST(Ledger, SettlementCreditMetersCoinInCoinOutAndTheGame) {
    Ledger ledger;
    ledger.apply(kind::kCredit, 3, credit(5000, 5000, reason::kTicketIn));
    ledger.apply(kind::kCredit, 3, credit(-1000, 4000, reason::kBet));
    ledger.apply(kind::kCredit, 3, credit(1950, 5950, reason::kSettlement, {{"wagered", 1000}}));
    ledger.apply(kind::kCredit, 3, credit(-500, 5450, reason::kBet));
    ledger.apply(kind::kCredit, 3, credit(0, 5450, reason::kSettlement, {{"wagered", 500}}));
    const auto& m = ledger.stations().at(3).meters;
    EXPECT_EQ(ledger.credits(3), 5450);
    EXPECT_EQ(m[Meter::CoinIn], 1500);
    EXPECT_EQ(m[Meter::CoinOut], 1950);
    EXPECT_EQ(m[Meter::GamesPlayed], 2);
    EXPECT_EQ(m[Meter::GamesWon], 1);
    EXPECT_EQ(m[Meter::GamesLost], 1);
    EXPECT_EQ(m[Meter::TicketInCashable], 5000);
}

TEST(Ledger, CashOutMetersSayHowTheCreditsLeft) {
    Ledger ledger;
    ledger.apply(kind::kCredit, 1, credit(9000, 9000, reason::kTicketIn));
    ledger.apply(kind::kCredit, 1, credit(-2000, 7000, reason::kTicketOut));
    ledger.apply(kind::kCredit, 1, credit(-100, 6900, reason::kTip));
    ledger.apply(kind::kCredit, 1, credit(-6900, 0, reason::kHandpay));
    const auto& m = ledger.stations().at(1).meters;
    EXPECT_EQ(m[Meter::TicketOutCashable], 2000);
    EXPECT_EQ(m[Meter::HandpaidCancelledCredits], 6900);
    EXPECT_EQ(m[Meter::CancelledCredits], 8900);
    EXPECT_EQ(m[Meter::Tips], 100);
    EXPECT_EQ(ledger.tableTotals()[Meter::CancelledCredits], 8900);
}

TEST(Ledger, RefusesABalanceThatDoesNotFollowAndCreditsBelowZero) {
    Ledger ledger;
    ledger.apply(kind::kCredit, 1, credit(100, 100, reason::kTicketIn));
    EXPECT_THROW(ledger.apply(kind::kCredit, 1, credit(100, 250, reason::kTicketIn)), LedgerError);
    EXPECT_THROW(ledger.apply(kind::kCredit, 1, credit(-200, -100, reason::kBet)), LedgerError);
    EXPECT_THROW(ledger.apply(kind::kCredit, 1, credit(5, 105, "gift")), LedgerError);
    EXPECT_EQ(ledger.credits(1), 100);
}

TEST(Ledger, BreakageAddsUpExactly) {
    Ledger ledger;
    ledger.apply(kind::kBetSettled, 2, json{{"breakage", "1/2"}});
    ledger.apply(kind::kBetSettled, 2, json{{"breakage", "3/4"}});
    ledger.apply(kind::kBetSettled, 2, json{{"breakage", "0"}});
    EXPECT_EQ(ledger.stations().at(2).breakage, (game::Fraction{5, 4}));
}

TEST(Ledger, SnapshotRoundTripsAndDifferencesAreNamed) {
    Ledger ledger;
    ledger.apply(kind::kCredit, 4, credit(700, 700, reason::kTicketIn));
    ledger.apply(kind::kDaemonStarted, std::nullopt, json::object());
    const Ledger back = Ledger::fromJson(ledger.toJson());
    EXPECT_EQ(back.differenceFrom(ledger), "");
    Ledger other = back;
    other.apply(kind::kCredit, 4, credit(50, 750, reason::kTicketIn));
    EXPECT_EQ(other.differenceFrom(ledger), "station 4 credits 750 != 700");
    EXPECT_EQ(meterName(Meter::TicketInCashable), "ticket_in_cashable");
    EXPECT_EQ(reportedMeter(12'345'678'901'234), 5'678'901'234);
}

TEST(Ledger, EachGameAndDenominationsPlayIsMeteredApartAndAddsUpToTheStations) {
    Ledger ledger;
    ledger.apply(kind::kCredit, 1, credit(9'000, 9'000, reason::kTicketIn));
    // Game "a" at 0.05, game "b" at 0.05 and at 0.25, and a round from before denominations were
    // journaled (no game, no denomination); the jackpot of b's round at 0.25 is b's at 0.25.
    ledger.apply(kind::kCredit, 1,
                 credit(200, 9'200, reason::kSettlement, {{"wagered", 100}, {"game", "a"}, {"denomination", 5}}));
    ledger.apply(kind::kCredit, 1,
                 credit(0, 9'200, reason::kSettlement, {{"wagered", 300}, {"game", "b"}, {"denomination", 5}}));
    ledger.apply(kind::kCredit, 1,
                 credit(2'500, 11'700, reason::kSettlement, {{"wagered", 500}, {"game", "b"}, {"denomination", 25}}));
    ledger.apply(kind::kCredit, 1, credit(-2'000, 9'700, reason::kJackpot, {{"game", "b"}, {"denomination", 25}}));
    ledger.apply(kind::kCredit, 1, credit(40, 9'740, reason::kSettlement, {{"wagered", 40}}));
    const StationAccount& acc = ledger.stations().at(1);
    ASSERT_EQ(acc.plays.size(), 4U);
    const MeterSet& a5 = acc.plays.at(PlayKey{"a", 5});
    const MeterSet& b5 = acc.plays.at(PlayKey{"b", 5});
    const MeterSet& b25 = acc.plays.at(PlayKey{"b", 25});
    const MeterSet& old = acc.plays.at(PlayKey{"", 0});
    EXPECT_EQ((std::array{a5[Meter::CoinIn], a5[Meter::CoinOut], a5[Meter::GamesWon], a5[Meter::GamesLost]}),
              (std::array<std::int64_t, 4>{100, 200, 1, 0}));
    EXPECT_EQ((std::array{b5[Meter::CoinIn], b5[Meter::CoinOut], b5[Meter::GamesWon], b5[Meter::GamesLost]}),
              (std::array<std::int64_t, 4>{300, 0, 0, 1}));
    EXPECT_EQ((std::array{b25[Meter::CoinIn], b25[Meter::CoinOut], b25[Meter::Jackpots], b25[Meter::GamesPlayed]}),
              (std::array<std::int64_t, 4>{500, 2'500, 2'000, 1}));
    EXPECT_EQ((std::array{old[Meter::CoinIn], old[Meter::CoinOut], old[Meter::GamesPlayed], old[Meter::GamesWon]}),
              (std::array<std::int64_t, 4>{40, 40, 1, 0}));  // a push: neither won nor lost
    // 100 + 300 + 500 + 40 wagered; 200 + 0 + 2,500 + 40 paid; four games.
    EXPECT_EQ((std::array{acc.meters[Meter::CoinIn], acc.meters[Meter::CoinOut], acc.meters[Meter::GamesPlayed],
                          acc.meters[Meter::Jackpots]}),
              (std::array<std::int64_t, 4>{940, 2'740, 4, 2'000}));
    // The snapshot keeps them; one whose plays do not add up to the station's meters is refused.
    const json snapshot = ledger.toJson();
    EXPECT_EQ(Ledger::fromJson(snapshot).differenceFrom(ledger), "");
    json forged = snapshot;
    forged["stations"]["1"]["plays"][0]["meters"]["coin_in"] = 101;
    EXPECT_THROW((void)Ledger::fromJson(forged), LedgerError);
    Ledger moved = Ledger::fromJson(snapshot);
    moved.apply(kind::kCredit, 1,
                credit(0, 9'740, reason::kSettlement, {{"wagered", 0}, {"game", "a"}, {"denomination", 25}}));
    EXPECT_NE(moved.differenceFrom(Ledger::fromJson(snapshot)), "");
}

TEST(Ledger, GamesSinceTheDoorClosedAndTicketCountsAreKept) {
    Ledger ledger;
    ledger.apply(kind::kCredit, 2, credit(900, 900, reason::kTicketIn));
    ledger.apply(kind::kCredit, 2, credit(300, 1'200, reason::kTicketIn));
    ledger.apply(kind::kCredit, 2, credit(0, 1'200, reason::kSettlement, {{"wagered", 100}}));
    ledger.apply(kind::kDoorClosed, std::nullopt, json{{"door", "main"}});  // the table's: every station
    ledger.apply(kind::kCredit, 2, credit(0, 1'200, reason::kSettlement, {{"wagered", 100}}));
    ledger.apply(kind::kCredit, 2, credit(-1'200, 0, reason::kTicketOut));
    const StationAccount& acc = ledger.stations().at(2);
    EXPECT_EQ((std::array{acc.meters[Meter::GamesPlayed], acc.gamesAtDoorClose, acc.ticketsIn, acc.ticketsOut}),
              (std::array<std::int64_t, 4>{2, 1, 2, 1}));
    EXPECT_EQ(Ledger::fromJson(ledger.toJson()).stations().at(2), acc);
}

// A snapshot written before plays were kept: the start-up takes each station's play as one naming
// nothing, and a replay of the whole journal adopts that there, so that it meets later snapshots.
TEST(Ledger, ASnapshotFromBeforePlaysIsAdoptedByAReplay) {
    Ledger replay;
    replay.apply(kind::kCredit, 1, credit(500, 500, reason::kTicketIn));
    replay.apply(kind::kCredit, 1, credit(60, 560, reason::kSettlement, {{"wagered", 50}, {"game", "a"}}));
    replay.apply(kind::kDoorClosed, 1, json{{"door", "station"}});
    json old = replay.toJson();
    old["stations"]["1"].erase("plays");
    old["stations"]["1"].erase("games_at_door_close");
    old["stations"]["1"].erase("tickets");
    const Ledger started = Ledger::fromJson(old);
    EXPECT_FALSE(started.playsKnown());
    EXPECT_EQ(started.stations().at(1).plays.count(PlayKey{}), 1U);
    EXPECT_EQ(replay.differenceFrom(started), "");  // not compared
    replay.adoptPlaysOf(started);
    EXPECT_EQ(replay.stations().at(1).plays, started.stations().at(1).plays);
    // LP 18's door count runs from the snapshot (its games played then); ticket counts from 0.
    EXPECT_EQ((std::array{replay.stations().at(1).gamesAtDoorClose, replay.stations().at(1).ticketsIn}),
              (std::array<std::int64_t, 2>{1, 0}));
}

TEST(JournalWriter, CommitsInOrderAndTheCommittedLedgerMovesOnlyWhenTheCommitIsReported) {
    test::TempDir dir;
    test::CompletionQueue completions;
    auto store = std::make_unique<JournalStore>((dir.path() / "j.db").string(), StoreOptions{});
    JournalWriter writer(std::move(store), completions);
    Journal journal(
        writer, Ledger{}, [] { return 1; }, 0);
    std::vector<std::int64_t> seqs;
    constexpr int kCommits = 40;
    for (int i = 0; i < kCommits; ++i) {
        JournalTransaction tx = journal.begin();
        tx.add(kind::kTicketRedeemed, std::nullopt, 1, json{{"amount", 10}});
        tx.credit(1, 10, reason::kTicketIn);
        journal.submit(std::move(tx), [&](const CommitResult& r) {
            ASSERT_TRUE(r.ok) << r.error;
            seqs.push_back(r.seqs.firstSeq);
        });
    }
    EXPECT_EQ(journal.projected().credits(1), 10 * kCommits);
    EXPECT_EQ(journal.committed().credits(1), 0);  // nothing reported yet
    for (int i = 0; i < kCommits; ++i) {
        completions.runOne();
        EXPECT_EQ(journal.committed().credits(1), 10 * (i + 1));
    }
    for (int i = 0; i < kCommits; ++i) {
        EXPECT_EQ(seqs[static_cast<std::size_t>(i)], 1 + 2 * i);
    }
    writer.stop();
    EXPECT_EQ(writer.commits(), static_cast<std::uint64_t>(kCommits));
}

TEST(JournalWriter, CommitsQueuedWhileACommitWaitsGoTogetherInOneTransaction) {
    test::TempDir dir;
    const std::string path = (dir.path() / "j.db").string();
    test::CompletionQueue completions;
    JournalWriter writer(std::make_unique<JournalStore>(path, StoreOptions{}), completions);
    Journal journal(
        writer, Ledger{}, [] { return 1; }, 0);
    // Another connection holds the write lock: the writer's first transaction waits for it
    // (busy timeout) while the rest are queued behind it.
    SqliteConnection other(path, SqliteConnection::Mode::ReadWrite);
    other.exec("BEGIN IMMEDIATE");
    constexpr int kCommits = 10;
    int ok = 0;
    for (int i = 0; i < kCommits; ++i) {
        JournalTransaction tx = journal.begin();
        tx.add(kind::kTip, std::nullopt, 1, json{{"amount", 1}});
        journal.submit(std::move(tx), [&](const CommitResult& r) { ok += r.ok ? 1 : 0; });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    other.exec("COMMIT");
    for (int i = 0; i < kCommits; ++i) {
        completions.runOne();
    }
    writer.stop();
    EXPECT_EQ(ok, kCommits);
    EXPECT_EQ(writer.commits(), static_cast<std::uint64_t>(kCommits));
    // The first wake-up took what was queued by then (one or all of them); everything else went
    // in one more transaction. A writer committing one by one would report 10.
    EXPECT_GE(writer.transactions(), 1U);
    EXPECT_LE(writer.transactions(), 2U);
}

TEST(Journal, ARefusedCreditChangesNothing) {
    test::JournalFixture f;
    f.table->ticketIn(1, 300, "T");
    JournalTransaction tx = f.journal->begin();
    EXPECT_THROW(tx.credit(1, -301, reason::kBet), LedgerError);
    EXPECT_EQ(f.journal->projected().credits(1), 300);
}

// The projection is moved in place (no copy per transaction): a transaction whose record the
// ledger refuses part-way must leave it as it was, the transactions still in flight included,
// and must not count as in flight itself.
TEST(Journal, ATransactionTheLedgerRefusesAtSubmitLeavesTheProjectionAndTheInFlightCount) {
    test::TempDir dir;
    test::CompletionQueue completions;
    JournalWriter writer(std::make_unique<JournalStore>((dir.path() / "j.db").string(), StoreOptions{}), completions);
    Journal journal(
        writer, Ledger{}, [] { return 1; }, 0);
    for (const auto& [station, amount] : {std::pair<std::int64_t, Money>{1, 500}, {2, 70}}) {
        JournalTransaction tx = journal.begin();
        tx.credit(station, amount, reason::kTicketIn);
        journal.submit(std::move(tx));
    }
    // Station 1 moves on (applied), then a credit whose balance does not follow (refused).
    JournalTransaction bad = journal.begin();
    bad.credit(1, -200, reason::kBet);
    bad.add(kind::kCredit, std::nullopt, 2, credit(5, 999, reason::kTicketIn));
    EXPECT_THROW(journal.submit(std::move(bad)), LedgerError);
    EXPECT_EQ(journal.projected().credits(1), 500);
    EXPECT_EQ(journal.projected().credits(2), 70);
    EXPECT_EQ(journal.inFlight(), 2U);
    completions.runOne();
    completions.runOne();
    EXPECT_EQ(journal.inFlight(), 0U);
    EXPECT_EQ(journal.committed().credits(1), 500);
    EXPECT_EQ(journal.committed().credits(2), 70);
    bool waited = false;
    journal.afterPending([&] { waited = true; });
    EXPECT_TRUE(waited);
    writer.stop();
}

TEST(Journal, SnapshotsAreAddedEveryNRecordsWithTheMetersAtThatPoint) {
    test::TempDir dir;
    JournalStore store((dir.path() / "j.db").string(), StoreOptions{});
    StoreSink sink(store);
    Journal journal(
        sink, Ledger{}, [] { return 1; }, 4);
    for (int i = 0; i < 3; ++i) {
        JournalTransaction tx = journal.begin();
        tx.add(kind::kTicketRedeemed, std::nullopt, 1, json{{"amount", 10}});
        tx.credit(1, 10, reason::kTicketIn);
        journal.submit(std::move(tx));
    }
    const auto snapshot = store.lastSeqOfKind(kind::kMetersSnapshot, store.tipSeq() + 1);
    ASSERT_TRUE(snapshot);
    EXPECT_EQ(*snapshot, 5);  // after the 4th record, closing the 2nd transaction
    const Ledger stored = Ledger::fromJson(json::parse(store.record(*snapshot)->body));
    EXPECT_EQ(stored.credits(1), 20);
}

TEST(Journal, AfterARestartTheRecordsSinceTheLastSnapshotCountTowardsTheNext) {
    test::TempDir dir;
    JournalStore store((dir.path() / "j.db").string(), StoreOptions{});
    StoreSink sink(store);
    Journal journal(
        sink, Ledger{}, [] { return 1; }, 4);
    journal.countSinceSnapshot(3);  // the journal held 3 records after its last snapshot
    JournalTransaction tx = journal.begin();
    tx.add(kind::kTicketRedeemed, std::nullopt, 1, json{{"amount", 10}});
    tx.credit(1, 10, reason::kTicketIn);
    journal.submit(std::move(tx));
    // Without the count, 2 records of 4 would not yet call for one.
    EXPECT_EQ(store.lastSeqOfKind(kind::kMetersSnapshot, store.tipSeq() + 1), std::optional<std::int64_t>(3));
}

}  // namespace
}  // namespace pitlink::journal
