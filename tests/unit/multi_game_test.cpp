// Seed 000's multi-game station: several games on one controller share each station's wallet
// (one credit meter, one cash-out). Sums below are worked by hand from the standard paytable
// (Player 1:1; a losing stake is gone) and the cards dealt, never from the table's own code.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "daemon/engine/engine_requests.h"
#include "daemon/io/event_line.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/recovery.h"
#include "daemon/journal/resume_facts.h"
#include "daemon/journal/store_sink.h"
#include "daemon/table/controller.h"
#include "daemon/table/table.h"
#include "tests/support/deferred_sink.h"
#include "tests/support/manual_executor.h"
#include "tests/unit/controller_fixture.h"
#include "tests/unit/fixtures.h"
#include "tests/unit/journal_fixture.h"

namespace pitlink::table {
namespace {

using game::BetType;
using nlohmann::json;
using namespace std::chrono_literals;

// Player 9S KD (9, natural), Banker 2H 4C (6): Player wins; no third card is due.
constexpr const char* kPlayerNatural = "9S 2H KD 4C";

TEST(MultiGame, AStationPlaysTheFirstGameUntilItJoinsAnother) {
    Controller4 c({"alpha", "beta"});
    c.fund(1'000);
    c.open(0);
    c.open(1);
    EXPECT_TRUE(c.call([&](Respond r) { c.game(0).placeBet(kStation, BetType::Player, 100, r); }).ok);
    const Reply refused = c.call([&](Respond r) { c.game(1).placeBet(kStation, BetType::Player, 100, r); });
    EXPECT_FALSE(refused.ok);
    EXPECT_EQ(refused.error, "not_joined");

    const Reply joined = c.call([&](Respond r) { c.game(1).join(kStation, r); });
    ASSERT_TRUE(joined.ok);
    EXPECT_EQ(c.controller->wallet(kStation).games, (std::vector<std::string>{"alpha", "beta"}));
    EXPECT_TRUE(c.call([&](Respond r) { c.game(1).placeBet(kStation, BetType::Banker, 100, r); }).ok);
    // Joining again changes nothing and journals nothing.
    EXPECT_TRUE(c.call([&](Respond r) { c.game(1).join(kStation, r); }).ok);
    const auto records = c.bodies(journal::kind::kStationGames);
    ASSERT_EQ(records.size(), 1U);
    EXPECT_EQ(records[0], (json{{"action", "join"}, {"game", "beta"}, {"games", {"alpha", "beta"}}}));
    // 1,000 less a stake of 100 in each game.
    EXPECT_EQ(c.committedCredits(), 800);
}

TEST(MultiGame, AGameIsLeftOnlyWithNoBetsOnItsTable) {
    Controller4 c({"alpha", "beta"});
    c.fund(1'000);
    c.open(0);
    ASSERT_TRUE(c.call([&](Respond r) { c.game(0).placeBet(kStation, BetType::Player, 300, r); }).ok);
    const Reply refused = c.call([&](Respond r) { c.game(0).leave(kStation, r); });
    EXPECT_FALSE(refused.ok);
    EXPECT_EQ(refused.error, "bets_on_table");
    ASSERT_TRUE(c.call([&](Respond r) { c.game(0).closeBets(r); }).ok);
    c.deal(0, kPlayerNatural);
    c.deferred.flush();
    // Won 300 on top of the 300 staked.
    EXPECT_EQ(c.committedCredits(), 1'300);
    const Reply left = c.call([&](Respond r) { c.game(0).leave(kStation, r); });
    ASSERT_TRUE(left.ok);
    EXPECT_TRUE(c.controller->wallet(kStation).games.empty());
    // The refusal is journaled as an acceptance is.
    EXPECT_EQ(c.bodies(journal::kind::kRequestRefused).back().at("error"), "bets_on_table");
    EXPECT_EQ(c.bodies(journal::kind::kStationGames).back(),
              (json{{"action", "leave"}, {"game", "alpha"}, {"games", json::array()}}));
}

TEST(MultiGame, AtMostFourGamesOnOneCreditMeter) {
    Controller4 c({"g1", "g2", "g3", "g4", "g5"});
    for (std::size_t i = 1; i < 4; ++i) {
        ASSERT_TRUE(c.call([&](Respond r) { c.game(i).join(kStation, r); }).ok) << i;
    }
    const Reply fifth = c.call([&](Respond r) { c.game(4).join(kStation, r); });
    EXPECT_FALSE(fifth.ok);
    EXPECT_EQ(fifth.error, "too_many_games");
    ASSERT_TRUE(c.call([&](Respond r) { c.game(2).leave(kStation, r); }).ok);
    ASSERT_TRUE(c.call([&](Respond r) { c.game(4).join(kStation, r); }).ok);
    EXPECT_EQ(c.controller->wallet(kStation).games, (std::vector<std::string>{"g1", "g2", "g4", "g5"}));
}

TEST(MultiGame, TwoGamesCannotStakeTheSameCreditsBeforeEitherCommits) {
    Controller4 c({"alpha", "beta"});
    c.openBoth(1'000);
    // Both bets in the same millisecond, neither committed when the second is decided.
    c.game(0).placeBet(kStation, BetType::Player, 600, c.ask("alpha"));
    c.game(1).placeBet(kStation, BetType::Player, 600, c.ask("beta"));
    c.game(1).placeBet(kStation, BetType::Player, 400, c.ask("beta-rest"));
    EXPECT_TRUE(c.replies.empty());  // nothing answered before its commit
    c.deferred.flush();
    ASSERT_EQ(c.replies.size(), 3U);
    EXPECT_TRUE(c.reply("alpha").ok);
    EXPECT_FALSE(c.reply("beta").ok);
    EXPECT_EQ(c.reply("beta").error, "insufficient_credits");
    EXPECT_TRUE(c.reply("beta-rest").ok);
    EXPECT_EQ(c.committedCredits(), 0);  // 1,000 - 600 - 400
    EXPECT_EQ(c.journal->committed().stations().at(kStation).inPlay, 1'000);
}

TEST(MultiGame, ACashOutPaysWhatIsNotStakedAndTheStakesWinsReturnAfterwards) {
    Controller4 c({"alpha", "beta"});
    c.stakeInBoth(1'000, BetType::Player, 300, BetType::Banker, 200);
    const Reply cashed = c.call([&](Respond r) { c.game(0).cashOut(kStation, r); });
    ASSERT_TRUE(cashed.ok);
    const auto tickets = c.bodies(journal::kind::kTicketIssued);
    ASSERT_EQ(tickets.size(), 1U);
    EXPECT_EQ(tickets[0].at("amount"), 500);  // 1,000 - 300 - 200 in play
    EXPECT_EQ(c.committedCredits(), 0);
    // Alpha: Player wins, 300 + 300 back on the meter; beta: Banker loses, nothing.
    c.deal(0, kPlayerNatural);
    c.deal(1, kPlayerNatural);
    c.deferred.flush();
    EXPECT_EQ(c.committedCredits(), 600);
}

TEST(MultiGame, ACashOutRacingTwoSettlementsPaysExactlyOnce) {
    Controller4 c({"alpha", "beta"});
    c.stakeInBoth(1'000, BetType::Player, 300, BetType::Player, 200);
    // Both settlements submitted, neither committed, when the cash-out and a second one arrive.
    c.deal(0, kPlayerNatural);
    c.deal(1, kPlayerNatural);
    c.game(0).cashOut(kStation, c.ask("cash"));
    c.game(0).cashOut(kStation, c.ask("again"));
    c.deferred.flush();
    ASSERT_TRUE(c.reply("cash").ok);
    EXPECT_FALSE(c.reply("again").ok);
    EXPECT_EQ(c.reply("again").error, "no_credits");
    const auto tickets = c.bodies(journal::kind::kTicketIssued);
    ASSERT_EQ(tickets.size(), 1U);
    // 500 not staked + 600 (alpha's 300 won) + 400 (beta's 200 won).
    EXPECT_EQ(tickets[0].at("amount"), 1'500);
    EXPECT_EQ(c.committedCredits(), 0);
}

TEST(MultiGame, RoundNumbersAreUniqueAcrossGames) {
    Controller4 c({"alpha", "beta"});
    c.open(0);
    c.open(1);
    EXPECT_EQ(c.game(0).roundId(), 1);
    EXPECT_EQ(c.game(1).roundId(), 2);
    ASSERT_TRUE(c.call([&](Respond r) { c.game(0).voidRound("test", "test", r); }).ok);
    ASSERT_TRUE(c.call([&](Respond r) { c.game(0).openRound(r); }).ok);
    EXPECT_EQ(c.game(0).roundId(), 3);
}

TEST(MultiGame, ThePreviousDealADisputeMayNameIsTheGamesOwn) {
    Controller4 c({"alpha", "beta"});
    c.fund(1'000);
    c.open(0);  // alpha's round 1
    ASSERT_TRUE(c.call([&](Respond r) { c.game(0).closeBets(r); }).ok);
    c.deal(0, kPlayerNatural);
    c.deferred.flush();
    c.open(1);  // beta's round 2, still open
    ASSERT_TRUE(c.call([&](Respond r) { c.game(0).openRound(r); }).ok);
    ASSERT_EQ(std::make_tuple(c.game(0).roundId(), c.game(1).roundId()), std::make_tuple(3, 2));
    // While alpha's round 3 is open its last deal is round 1: round 2 is beta's.
    const Reply other = c.call([&](Respond r) { c.game(0).dispute(kStation + 1, 2, "misread", r); });
    EXPECT_EQ(other.error, "not_current_or_last");
    EXPECT_TRUE(c.call([&](Respond r) { c.game(0).dispute(kStation, 1, "misread", r); }).ok);
}

TEST(MultiGame, AfterARestartAGamesLastDealIsTheOneItDealtBefore) {
    Controller4 c({"alpha", "beta"});
    for (std::size_t game = 0; game < 2; ++game) {  // alpha's round 1, beta's round 2
        c.open(game);
        ASSERT_TRUE(c.call([&](Respond r) { c.game(game).closeBets(r); }).ok);
        c.deal(game, kPlayerNatural);
        c.deferred.flush();
    }
    const journal::ResumeFacts facts = journal::resumeFacts(c.store(), std::string("alpha"));
    EXPECT_EQ(facts.lastRoundId, 2);
    EXPECT_EQ(facts.game("alpha").lastRound, 1);
    EXPECT_EQ(facts.game("beta").lastRound, 2);
    // Carried across a segment as it was read (the first game's too: not the journal's last).
    const journal::ResumeFacts carried = journal::resumeFactsFromJson(journal::resumeFactsJson(facts));
    EXPECT_EQ(carried.game("alpha").lastRound, 1);
    EXPECT_EQ(carried.game("beta").lastRound, 2);

    std::vector<TableStart> starts(2);
    for (std::size_t game = 0; game < 2; ++game) {
        starts[game].nextRoundId = *facts.lastRoundId + 1;
        starts[game].lastRound = facts.game(game == 0 ? "alpha" : "beta").lastRound;
    }
    Controller4 restarted({"alpha", "beta"}, starts);
    restarted.open(0);  // alpha's first round after the restart: round 3
    ASSERT_EQ(restarted.game(0).roundId(), 3);
    // Its last deal is its round 1 (dealt before the restart), not beta's round 2.
    EXPECT_TRUE(restarted.call([&](Respond r) { restarted.game(0).dispute(kStation, 1, "misread", r); }).ok);
    EXPECT_EQ(restarted.call([&](Respond r) { restarted.game(0).dispute(kStation + 1, 2, "misread", r); }).error,
              "not_current_or_last");
}

TEST(MultiGame, ARotationDueHoldsTheNextOpeningUntilNoGameIsInARound) {
    Controller4 c({"alpha", "beta"});
    c.open(0);  // alpha's round 1
    ASSERT_TRUE(c.call([&](Respond r) { c.game(1).newShoe(r); }).ok);
    // The segment is now due to end (its size), while alpha's round is in progress.
    c.journal->setSegmentPolicy(journal::SegmentPolicy{0, 1}, 0, 100);
    c.game(1).openRound(c.ask("beta opens"));
    c.deferred.flush();
    EXPECT_TRUE(c.replies.empty());  // held, not refused
    EXPECT_EQ(c.game(1).phase(), RoundPhase::Idle);
    EXPECT_EQ(c.controller->openingsHeld(), 1);
    // Alpha's round ends: the held opening runs, the journal's rotation first.
    ASSERT_TRUE(c.call([&](Respond r) { c.game(0).closeBets(r); }).ok);
    c.deal(0, kPlayerNatural);
    c.deferred.flush();
    ASSERT_TRUE(c.reply("beta opens").ok);
    EXPECT_EQ(c.game(1).roundId(), 2);
    auto q = c.store().connection().prepare(
        "SELECT kind, round_id FROM record WHERE kind IN ('round.settled', 'meters.snapshot', 'round.opened') "
        "AND seq > (SELECT min(seq) FROM record WHERE kind = 'round.opened') ORDER BY seq");
    std::vector<std::string> order;
    while (q.step()) {
        order.push_back(std::string(q.text(0)) + (q.isNull(1) ? "" : " " + std::to_string(q.integer(1))));
    }
    // The snapshot that begins the next segment comes between alpha's ending and beta's opening.
    EXPECT_EQ(order, (std::vector<std::string>{"round.settled 1", "meters.snapshot", "round.opened 2"}));
}

TEST(MultiGame, AHeldOpeningWaitsAtMostKMostHoldForARoundThatDoesNotEnd) {
    Controller4 c({"alpha", "beta"});
    c.open(0);  // alpha's round 1: its dealer walks away, the round stays open
    ASSERT_TRUE(c.call([&](Respond r) { c.game(1).newShoe(r); }).ok);
    c.journal->setSegmentPolicy(journal::SegmentPolicy{0, 1}, 0, 100);
    const std::size_t snapshots = c.bodies("meters.snapshot").size();
    c.game(1).openRound(c.ask("beta opens"));
    c.deferred.flush();
    c.timers.advance(Controller::kMostHold - 1ms);
    c.deferred.flush();
    EXPECT_TRUE(c.replies.empty());  // still held
    c.timers.advance(1ms);
    c.deferred.flush();
    // The bound: beta opens without the rotation, and its next opening is not held again while
    // alpha's round stays open.
    ASSERT_TRUE(c.reply("beta opens").ok);
    EXPECT_EQ(c.controller->holdsExpiredCount(), 1);
    ASSERT_TRUE(c.call([&](Respond r) { c.game(1).voidRound("test", "test", r); }).ok);
    EXPECT_TRUE(c.call([&](Respond r) { c.game(1).openRound(r); }).ok);
    EXPECT_EQ(c.controller->openingsHeld(), 1);
    EXPECT_EQ(c.bodies("meters.snapshot").size(), snapshots);  // no rotation while alpha's round is open
    // Once every game is between rounds, an opening rotates.
    ASSERT_TRUE(c.call([&](Respond r) { c.game(0).voidRound("test", "test", r); }).ok);
    ASSERT_TRUE(c.call([&](Respond r) { c.game(1).voidRound("test", "test", r); }).ok);
    EXPECT_TRUE(c.call([&](Respond r) { c.game(0).openRound(r); }).ok);
    EXPECT_EQ(c.bodies("meters.snapshot").size(), snapshots + 1);
}

TEST(MultiGame, TheWalletsSettingsWaitForStakesInAnyGame) {
    Controller4 c({"alpha", "beta"});
    c.fund(1'000);
    ASSERT_TRUE(c.call([&](Respond r) { c.game(1).join(kStation, r); }).ok);
    c.open(1);
    ASSERT_TRUE(c.call([&](Respond r) { c.game(1).placeBet(kStation, BetType::Player, 100, r); }).ok);
    // Alpha has no bets of the station, beta has: the personal limits wait.
    const Reply refused = c.call([&](Respond r) {
        c.game(0).setPersonalLimits(kStation, {std::nullopt, 500}, "op", r);
    });
    EXPECT_FALSE(refused.ok);
    EXPECT_EQ(refused.error, "bets_on_layout");
    ASSERT_TRUE(c.call([&](Respond r) { c.game(1).clearBets(kStation, r); }).ok);
    EXPECT_TRUE(c.call([&](Respond r) { c.game(0).setPersonalLimits(kStation, {std::nullopt, 500}, "op", r); }).ok);
    // Beta sees the wallet's limits: a stake above 500 is refused there.
    const Reply above = c.call([&](Respond r) { c.game(1).placeBet(kStation, BetType::Player, 600, r); });
    EXPECT_FALSE(above.ok);
}

TEST(MultiGame, TheGamesAStationPlaysSurviveARestart) {
    Controller4 c({"alpha", "beta", "gamma"});
    ASSERT_TRUE(c.call([&](Respond r) { c.game(2).join(kStation, r); }).ok);
    ASSERT_TRUE(c.call([&](Respond r) { c.game(0).leave(kStation, r); }).ok);
    const journal::ResumeFacts facts = journal::resumeFacts(c.store());
    ASSERT_TRUE(facts.games.contains(kStation));
    EXPECT_EQ(facts.games.at(kStation), (std::vector<std::string>{"gamma"}));
    EXPECT_FALSE(facts.games.contains(1));  // never joined or left: plays the first game
    // Carried across a segment as it was read.
    EXPECT_EQ(journal::resumeFactsFromJson(journal::resumeFactsJson(facts)).games, facts.games);
    TableStart start;
    start.joinedGames = facts.games;
    const Controller restarted(8, {1}, start, {"alpha", "beta", "gamma"});
    EXPECT_EQ(restarted.wallet(kStation).games, (std::vector<std::string>{"gamma"}));
    EXPECT_EQ(restarted.wallet(1).games, (std::vector<std::string>{"alpha"}));
}

// The wallet's denomination and personal limits, changed through a game other than the first, are
// the ones a restart takes (its station.state names that game; the first game's is older).
TEST(MultiGame, AWalletChangedThroughAnotherGameSurvivesARestart) {
    Controller4 c({"alpha", "beta"}, {}, {1, 5});
    ASSERT_TRUE(c.call([&](Respond r) { c.game(0).setPersonalLimits(kStation, {std::nullopt, 900}, "op", r); }).ok);
    ASSERT_TRUE(c.call([&](Respond r) { c.game(1).join(kStation, r); }).ok);
    ASSERT_TRUE(c.call([&](Respond r) { c.game(1).selectDenomination(kStation, 5, r); }).ok);
    const journal::ResumeFacts facts = journal::resumeFacts(c.store(), std::string("alpha"));
    ASSERT_TRUE(facts.stations.contains(kStation));
    EXPECT_EQ(facts.stations.at(kStation).denomination, std::nullopt);  // alpha's own record is older
    ASSERT_TRUE(facts.wallets.contains(kStation));
    EXPECT_EQ(facts.wallets.at(kStation).denomination, 5);
    EXPECT_EQ(facts.wallets.at(kStation).personal.max, 900);
    // Carried across a segment as it was read.
    EXPECT_EQ(journal::resumeFactsFromJson(journal::resumeFactsJson(facts)).wallets.at(kStation).denomination, 5);
    TableStart start;
    start.stationStates = facts.stations;
    start.walletStates = facts.wallets;
    const Controller restarted(8, {1, 5}, start, {"alpha", "beta"});
    EXPECT_EQ(restarted.wallet(kStation).denomination, 5);
    EXPECT_EQ(restarted.wallet(kStation).personal.max, 900);
}

// Two live games dealing their own shoes: each record of a game names it, and a restart resumes
// each game's own shoe (cards left, round in shoe) and each station's slip in each game.
TEST(MultiGame, EachGameResumesItsOwnShoeAndStationState) {
    Controller4 c({"alpha", "beta"});
    c.stakeInBoth(1'000, BetType::Player, 100, BetType::Banker, 200);
    c.deal(0, kPlayerNatural);
    c.deal(1, "9S 2H KD 4C");  // the same coup from beta's own 8 decks
    c.deferred.flush();
    ASSERT_TRUE(c.call([&](Respond r) { c.game(1).openRound(r); }).ok);
    c.deal(1, "");  // nothing: beta's second round is open when pitlinkd stops
    // Every record of a round names its game; so do the shoes'.
    auto q = c.store().connection().prepare(
        "SELECT count(*) FROM record WHERE (round_id IS NOT NULL OR kind LIKE 'shoe.%') "
        "AND json_extract(body, '$.game') IS NULL");
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.integer(0), 0);
    auto opened = c.store().connection().prepare(
        "SELECT round_id, json_extract(body, '$.game'), json_extract(body, '$.shoe') FROM record "
        "WHERE kind = 'round.opened' ORDER BY seq");
    std::vector<std::tuple<std::int64_t, std::string, std::int64_t>> rounds;
    while (opened.step()) {
        rounds.emplace_back(opened.integer(0), std::string(opened.text(1)), opened.integer(2));
    }
    // Round and shoe numbers are the controller's: unique in the journal.
    EXPECT_EQ(rounds, (std::vector<std::tuple<std::int64_t, std::string, std::int64_t>>{
                          {1, "alpha", 1}, {2, "beta", 2}, {3, "beta", 2}}));

    const journal::ResumeFacts facts = journal::resumeFacts(c.store(), std::string("alpha"));
    EXPECT_EQ(facts.firstGame, "alpha");
    ASSERT_TRUE(facts.otherGames.contains("beta"));
    const journal::GameFacts alpha = facts.game("alpha");
    const journal::GameFacts beta = facts.game("beta");
    ASSERT_TRUE(alpha.shoe && beta.shoe);
    EXPECT_EQ(alpha.shoe->shoe, 1);
    EXPECT_EQ(beta.shoe->shoe, 2);
    EXPECT_EQ(alpha.shoe->roundInShoe, 1);
    EXPECT_EQ(beta.shoe->roundInShoe, 2);  // its second round is open, not yet dealt
    // 8 decks less the 4 cards of the one coup dealt from each.
    EXPECT_EQ(alpha.shoe->left.total(), 8 * 52 - 4);
    EXPECT_EQ(beta.shoe->left.total(), 8 * 52 - 4);
    ASSERT_TRUE(alpha.stations.contains(kStation) && beta.stations.contains(kStation));
    EXPECT_EQ(alpha.stations.at(kStation).lastSlip[BetType::Player], 100);
    EXPECT_EQ(alpha.stations.at(kStation).lastSlip[BetType::Banker], 0);
    EXPECT_EQ(beta.stations.at(kStation).lastSlip[BetType::Banker], 200);
    EXPECT_EQ(beta.stations.at(kStation).lastSlip[BetType::Player], 0);
    // A game that never wrote a record resumes nothing of the others'.
    EXPECT_FALSE(facts.game("gamma").shoe);
    EXPECT_TRUE(facts.game("gamma").stations.empty());
    // Carried across a segment as it was read, each game's part under its name.
    const json carried = journal::resumeFactsJson(facts);
    EXPECT_EQ(carried.at("first_game"), "alpha");
    EXPECT_TRUE(carried.at("other_games").contains("beta"));
    EXPECT_EQ(journal::resumeFactsJson(journal::resumeFactsFromJson(carried)), carried);
    // The same journal read as a controller whose first game is beta: alpha is then the other.
    const journal::ResumeFacts swapped = journal::resumeFacts(c.store(), std::string("beta"));
    EXPECT_EQ(swapped.game("alpha").shoe, alpha.shoe);
    EXPECT_EQ(swapped.game("beta").shoe, beta.shoe);
    EXPECT_EQ(swapped.game("alpha").stations.at(kStation).lastSlip[BetType::Player], 100);
    EXPECT_EQ(swapped.game("beta").stations.at(kStation).lastSlip[BetType::Banker], 200);
    // One shoe's reader alone finds each game's shoe.
    EXPECT_EQ(journal::resumeShoe(c.store(), std::nullopt, "beta", "alpha"), beta.shoe);
    EXPECT_EQ(journal::resumeShoe(c.store(), std::nullopt, "alpha", "alpha"), alpha.shoe);
}

// pitlinkd stops with a round unfinished in each of two games: the start-up finishes both (alpha's
// incomplete coup and beta's open round voided, every stake returned), and the records it writes
// name their game.
TEST(MultiGame, AStartUpFinishesTheUnfinishedRoundOfEachGame) {
    Controller4 c({"alpha", "beta"});
    c.openBoth(1'000);
    ASSERT_TRUE(c.call([&](Respond r) { c.game(0).placeBet(kStation, BetType::Player, 100, r); }).ok);
    ASSERT_TRUE(c.call([&](Respond r) { c.game(1).placeBet(kStation, BetType::Banker, 200, r); }).ok);
    ASSERT_TRUE(c.call([&](Respond r) { c.game(0).closeBets(r); }).ok);
    // Alpha's first three cards reach the disk; the fourth, which completes the coup, and its
    // settlement do not: the disk fails, then the power goes.
    c.deal(0, "9S 2H KD");
    c.deferred.flush();
    c.deferred.failFromNow();
    c.deal(0, "4C");
    c.deferred.flush();
    c.games.clear();
    // Alpha is dealing with three cards, beta open for bets.
    EXPECT_EQ(c.committedCredits(), 700);

    const journal::RecoveryReport report =
        journal::recover(c.store(), journal::RecoveryOptions{}, [] { return 1'795'000'000'000; });
    ASSERT_TRUE(report.ok()) << report.tilt.value_or("");
    ASSERT_EQ(report.actions.size(), 2U);
    EXPECT_NE(report.actions[0].find("round 1 voided"), std::string::npos) << report.actions[0];
    EXPECT_NE(report.actions[1].find("round 2 voided"), std::string::npos) << report.actions[1];
    // Every stake returned: 700 + 100 + 200.
    EXPECT_EQ(report.ledger.credits(kStation), 1'000);
    auto voided = c.store().connection().prepare(
        "SELECT round_id, json_extract(body, '$.game') FROM record WHERE kind = 'round.voided' ORDER BY round_id");
    std::vector<std::pair<std::int64_t, std::string>> rounds;
    while (voided.step()) {
        rounds.emplace_back(voided.integer(0), std::string(voided.text(1)));
    }
    EXPECT_EQ(rounds, (std::vector<std::pair<std::int64_t, std::string>>{{1, "alpha"}, {2, "beta"}}));
}

// The engine link's side (protocols/engine/README.md "Games"): a connection says which games it
// serves and in which role; dealer ops of a game come from its dealer connection only; a client
// that never says hello is served the first game as before; a game's replies name it.
TEST(MultiGame, EngineConnectionsServeTheirGamesInTheirRoles) {
    Controller4 c({"alpha", "beta"});
    engine::EngineRequests requests(std::vector<Table*>{&c.game(0), &c.game(1)}, c.journal.get());
    std::vector<json> lines;
    const auto send = [&](engine::EngineSession& session, const std::string& line) {
        requests.handle(session, line, [&](const std::string& out) { lines.push_back(json::parse(out)); });
        c.deferred.flush();
        return lines.back();
    };
    engine::EngineSession beta;
    engine::EngineSession betaStations;
    engine::EngineSession noHello;
    EXPECT_TRUE(send(beta, R"({"id":1,"op":"hello","games":["beta"],"role":"dealer"})").at("ok"));
    EXPECT_EQ(send(betaStations, R"({"id":2,"op":"hello","games":["beta","alpha"],"role":"stations"})").at("data"),
              (json{{"games", {"beta", "alpha"}}}));
    const json unknown = send(noHello, R"({"id":3,"op":"hello","games":["gamma"],"role":"dealer"})");
    EXPECT_EQ(unknown.at("error"), "unknown_game");

    // Beta's dealer opens beta's shoe and round; the reply names the game.
    const json shoe = send(beta, R"({"id":4,"op":"new_shoe"})");
    EXPECT_TRUE(shoe.at("ok"));
    EXPECT_EQ(shoe.at("game"), "beta");
    EXPECT_TRUE(send(beta, R"({"id":5,"op":"open_round"})").at("ok"));
    EXPECT_EQ(c.game(1).phase(), RoundPhase::BetsOpen);
    EXPECT_EQ(c.game(0).phase(), RoundPhase::Idle);
    // A dealer op for beta from the stations connection, and one for alpha from beta's dealer.
    const json notDealer = send(betaStations, R"({"id":6,"op":"close_bets","game":"beta"})");
    EXPECT_EQ(notDealer.at("error"), "not_dealer");
    const json notYours = send(beta, R"({"id":7,"op":"new_shoe","game":"alpha"})");
    EXPECT_EQ(notYours.at("error"), "not_your_game");
    EXPECT_EQ(c.game(0).shoeNumber(), 0U);  // alpha has no shoe: nothing reached it
    // Both refusals journaled, like an acceptance.
    const auto refused = c.bodies(journal::kind::kRequestRefused);
    ASSERT_GE(refused.size(), 3U);
    EXPECT_EQ(refused[refused.size() - 2].at("error"), "not_dealer");
    EXPECT_EQ(refused.back().at("error"), "not_your_game");

    // A client that never said hello is served alpha, every role, as before games existed.
    EXPECT_TRUE(send(noHello, R"({"id":8,"op":"new_shoe"})").at("ok"));
    EXPECT_EQ(c.game(0).shoeNumber(), 2U);  // the controller's second shoe
    EXPECT_EQ(send(noHello, R"({"id":9,"op":"status"})").at("data").at("table"), "alpha");
    const json betaForNoHello = send(noHello, R"({"id":10,"op":"status","game":"beta"})");
    EXPECT_EQ(betaForNoHello.at("error"), "not_your_game");
    EXPECT_TRUE(requests.serves(noHello, std::string("alpha")));
    EXPECT_FALSE(requests.serves(noHello, std::string("beta")));
    EXPECT_TRUE(requests.serves(noHello, std::nullopt));  // a station's wallet: every connection
    EXPECT_TRUE(requests.serves(betaStations, std::string("alpha")));

    // Station play from the stations connection goes to the game it names (default: its first).
    c.fund(1'000);
    EXPECT_TRUE(send(betaStations, R"({"id":11,"op":"join","station":3})").at("ok"));
    const json bet = send(betaStations, R"({"id":12,"op":"bet","station":3,"spot":"player","stake":100})");
    EXPECT_TRUE(bet.at("ok")) << bet.dump();
    EXPECT_EQ(bet.at("game"), "beta");
    EXPECT_EQ(c.game(1).station(kStation).slip().total(), 100);
    // The wallet's requests are the station's whatever game: a cash-out pays 1,000 - 100.
    const json cash = send(betaStations, R"({"id":13,"op":"cash_out","station":3})");
    ASSERT_TRUE(cash.at("ok")) << cash.dump();
    EXPECT_EQ(cash.at("data").at("ticket").at("amount"), 900);
}

}  // namespace
}  // namespace pitlink::table
