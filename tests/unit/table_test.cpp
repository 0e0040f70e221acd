// The table on a real journal file (committed inline) and a manual clock: the round state
// machine with both card sources, a station's bets, the cashier, the floor.
#include "daemon/table/table.h"

#include <gtest/gtest.h>

#include <deque>

#include "daemon/game/outcome.h"
#include "daemon/game/random_source.h"
#include "daemon/game/settlement.h"
#include "daemon/journal/read/round_history.h"
#include "daemon/journal/records/record_kinds.h"
#include "tests/support/deferred_sink.h"
#include "tests/support/manual_executor.h"
#include "tests/unit/fixtures.h"
#include "tests/unit/journal_fixture.h"
#include "tests/unit/table_fixture.h"

namespace pitlink::table {
namespace {

using game::BetType;
using journal::Meter;
using nlohmann::json;
using namespace std::chrono_literals;

// Player 2S 4D (6), Banker 9H KC (9, natural): Banker wins.
constexpr const char* kBankerWins = "2S 9H 4D KC";

TEST(Table, TheRngShoeDealsARoundAfterBothBettingWindowsAndPaysFromTheJournaledCards) {
    TableFixture f(CardSource::Rng);
    f.fund(1, 10'000);
    f.table->start();
    EXPECT_EQ(f.table->phase(), RoundPhase::BetsOpen);
    EXPECT_EQ(f.table->roundId(), 1);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Banker, 1'000, r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Tie, 200, r); }).ok);
    EXPECT_EQ(f.credits(1), 8'800);
    f.timers.advance(19'999ms);
    EXPECT_EQ(f.table->phase(), RoundPhase::BetsOpen);
    f.timers.advance(1ms);
    EXPECT_EQ(f.table->phase(), RoundPhase::LastBets);
    f.timers.advance(5s);
    // Closed, dealt, settled, and the next round is open.
    EXPECT_EQ(f.table->roundId(), 2);
    EXPECT_EQ(f.table->phase(), RoundPhase::BetsOpen);
    const journal::RoundHistory one = f.round(1);
    ASSERT_EQ(one.state, journal::RoundState::Settled);
    std::string problem;
    const auto coup = journal::completeCoup(one.cards, problem);
    ASSERT_TRUE(coup) << problem;
    const game::Outcome outcome = game::evaluate(*coup);
    const game::Money back = game::settleBet({1, BetType::Banker, 1'000}, outcome, f.paytable).returned +
                             game::settleBet({1, BetType::Tie, 200}, outcome, f.paytable).returned;
    EXPECT_EQ(f.credits(1), 8'800 + back);
    EXPECT_EQ(f.meter(1, Meter::CoinIn), 1'200);
    EXPECT_EQ(f.meter(1, Meter::GamesPlayed), 1);
    // The shoe was journaled before the first round, with its burn.
    EXPECT_EQ(f.count(journal::kind::kShoeStarted), 1);
}

TEST(Table, BetsAreRefusedByRuleAndTheRefusalIsJournaled) {
    TableFixture f(CardSource::Rng);
    f.fund(2, 500);
    f.table->start();
    const Reply tooMuch = f.call([&](Respond r) { f.table->placeBet(2, BetType::Player, 600, r); });
    EXPECT_FALSE(tooMuch.ok);
    EXPECT_EQ(tooMuch.error, "insufficient_credits");
    const Reply both = f.call([&](Respond r) { f.table->placeBet(2, BetType::Player, 200, r); });
    ASSERT_TRUE(both.ok);
    EXPECT_EQ(f.call([&](Respond r) { f.table->placeBet(2, BetType::Banker, 200, r); }).error, "player_and_banker");
    EXPECT_EQ(f.call([&](Respond r) { f.table->placeBet(9, BetType::Banker, 200, r); }).error, "no_such_station");
    EXPECT_EQ(f.count(journal::kind::kBetRefused), 2);
    EXPECT_EQ(f.credits(2), 300);
    f.timers.advance(25s);  // round 1 settles, round 2 opens
    f.timers.advance(25s);  // round 2 closes with no bet
    EXPECT_EQ(f.table->roundId(), 3);
    // Stopped: the round in progress finishes, no new one opens.
    f.table->stop();
    f.timers.advance(25s);
    EXPECT_EQ(f.table->roundId(), 3);
}

TEST(Table, ClearUndoRepeatAndDoubleMoveCreditsAsTheSlipChanges) {
    TableFixture f(CardSource::Reader);
    f.fund(3, 10'000);
    f.openReaderRound();
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(3, BetType::Banker, 1'000, r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(3, BetType::PlayerPair, 100, r); }).ok);
    EXPECT_EQ(f.credits(3), 8'900);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->undoBet(3, r); }).ok);  // the pair bet
    EXPECT_EQ(f.credits(3), 9'000);
    const Reply doubled = f.call([&](Respond r) { f.table->doubleBets(3, r); });
    ASSERT_TRUE(doubled.ok);
    EXPECT_EQ(std::get<BetsAnswer>(doubled.data).slip[BetType::Banker], 2'000);
    EXPECT_EQ(f.credits(3), 8'000);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->clearBets(3, r); }).ok);
    EXPECT_EQ(f.credits(3), 10'000);
    EXPECT_TRUE(f.table->station(3).bets.empty());
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(3, BetType::Banker, 500, r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->closeBets(r); }).ok);
    EXPECT_EQ(f.call([&](Respond r) { f.table->undoBet(3, r); }).error, "betting_closed");
    f.deal(kBankerWins);
    EXPECT_EQ(f.credits(3), 10'000 - 500 + 975);
    // The next round: repeat places last round's slip again.
    ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
    const Reply repeated = f.call([&](Respond r) { f.table->repeatBets(3, r); });
    ASSERT_TRUE(repeated.ok);
    EXPECT_EQ(std::get<BetsAnswer>(repeated.data).slip[BetType::Banker], 500);
    EXPECT_EQ(std::get<BetsAnswer>(repeated.data).slip.total(), 500);
    EXPECT_EQ(f.credits(3), 10'475 - 500);
    EXPECT_EQ(f.meter(3, Meter::BetsReturned), 1'000 + 100 + 2'000 - 1'000);
}

TEST(Table, ReaderCardsSettleTheRoundAndAnImpossibleCardVoidsItWithEveryBetReturned) {
    TableSettings oneDeck;
    oneDeck.shoe.decks = 1;
    TableFixture f(CardSource::Reader, oneDeck);
    f.fund(1, 5'000);
    f.openReaderRound();
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Banker, 1'000, r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->closeBets(r); }).ok);
    f.deal(kBankerWins);
    EXPECT_EQ(f.round(1).state, journal::RoundState::Settled);
    EXPECT_EQ(f.credits(1), 5'000 + 950);
    EXPECT_EQ(f.table->phase(), RoundPhase::Idle);
    // Round 2: the 2 of spades again, from a one-deck shoe that has already dealt it.
    ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Player, 700, r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->closeBets(r); }).ok);
    const Reply refused = f.call([&](Respond r) { f.table->dealCard(test::cards("2S")[0], r); });
    EXPECT_FALSE(refused.ok);
    EXPECT_EQ(refused.error, "card_refused");
    EXPECT_EQ(f.round(2).state, journal::RoundState::Voided);
    EXPECT_EQ(f.count(journal::kind::kCardRefused), 1);
    EXPECT_EQ(f.credits(1), 5'950);
    EXPECT_EQ(f.table->phase(), RoundPhase::Idle);
}

TEST(Table, CashOutIsATicketUpToTheLimitAndAboveItAHandpayThatLocksTheStation) {
    TableSettings limits;
    limits.ticketLimit = 3'000;
    TableFixture f(CardSource::Reader, limits);
    f.fund(1, 2'500);
    const Reply ticket = f.call([&](Respond r) { f.table->cashOut(1, r); });
    ASSERT_TRUE(ticket.ok);
    EXPECT_EQ(std::get<TicketAnswer>(ticket.data).ticket.amount, 2'500);
    EXPECT_EQ(std::get<TicketAnswer>(ticket.data).ticket.validation, "010000000000000001");
    EXPECT_EQ(f.credits(1), 0);
    EXPECT_EQ(f.meter(1, Meter::TicketOutCashable), 2'500);
    EXPECT_EQ(f.call([&](Respond r) { f.table->cashOut(1, r); }).error, "no_credits");

    f.fund(2, 4'000);
    const Reply handpay = f.call([&](Respond r) { f.table->cashOut(2, r); });
    ASSERT_TRUE(handpay.ok);
    EXPECT_EQ(std::get<HandpayAnswer>(handpay.data).amount, 4'000);
    EXPECT_EQ(f.credits(2), 4'000);  // still on the meter until the attendant pays it
    f.openReaderRound();
    EXPECT_EQ(f.call([&](Respond r) { f.table->placeBet(2, BetType::Banker, 100, r); }).error, "handpay_pending");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->resetHandpay(2, "alice", r); }).ok);
    EXPECT_EQ(f.credits(2), 0);
    EXPECT_EQ(f.meter(2, Meter::HandpaidCancelledCredits), 4'000);
    EXPECT_EQ(f.call([&](Respond r) { f.table->resetHandpay(2, "alice", r); }).error, "no_handpay");
}

TEST(Table, AWinAtTheJackpotLimitLocksTheStationForAHandpay) {
    TableSettings limits;
    limits.jackpotLimit = 900;
    TableFixture f(CardSource::Reader, limits);
    f.fund(1, 5'000);
    f.fund(2, 5'000);
    f.openReaderRound();
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Banker, 1'000, r); }).ok);  // wins 950
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(2, BetType::Banker, 500, r); }).ok);    // wins 475
    ASSERT_TRUE(f.call([&](Respond r) { f.table->closeBets(r); }).ok);
    f.deal(kBankerWins);
    ASSERT_TRUE(f.table->wallet(1).handpay.has_value());
    EXPECT_EQ(f.table->wallet(1).handpay->amount, 950);
    EXPECT_FALSE(f.table->wallet(2).handpay.has_value());
    EXPECT_EQ(f.call([&](Respond r) { f.table->tip(1, 100, r); }).error, "handpay_pending");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->resetHandpay(1, "bob", r); }).ok);
    EXPECT_EQ(f.credits(1), 5'000 + 950 - 950);
    EXPECT_EQ(f.meter(1, Meter::Jackpots), 950);
}

TEST(Table, TipsAttendantCallsAndDisputesAreJournaled) {
    TableFixture f(CardSource::Reader);
    f.fund(4, 1'000);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->tip(4, 300, r); }).ok);
    EXPECT_EQ(f.credits(4), 700);
    EXPECT_EQ(f.meter(4, Meter::Tips), 300);
    EXPECT_EQ(f.call([&](Respond r) { f.table->tip(4, 800, r); }).error, "insufficient_credits");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->callAttendant(4, r); }).ok);
    EXPECT_TRUE(f.table->wallet(4).attendantCalled);
    EXPECT_TRUE(std::holds_alternative<AlreadySo>(f.call([&](Respond r) { f.table->callAttendant(4, r); }).data));
    ASSERT_TRUE(f.call([&](Respond r) { f.table->clearAttendant(4, "carol", r); }).ok);
    EXPECT_FALSE(f.table->wallet(4).attendantCalled);
    EXPECT_EQ(f.count(journal::kind::kAttendantCalled), 1);
    EXPECT_EQ(f.count(journal::kind::kAttendantCleared), 1);
    EXPECT_EQ(f.call([&](Respond r) { f.table->dispute(4, 1, "not my bet", r); }).error, "not_current_or_last");
    f.openReaderRound();
    ASSERT_TRUE(f.call([&](Respond r) { f.table->dispute(4, 1, "not my bet", r); }).ok);
    EXPECT_EQ(f.count(journal::kind::kDisputeRaised), 1);
}

TEST(Table, AnOpenDoorTiltsTheTableUntilItIsClosedThenTheRngShoeGoesOn) {
    TableFixture f(CardSource::Rng);
    f.fund(1, 1'000);
    f.table->start();
    f.timers.advance(25s);  // round 1 done, round 2 open
    f.table->doorOpened("cash box");
    EXPECT_TRUE(f.table->tilted());
    EXPECT_EQ(f.call([&](Respond r) { f.table->placeBet(1, BetType::Player, 100, r); }).error, "tilted");
    f.timers.advance(25s);  // round 2 finishes; no round 3 while tilted
    EXPECT_EQ(f.table->roundId(), 2);
    EXPECT_EQ(f.table->phase(), RoundPhase::Idle);
    f.table->doorClosed("cash box");
    EXPECT_FALSE(f.table->tilted());
    EXPECT_EQ(f.table->roundId(), 3);
    EXPECT_EQ(f.table->phase(), RoundPhase::BetsOpen);
    EXPECT_EQ(f.journal->committed().tableOwn()[Meter::DoorOpens], 1);
}

TEST(Table, AntiDoublingCountsTheStationsLostEvenMoneyBetsRoundByRound) {
    TableSettings rules;
    rules.bets.antiDoubling = true;
    TableFixture f(CardSource::Reader, rules);
    f.fund(1, 20'000);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->newShoe(r); }).ok);
    for (int i = 0; i < 3; ++i) {  // three lost Player bets of 1000
        ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
        ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Player, 1'000, r); }).ok);
        ASSERT_TRUE(f.call([&](Respond r) { f.table->closeBets(r); }).ok);
        f.deal(kBankerWins);
    }
    ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
    EXPECT_EQ(f.call([&](Respond r) { f.table->placeBet(1, BetType::Player, 1'600, r); }).error, "anti_doubling");
    EXPECT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Player, 1'500, r); }).ok);
}

TEST(Table, AnUnreadableCardIsRescannedThenTheRoundIsVoided) {
    TableSettings rescans;
    rescans.rescanAttempts = 2;
    TableFixture f(CardSource::Reader, rescans);
    f.fund(1, 5'000);
    f.openReaderRound();
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Banker, 1'000, r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->closeBets(r); }).ok);
    f.deal("9S");
    EXPECT_EQ(std::get<RescanAnswer>(f.call([&](Respond r) { f.table->cardUnreadable(r); }).data).rescans, 1);
    EXPECT_EQ(std::get<RescanAnswer>(f.call([&](Respond r) { f.table->cardUnreadable(r); }).data).rescans, 2);
    const Reply third = f.call([&](Respond r) { f.table->cardUnreadable(r); });
    EXPECT_EQ(third.error, "card_unreadable");
    EXPECT_EQ(f.round(1).state, journal::RoundState::Voided);
    EXPECT_EQ(f.credits(1), 5'000);
    EXPECT_EQ(f.table->phase(), RoundPhase::Idle);
}

TEST(Table, ATiltFromOutsideIsJournaledAndClearedByAnOperatorButADoorTiltOnlyByClosingIt) {
    TableFixture f(CardSource::Reader);
    f.table->raiseTilt("card_reader", "the card reader stopped answering");
    EXPECT_TRUE(f.table->tilted());
    EXPECT_EQ(f.call([&](Respond r) { f.table->newShoe(r); }).ok, true);
    EXPECT_EQ(f.call([&](Respond r) { f.table->openRound(r); }).error, "tilted");
    EXPECT_EQ(f.count(journal::kind::kTiltRaised), 1);
    f.table->doorOpened("main");
    EXPECT_EQ(f.call([&](Respond r) { f.table->clearTilt("door:main", "dave", r); }).error, "tilt_cause_present");
    EXPECT_EQ(f.call([&](Respond r) { f.table->clearTilt("nothing", "dave", r); }).error, "no_tilt");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->clearTilt("card_reader", "dave", r); }).ok);
    EXPECT_TRUE(f.table->tilted());  // the door is still open
    ASSERT_TRUE(f.call([&](Respond r) { f.table->doorClosed("main", r); }).ok);
    EXPECT_FALSE(f.table->tilted());
    EXPECT_EQ(f.count(journal::kind::kTiltCleared), 1);
    EXPECT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
}

}  // namespace
}  // namespace pitlink::table

namespace pitlink::table {
namespace {

TEST(Table, AReconfigurationAppliesFromTheNextRoundAndSaysWhatNeedsARestart) {
    TableFixture f(CardSource::Rng);
    f.fund(1, 100'000);
    f.table->start();  // round 1 open, under a 20 s window and a 500,000 maximum
    TableSettings fresh;
    fresh.source = CardSource::Rng;
    fresh.betsOpen = 2s;
    fresh.lastBets = 1s;
    fresh.bets.limits.levels.front().main.max = 1'000;
    fresh.stations = 4;  // cannot change while running
    const Reply reply = f.call([&](Respond r) {
        f.table->reconfigure(
            fresh, journal::ConfigLoadedRecord{"pitlink.yaml", "ab", std::nullopt, std::nullopt, std::nullopt},
            {"table.paytable"}, r);
    });
    ASSERT_TRUE(reply.ok);
    EXPECT_EQ(std::get<ReconfigureAnswer>(reply.data).applied,
              (std::vector<std::string>{"rounds.bets_open_ms", "rounds.last_bets_ms", "bets"}));
    EXPECT_EQ(std::get<ReconfigureAnswer>(reply.data).restartNeeded,
              (std::vector<std::string>{"table.paytable", "table.stations"}));
    // The round in progress keeps the rules its bets are taken under...
    EXPECT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Banker, 5'000, r); }).ok);
    f.timers.advance(2s);
    EXPECT_EQ(f.table->phase(), RoundPhase::BetsOpen);
    f.timers.advance(23s);  // round 1: 20 s + 5 s
    // ...the next one opens under the new ones.
    EXPECT_EQ(f.table->roundId(), 2);
    EXPECT_EQ(f.call([&](Respond r) { f.table->placeBet(1, BetType::Banker, 5'000, r); }).error, "above_maximum");
    f.timers.advance(3s);
    EXPECT_EQ(f.table->roundId(), 3);
    EXPECT_EQ(f.table->stationCount(), 8);
    auto q = f.store->connection().prepare("SELECT body FROM record WHERE kind = 'config.loaded'");
    ASSERT_TRUE(q.step());
    const json body = json::parse(q.text(0));
    EXPECT_EQ(body["trigger"], "SIGHUP");
    EXPECT_EQ(body["applied"].size(), 3U);
}

using test::DeferredSink;

TEST(Table, ShutdownWaitsForTheRngRoundsSettlementToCommit) {
    TableFixture f(CardSource::Rng);
    f.fund(1, 10'000);
    DeferredSink deferred(*f.store);
    f.table.reset();
    f.journal = std::make_unique<journal::Journal>(
        deferred, f.journal->committed(), [] { return 1'795'000'000'000; }, 0);
    TableSettings settings;
    settings.betsOpen = 20s;
    settings.lastBets = 5s;
    f.table = std::make_unique<Table>(*f.journal, f.paytable, settings, f.timers, f.random, TableStart{},
                                      [&f](const TableEvent& e) { f.events.push_back(io::eventJson(e)); });
    f.table->start();
    deferred.flush();
    f.table->placeBet(1, BetType::Banker, 1'000, {});
    deferred.flush();
    f.timers.advance(25s);             // both windows: the close, the coup, the settlement and round 2 are submitted
    ASSERT_EQ(f.table->roundId(), 2);  // round 1 ended when its settlement was submitted
    ASSERT_EQ(f.table->phase(), RoundPhase::BetsOpen);
    ASSERT_FALSE(deferred.queued.empty());
    std::string verdict;
    f.table->shutdown([&](const std::string& v) { verdict = v; });
    EXPECT_TRUE(verdict.empty());  // it waits for what it submitted to commit, the void of round 2 last
    deferred.flush(deferred.queued.size() - 1);
    EXPECT_TRUE(verdict.empty());
    deferred.flush();
    EXPECT_EQ(verdict, "round 2 voided before the deal, bets returned");
    EXPECT_EQ(f.round(1).state, journal::RoundState::Settled);
    EXPECT_EQ(f.round(2).state, journal::RoundState::Voided);
    EXPECT_EQ(f.table->phase(), RoundPhase::Idle);
    f.timers.advance(60s);
    EXPECT_EQ(f.table->roundId(), 2);  // and no new round opened
}

TEST(Table, ShutdownVoidsARoundTakingBetsAndParksAReaderRoundBeingDealt) {
    TableFixture rng(CardSource::Rng);
    rng.fund(1, 10'000);
    rng.table->start();
    ASSERT_TRUE(rng.call([&](Respond r) { rng.table->placeBet(1, BetType::Player, 1'000, r); }).ok);
    std::string verdict;
    rng.table->shutdown([&](const std::string& v) { verdict = v; });
    EXPECT_EQ(verdict, "round 1 voided before the deal, bets returned");
    EXPECT_EQ(rng.credits(1), 10'000);
    EXPECT_EQ(rng.table->phase(), RoundPhase::Idle);
    rng.timers.advance(60s);
    EXPECT_EQ(rng.table->roundId(), 1);  // nothing new opens

    TableFixture reader(CardSource::Reader);
    reader.fund(1, 10'000);
    reader.openReaderRound();
    ASSERT_TRUE(reader.call([&](Respond r) { reader.table->placeBet(1, BetType::Player, 1'000, r); }).ok);
    ASSERT_TRUE(reader.call([&](Respond r) { reader.table->closeBets(r); }).ok);
    reader.deal("2S 9H");
    reader.table->shutdown([&](const std::string& v) { verdict = v; });
    EXPECT_NE(verdict.find("round 1 parked with 2 cards"), std::string::npos) << verdict;
    EXPECT_EQ(reader.round(1).state, journal::RoundState::Dealing);  // left for recovery
    EXPECT_EQ(reader.call([&](Respond r) { reader.table->openRound(r); }).error, "round_in_progress");
}

}  // namespace
}  // namespace pitlink::table
