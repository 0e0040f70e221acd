// Issue 20's station functions at the table: disputes held and resolved (re-settled), reserved
// stations that lock, auto-repeat, and the live roads event. Expected money is worked out here
// from the paytable's ratios, not taken from the table.
#include <gtest/gtest.h>

#include <algorithm>

#include "daemon/journal/records/record_kinds.h"
#include "tests/unit/table_fixture.h"

namespace pitlink::table {
namespace {

using game::BetType;
using namespace std::chrono_literals;

// The events of one kind the table published, in order.
std::vector<nlohmann::json> eventsOf(const TableFixture& f, const std::string& name) {
    std::vector<nlohmann::json> out;
    std::copy_if(f.events.begin(), f.events.end(), std::back_inserter(out),
                 [&](const nlohmann::json& e) { return e.value("event", "") == name; });
    return out;
}

// Closes bets and deals the coup: the round settles.
void closeAndDeal(TableFixture& f, const std::string& cards) {
    ASSERT_TRUE(f.call([&](Respond r) { f.table->closeBets(r); }).ok);
    f.deal(cards);
}

// One integer a query of the table's journal gives.
std::int64_t scalar(TableFixture& f, const std::string& sql) {
    auto q = f.store->connection().prepare(sql);
    q.step();
    return q.integer(0);
}

TEST(Disputes, OnlyLiveGamesAndOnlyTheCurrentOrLastDeal) {
    TableFixture rng(CardSource::Rng);
    rng.table->start();
    rng.timers.advance(25s);
    EXPECT_EQ(rng.call([&](Respond r) { rng.table->dispute(1, 1, "wrong card", r); }).error, "live_only");

    TableFixture f(CardSource::Reader);
    f.openReaderRound();
    closeAndDeal(f, "9H 2C TD 3S");  // round 1 settled
    ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
    closeAndDeal(f, "9H 2C TD 3S");                                     // round 2 settled
    ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);  // round 3 open
    EXPECT_EQ(f.call([&](Respond r) { f.table->dispute(1, 1, "too old", r); }).error, "not_current_or_last");
    EXPECT_EQ(f.call([&](Respond r) { f.table->dispute(1, 4, "not yet", r); }).error, "not_current_or_last");
    EXPECT_TRUE(f.call([&](Respond r) { f.table->dispute(1, 2, "the last deal", r); }).ok);
    EXPECT_EQ(f.call([&](Respond r) { f.table->dispute(1, 3, "and this one", r); }).error, "dispute_open");
    EXPECT_TRUE(f.call([&](Respond r) { f.table->dispute(2, 3, "the current deal", r); }).ok);
    EXPECT_EQ(f.count(journal::kind::kDisputeRaised), 2);
    EXPECT_EQ(f.count(journal::kind::kRequestRefused), 3);  // every refusal journaled
    ASSERT_TRUE(f.table->station(2).dispute);
    EXPECT_EQ(f.table->station(2).dispute->round, 3);
}

TEST(Disputes, AnOpenDisputeHoldsTheNextRoundUntilAnOperatorDecides) {
    TableFixture f(CardSource::Reader);
    f.openReaderRound();
    ASSERT_TRUE(f.call([&](Respond r) { f.table->dispute(3, 1, "the dealer dropped a card", r); }).ok);
    closeAndDeal(f, "9H 2C TD 3S");  // the round still settles
    EXPECT_EQ(f.table->phase(), RoundPhase::Idle);
    EXPECT_EQ(f.call([&](Respond r) { f.table->openRound(r); }).error, "dispute_open");
    const Table::DisputeDecision wrongRound{3, 7, false, "no", "carol"};
    EXPECT_EQ(f.call([&](Respond r) { f.table->resolveDispute(wrongRound, {}, r); }).error, "no_dispute");
    const Table::DisputeDecision nobody{4, std::nullopt, false, "no", "carol"};
    EXPECT_EQ(f.call([&](Respond r) { f.table->resolveDispute(nobody, {}, r); }).error, "no_dispute");
    const Reply resolved = f.call([&](Respond r) {
        f.table->resolveDispute({3, 1, false, "video shows the deal", "carol"}, {}, r);
    });
    ASSERT_TRUE(resolved.ok);
    const auto& answer = std::get<DisputeResolvedAnswer>(resolved.data);
    EXPECT_FALSE(answer.upheld);
    EXPECT_FALSE(answer.resettlement);
    EXPECT_FALSE(f.table->station(3).dispute);
    EXPECT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
    const auto disputes = eventsOf(f, "dispute");
    ASSERT_EQ(disputes.size(), 2U);
    EXPECT_EQ(disputes[0].at("status"), "open");
    EXPECT_EQ(disputes[0].at("text"), "the dealer dropped a card");
    EXPECT_EQ(disputes[1].at("status"), "rejected");
    EXPECT_EQ(disputes[1].at("by"), "carol");
    EXPECT_EQ(disputes[1].at("resettled"), false);
    EXPECT_EQ(f.count(journal::kind::kDisputeResolved), 1);
}

TEST(Disputes, AnUpheldDisputeReSettlesTheRoundInTheSameTransaction) {
    TableFixture f(CardSource::Reader);
    f.fund(1, 10'000);
    f.openReaderRound();
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Banker, 1'000, r); }).ok);
    closeAndDeal(f, "9H 2C TD 3S");  // player 9 against banker 5: the banker bet lost
    EXPECT_EQ(f.credits(1), 9'000);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->dispute(1, 1, "the banker's first card was a 9", r); }).ok);
    const journal::RoundHistory round = f.round(1);
    // Rejected with cards: refused; the wrong round's cards: refused.
    EXPECT_EQ(f.call([&](Respond r) {
                   f.table->resolveDispute({1, 1, false, "x", "carol"},
                                           Table::CorrectedRound{&round, &f.paytable, test::cards("2C 9H 3S TD")}, r);
               }).error,
              "bad_request");
    const Reply resolved = f.call([&](Respond r) {
        f.table->resolveDispute({1, std::nullopt, true, "video: cards were swapped", "carol"},
                                Table::CorrectedRound{&round, &f.paytable, test::cards("2C 9H 3S TD")}, r);
    });
    ASSERT_TRUE(resolved.ok) << resolved.message;
    // Banker 9 against player 5: the 1,000 on banker wins 19/20 of it, 950, and is returned.
    EXPECT_EQ(f.credits(1), 10'000 - 1'000 + 1'000 + 950);
    const auto& answer = std::get<DisputeResolvedAnswer>(resolved.data);
    ASSERT_TRUE(answer.resettlement);
    EXPECT_EQ(answer.resettlement->records.credits.at(1).amount, 1'950);
    // The decision and the re-settlement it made: one transaction, the decision after it.
    EXPECT_EQ(scalar(f,
                     "SELECT (SELECT seq FROM record WHERE kind = 'dispute.resolved') - "
                     "(SELECT max(seq) FROM record WHERE kind IN ('round.resettled', 'bet.adjusted', 'credit'))"),
              1);
    const auto resolvedEvent = eventsOf(f, "dispute").back();
    EXPECT_EQ(resolvedEvent.at("status"), "upheld");
    EXPECT_EQ(resolvedEvent.at("resettled"), true);
    const auto credits = eventsOf(f, "credits").back();
    EXPECT_EQ(credits.at("credits"), 10'950);
    EXPECT_EQ(credits.at("resettled_round"), 1);
}

TEST(Reservations, AReservedStationTakesNoBetsOrCashUntilReleasedWithItsPinOrTimedOut) {
    TableSettings settings;
    settings.reserveTimeout = 10min;
    TableFixture f(CardSource::Reader, settings);
    f.fund(2, 5'000);
    f.openReaderRound();
    const Reply reserved = f.call([&](Respond r) { f.table->reserve(2, true, "4711", r); });
    ASSERT_TRUE(reserved.ok);
    EXPECT_EQ(std::get<ReservedAnswer>(reserved.data).untilMs, test::ManualExecutor::kWallAtZeroMs + 600'000);
    EXPECT_EQ(f.call([&](Respond r) { f.table->placeBet(2, BetType::Player, 100, r); }).error, "station_reserved");
    EXPECT_EQ(f.call([&](Respond r) { f.table->cashOut(2, r); }).error, "station_reserved");
    EXPECT_EQ(f.call([&](Respond r) { f.table->tip(2, 100, r); }).error, "station_reserved");
    EXPECT_EQ(f.call([&](Respond r) { f.table->reserve(2, true, "", r); }).error, "station_reserved");
    EXPECT_EQ(f.call([&](Respond r) { f.table->reserve(2, false, "1234", r); }).error, "wrong_pin");
    EXPECT_EQ(f.call([&](Respond r) { f.table->reserve(2, false, "", r); }).error, "wrong_pin");
    EXPECT_EQ(f.credits(2), 5'000);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->reserve(2, false, "4711", r); }).ok);
    EXPECT_TRUE(f.call([&](Respond r) { f.table->placeBet(2, BetType::Player, 100, r); }).ok);

    // Without a PIN: the time-out frees it, journaled and told.
    ASSERT_TRUE(f.call([&](Respond r) { f.table->reserve(2, true, "", r); }).ok);
    f.timers.advance(9min);
    EXPECT_TRUE(f.table->wallet(2).reservation);
    f.timers.advance(1min);
    EXPECT_FALSE(f.table->wallet(2).reservation);
    const auto changes = eventsOf(f, "reserved");
    ASSERT_EQ(changes.size(), 4U);
    EXPECT_EQ(changes[3].at("reserved"), false);
    EXPECT_EQ(changes[3].at("by"), "timeout");
    EXPECT_EQ(f.count(journal::kind::kStationReserved), 4);
    // The journal keeps a digest of the PIN, never the PIN itself.
    EXPECT_EQ(scalar(f, "SELECT count(*) FROM record WHERE body LIKE '%4711%'"), 0);

    // Three wrong PINs: the player's release is locked; the floor frees it.
    ASSERT_TRUE(f.call([&](Respond r) { f.table->reserve(2, true, "5555", r); }).ok);
    for (const char* wrong : {"1111", "2222", "3333"}) {
        EXPECT_EQ(f.call([&](Respond r) { f.table->reserve(2, false, wrong, r); }).error, "wrong_pin");
    }
    EXPECT_EQ(f.call([&](Respond r) { f.table->reserve(2, false, "5555", r); }).error, "pin_locked");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->releaseReservation(2, "carol", r); }).ok);

    // An operator frees a station whatever its PIN.
    ASSERT_TRUE(f.call([&](Respond r) { f.table->reserve(2, true, "99999", r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->releaseReservation(2, "carol", r); }).ok);
    EXPECT_EQ(f.call([&](Respond r) { f.table->releaseReservation(2, "carol", r); }).error, "not_reserved");
}

TEST(Reservations, AReservationSurvivesARestartAndItsTimeOutRunsOn) {
    TableFixture f(CardSource::Reader);
    TableStart start;
    start.reservations[5] = journal::ReservationFact{true, test::ManualExecutor::kWallAtZeroMs + 60'000, ""};
    TableSettings settings;
    settings.source = CardSource::Reader;
    Table restarted(*f.journal, f.paytable, settings, f.timers, f.random, start,
                    [&](const TableEvent& e) { f.events.push_back(io::eventJson(e)); });
    EXPECT_EQ(f.call([&](Respond r) { restarted.placeBet(5, BetType::Player, 100, r); }).error, "station_reserved");
    f.timers.advance(60s);
    EXPECT_FALSE(restarted.wallet(5).reservation);
    EXPECT_EQ(eventsOf(f, "reserved").back().at("by"), "timeout");
}

TEST(AutoRepeat, TheLastSlipIsPlacedAtEveryOpeningUntilARepeatIsRefused) {
    TableFixture f(CardSource::Reader);
    f.fund(1, 2'500);
    EXPECT_EQ(f.call([&](Respond r) { f.table->setAutoRepeat(1, true, r); }).error, "nothing_to_repeat");
    f.openReaderRound();
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Banker, 1'000, r); }).ok);
    closeAndDeal(f, "9H 2C TD 3S");  // banker loses: 1,500 left
    const Reply on = f.call([&](Respond r) { f.table->setAutoRepeat(1, true, r); });
    ASSERT_TRUE(on.ok);
    EXPECT_TRUE(std::get<AutoRepeatAnswer>(on.data).on);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);  // round 2: repeated by itself
    ASSERT_EQ(f.table->station(1).bets.size(), 1U);
    EXPECT_EQ(f.table->station(1).bets[0].stake, 1'000);
    closeAndDeal(f, "9H 2C TD 3S");  // lost again: 500 left
    EXPECT_EQ(f.credits(1), 500);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);  // round 3: 1,000 is more than 500
    EXPECT_TRUE(f.table->station(1).bets.empty());
    EXPECT_FALSE(f.table->station(1).autoRepeat);
    const auto told = eventsOf(f, "auto_repeat");
    ASSERT_EQ(told.size(), 2U);
    EXPECT_EQ(told[1].at("on"), false);
    EXPECT_EQ(told[1].at("reason"), "insufficient_credits");
    EXPECT_EQ(scalar(f,
                     "SELECT count(*) FROM record WHERE kind = 'bet.refused' AND "
                     "json_extract(body, '$.action') = 'auto_repeat'"),
              1);
    EXPECT_EQ(scalar(f,
                     "SELECT count(*) FROM record WHERE kind = 'bet.accepted' AND "
                     "json_extract(body, '$.action') = 'auto_repeat'"),
              1);
}

TEST(LiveRoads, EveryResultSendsTheShoesRoadsAndNaturalsOnTheBigRoadCanBeSwitchedOff) {
    TableSettings settings;
    settings.naturalsOnBigRoad = false;
    TableFixture f(CardSource::Reader, settings);
    f.openReaderRound();
    closeAndDeal(f, "9H 2C TD 3S");  // a player natural
    const auto roads = eventsOf(f, "roads");
    ASSERT_EQ(roads.size(), 2U);  // the new shoe's empty roads, then after the result
    EXPECT_EQ(roads[0].at("statistics").at("rounds"), 0);
    const nlohmann::json& after = roads[1];
    EXPECT_EQ(after.at("statistics").at("rounds"), 1);
    EXPECT_EQ(after.at("statistics").at("player_wins"), 1);
    EXPECT_EQ(after.at("statistics").at("naturals"), 1);
    EXPECT_EQ(after.at("bead_plate").at(0).at("natural"), 9);  // the natural's score
    EXPECT_EQ(after.at("big_road").at("cells").at(0).at("natural"), 0);
    EXPECT_EQ(after.at("naturals_on_big_road"), false);
    // The roads op answers the same, with what has been submitted.
    const Reply asked = f.table->roads();
    EXPECT_EQ(std::get<RoadsAnswer>(asked.data).roads.board.statistics().playerWins, 1);
}

}  // namespace
}  // namespace pitlink::table

namespace pitlink::table {
namespace {

using game::BetType;
using namespace std::chrono_literals;

TableSettings oneDeck() {
    TableSettings settings;
    settings.shoe.decks = 1;
    settings.shoe.cutCardFromEnd = 6;
    return settings;
}

TEST(PhysicalShoe, TheBurnLeavesTheCompositionAndItsCountFollowsTheTurnedCard) {
    TableFixture rng(CardSource::Rng);
    EXPECT_EQ(rng.call([&](Respond r) { rng.table->reportBurn(test::cards("AH 2C"), r); }).error, "rng_shoe");

    TableFixture f(CardSource::Reader, oneDeck());
    EXPECT_EQ(f.call([&](Respond r) { f.table->reportBurn(test::cards("AH 2C"), r); }).error, "no_shoe");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->newShoe(r); }).ok);
    // A five burns five more, not one.
    EXPECT_EQ(f.call([&](Respond r) { f.table->reportBurn(test::cards("5C 2C"), r); }).error, "burn_count");
    // A king burns ten; one deck has one 9 of hearts.
    EXPECT_EQ(f.call([&](Respond r) { f.table->reportBurn(test::cards("KC 9H 9H 2C 3C 4C 5C 6C 7C 8C 9C"), r); }).error,
              "impossible_card");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->reportBurn(test::cards("AH 9H"), r); }).ok);
    EXPECT_EQ(f.call([&](Respond r) { f.table->reportBurn(test::cards("AS 2S"), r); }).error, "already_reported");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
    EXPECT_EQ(f.call([&](Respond r) { f.table->reportCut(20, r); }).error, "shoe_in_play");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->closeBets(r); }).ok);
    // The burned 9H cannot come out of a one-deck shoe: a misdeal, the round voided.
    EXPECT_EQ(f.call([&](Respond r) { f.table->dealCard(test::cards("9H")[0], r); }).error, "card_refused");
    EXPECT_EQ(f.round(1).state, journal::RoundState::Voided);
    EXPECT_EQ(f.count(journal::kind::kShoeBurned), 1);
}

TEST(PhysicalShoe, TheReportedCutEndsTheShoeWhenNoMoreCardsAreLeftThanWereBehindIt) {
    TableFixture f(CardSource::Reader, oneDeck());
    ASSERT_TRUE(f.call([&](Respond r) { f.table->newShoe(r); }).ok);
    EXPECT_EQ(f.call([&](Respond r) { f.table->reportCut(47, r); }).error, "bad_cut");         // 52 - 6 at most
    ASSERT_TRUE(f.call([&](Respond r) { f.table->reportBurn(test::cards("AH 2C"), r); }).ok);  // 50 left
    ASSERT_TRUE(f.call([&](Respond r) { f.table->reportCut(43, r); }).ok);
    EXPECT_EQ(f.call([&](Respond r) { f.table->reportCut(40, r); }).error, "already_reported");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->closeBets(r); }).ok);
    f.deal("9S 2H KD 4C");  // 46 left: more than 43
    ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->closeBets(r); }).ok);
    f.deal("8S 3H QD 5C");  // 42 left: the cut card is out, this was the shoe's last round
    const nlohmann::json last = f.events.back().at("event") == "roads" ? f.events.end()[-2] : f.events.back();
    EXPECT_EQ(last.at("event"), "result");
    EXPECT_EQ(last.at("cut_card_out"), true);
    EXPECT_EQ(last.at("cards_left"), 42);
    EXPECT_EQ(last.at("statistics").at("rounds"), 2);
    EXPECT_EQ(f.call([&](Respond r) { f.table->openRound(r); }).error, "no_shoe");
}

TEST(CardReader, AFaultOrASilentReaderTiltsTheTableUntilTheReaderIsWellAgain) {
    TableSettings settings;
    settings.readerTimeout = 30s;
    TableFixture f(CardSource::Reader, settings);
    f.fund(1, 1'000);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->readerStatus(false, "lens dirty", r); }).ok);
    ASSERT_EQ(f.table->tilts().count("reader"), 1U);
    EXPECT_EQ(f.table->tilts().at("reader"), "the card reader reports a fault: lens dirty");
    EXPECT_EQ(f.call([&](Respond r) { f.table->newShoe(r); }).ok, true);
    EXPECT_EQ(f.call([&](Respond r) { f.table->openRound(r); }).error, "tilted");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->readerStatus(true, "", r); }).ok);
    EXPECT_FALSE(f.table->tilted());
    EXPECT_TRUE(std::holds_alternative<AlreadySo>(f.call([&](Respond r) { f.table->readerStatus(true, "", r); }).data));

    // Silence: 30 s without a card while dealing.
    ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Player, 500, r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->closeBets(r); }).ok);
    f.timers.advance(29s);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->dealCard(test::cards("9S")[0], r); }).ok);
    f.timers.advance(29s);
    EXPECT_FALSE(f.table->tilted());  // each card restarts the wait
    f.timers.advance(2s);
    ASSERT_TRUE(f.table->tilted());
    EXPECT_NE(f.table->tilts().at("reader").find("no card from the reader for 30 s"), std::string::npos);
    // The round in play still finishes once cards come; no new round until the reader is well.
    f.deal("2H KD 4C");
    EXPECT_EQ(f.credits(1), 1'000 + 500);  // player 9 against 6: even money
    EXPECT_EQ(f.call([&](Respond r) { f.table->openRound(r); }).error, "tilted");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->clearTilt("reader", "carol", r); }).ok);
    EXPECT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
    EXPECT_EQ(f.count(journal::kind::kTiltRaised), 2);
    EXPECT_EQ(f.count(journal::kind::kTiltCleared), 2);
    f.timers.advance(24s);  // betting (20 s + 5 s): no card is awaited, no tilt
    EXPECT_FALSE(f.table->tilted());
    f.timers.advance(31s);  // the window closed by itself 25 s in: a card is awaited since
    EXPECT_TRUE(f.table->tilted());
}

}  // namespace
}  // namespace pitlink::table

namespace pitlink::table {
namespace {

using game::BetType;
using namespace std::chrono_literals;

TableSettings dealMode() {
    TableSettings settings;
    settings.startOnDeal = true;
    return settings;
}

TEST(SinglePlayerDeal, ARoundWaitsForAStationsDealThenTheNextOneOpens) {
    TableFixture timed(CardSource::Rng);
    timed.fund(1, 1'000);
    timed.table->start();
    EXPECT_EQ(timed.call([&](Respond r) { timed.table->deal(1, r); }).error, "not_deal_mode");

    TableSettings settings = dealMode();
    TableFixture f(CardSource::Rng, settings);
    f.table = std::make_unique<Table>(*f.journal, f.paytable, settings, f.timers, f.random, TableStart{},
                                      [&](const TableEvent& e) { f.events.push_back(io::eventJson(e)); });
    f.fund(1, 1'000);
    f.table->start();
    f.timers.advance(10min);
    EXPECT_EQ(f.table->phase(), RoundPhase::BetsOpen);  // no window: it waits for a DEAL
    EXPECT_EQ(f.table->roundId(), 1);
    EXPECT_EQ(f.call([&](Respond r) { f.table->deal(1, r); }).error, "no_bets");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Banker, 100, r); }).ok);
    EXPECT_EQ(f.call([&](Respond r) { f.table->deal(2, r); }).error, "no_bets");
    const Reply dealt = f.call([&](Respond r) { f.table->deal(1, r); });
    ASSERT_TRUE(dealt.ok);
    EXPECT_EQ(std::get<RoundAnswer>(dealt.data).round, 1);
    EXPECT_EQ(f.round(1).state, journal::RoundState::Settled);
    EXPECT_EQ(f.table->roundId(), 2);  // the next round takes bets at once
    EXPECT_EQ(f.table->phase(), RoundPhase::BetsOpen);
    EXPECT_EQ(scalar(f, "SELECT json_extract(body, '$.deal') FROM record WHERE kind = 'round.closed'"), 1);
}

TEST(SinglePlayerDeal, KeepBetsOnPlacesTheBetsWithoutDealingAndAutoRepeatDealsAfterAWindow) {
    TableFixture reader(CardSource::Reader);
    EXPECT_EQ(reader.call([&](Respond r) { reader.table->setKeepBets(1, true, r); }).error, "rng_only");

    TableSettings settings = dealMode();
    TableFixture f(CardSource::Rng, settings);
    f.table = std::make_unique<Table>(*f.journal, f.paytable, settings, f.timers, f.random, TableStart{},
                                      [&](const TableEvent& e) { f.events.push_back(io::eventJson(e)); });
    f.fund(1, 10'000);
    f.table->start();
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Player, 300, r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->deal(1, r); }).ok);  // round 1 played; round 2 open
    const Reply kept = f.call([&](Respond r) { f.table->setKeepBets(1, true, r); });
    ASSERT_TRUE(kept.ok);
    EXPECT_TRUE(std::get<AutoRepeatAnswer>(kept.data).keepBets);
    ASSERT_EQ(f.table->station(1).bets.size(), 1U);  // placed back on the layout at once
    f.timers.advance(10min);
    EXPECT_EQ(f.table->roundId(), 2);                                 // ... and no game started
    ASSERT_TRUE(f.call([&](Respond r) { f.table->deal(1, r); }).ok);  // round 2 played; round 3 open
    EXPECT_EQ(f.table->station(1).bets.size(), 1U);                   // kept on again
    // Auto-repeat instead: Keep Bets On goes off, and the repeated bets are dealt by themselves.
    ASSERT_TRUE(f.call([&](Respond r) { f.table->setAutoRepeat(1, true, r); }).ok);
    EXPECT_FALSE(f.table->station(1).keepBets);
    f.timers.advance(20s);  // the betting window the player had to stop them
    EXPECT_GE(f.table->roundId(), 4);
    EXPECT_EQ(scalar(f,
                     "SELECT count(*) FROM record WHERE kind = 'bet.accepted' AND "
                     "json_extract(body, '$.action') = 'keep_bets'"),
              2);  // rounds 2 (at once) and 3 (at its opening)
    ASSERT_TRUE(f.call([&](Respond r) { f.table->setAutoRepeat(1, false, r); }).ok);
}

TEST(Confirmation, UnconfirmedBetsAreReturnedAtTheCloseAndTheStationIsTold) {
    TableFixture plain(CardSource::Reader);
    EXPECT_EQ(plain.call([&](Respond r) { plain.table->confirmBets(1, r); }).error, "not_confirming");

    TableSettings settings;
    settings.confirmBets = true;
    TableFixture f(CardSource::Reader, settings);
    f.fund(1, 1'000);
    f.fund(2, 1'000);
    f.openReaderRound();
    EXPECT_EQ(f.call([&](Respond r) { f.table->confirmBets(1, r); }).error, "no_bets");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Player, 200, r); }).ok);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(2, BetType::Player, 300, r); }).ok);
    const Reply confirmed = f.call([&](Respond r) { f.table->confirmBets(1, r); });
    ASSERT_TRUE(confirmed.ok);
    EXPECT_EQ(std::get<ConfirmedAnswer>(confirmed.data).slip.total(), 200);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->confirmBets(2, r); }).ok);
    // Station 2 adds a bet after confirming: what it confirmed no longer stands.
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(2, BetType::Tie, 100, r); }).ok);
    EXPECT_FALSE(f.table->station(2).confirmed);
    ASSERT_TRUE(f.call([&](Respond r) { f.table->closeBets(r); }).ok);
    EXPECT_EQ(f.credits(2), 1'000);  // both of station 2's bets back
    EXPECT_EQ(f.call([&](Respond r) { f.table->confirmBets(1, r); }).error, "betting_closed");
    f.deal("9S 2H KD 4C");  // player 9 against 6
    EXPECT_EQ(f.credits(1), 1'000 + 200);
    EXPECT_EQ(f.credits(2), 1'000);
    EXPECT_EQ(scalar(f,
                     "SELECT count(*) FROM record WHERE kind = 'bet.withdrawn' AND "
                     "json_extract(body, '$.action') = 'not_confirmed'"),
              2);
    EXPECT_EQ(scalar(f, "SELECT json_extract(body, '$.wagered.2') IS NULL FROM record WHERE kind = 'round.closed'"), 1);
    const auto told = eventsOf(f, "unconfirmed");
    ASSERT_EQ(told.size(), 1U);
    EXPECT_EQ(told[0].at("station"), 2);
    EXPECT_EQ(told[0].at("returned"), 400);
    EXPECT_EQ(told[0].at("credits"), 1'000);
}

}  // namespace
}  // namespace pitlink::table

namespace pitlink::table {
namespace {

using game::BetType;

TEST(Denomination, AStationPlaysWholeCreditsOfTheDenominationItChose) {
    TableSettings settings;
    settings.denominations = {1, 25, 100};
    TableFixture f(CardSource::Reader, settings);
    f.fund(1, 10'000);
    EXPECT_EQ(f.call([&](Respond r) { f.table->selectDenomination(1, 50, r); }).error, "not_offered");
    const Reply chosen = f.call([&](Respond r) { f.table->selectDenomination(1, 25, r); });
    ASSERT_TRUE(chosen.ok);
    const auto& shown = std::get<LimitsAnswer>(chosen.data);
    EXPECT_EQ(shown.denomination, 25);
    EXPECT_EQ(shown.denominations, (std::vector<game::Money>{1, 25, 100}));
    f.openReaderRound();
    EXPECT_EQ(f.call([&](Respond r) { f.table->placeBet(1, BetType::Player, 110, r); }).error, "not_whole_credits");
    EXPECT_EQ(f.call([&](Respond r) { f.table->tip(1, 110, r); }).error, "tip_amount");
    ASSERT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Player, 125, r); }).ok);
    EXPECT_EQ(f.call([&](Respond r) { f.table->selectDenomination(1, 100, r); }).error, "bets_on_layout");
    // Station 2 keeps the table's first denomination: 110 is 110 credits of one cent.
    f.fund(2, 1'000);
    EXPECT_TRUE(f.call([&](Respond r) { f.table->placeBet(2, BetType::Banker, 110, r); }).ok);
    // The limits shown are whole credits of 1.00 after a change: a 100 minimum stays, the 500,000
    // maximum too; with 0.25 the tie's maximum payout limit rounds down to a multiple of 25.
    ASSERT_TRUE(f.call([&](Respond r) { f.table->clearBets(1, r); }).ok);
    const Reply dollar = f.call([&](Respond r) { f.table->selectDenomination(1, 100, r); });
    for (const SpotLimitsView& view : std::get<LimitsAnswer>(dollar.data).spots) {
        EXPECT_EQ(view.range.min % 100, 0) << game::betTypeName(view.spot);
        EXPECT_EQ(view.range.max % 100, 0) << game::betTypeName(view.spot);
    }
    EXPECT_EQ(scalar(f,
                     "SELECT json_extract(body, '$.denomination') FROM record WHERE kind = 'station.state' "
                     "ORDER BY seq DESC LIMIT 1"),
              100);
}

}  // namespace
}  // namespace pitlink::table
