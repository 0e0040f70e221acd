// Game protection at a reader table (issue 38): the edge of each watched side bet is computed on
// the worker from the shoe less the cards shown (not the burn's face-down cards), journaled and
// sent as shoe_edge; a side bet under `close` waits for its edge, closes when the player's edge
// is above its threshold and reopens when it falls back; an edge that comes after the shoe moved
// on is dropped. The expected edges are computed here from the test's own composition.
#include <gtest/gtest.h>

#include "daemon/game/side_bet_edge.h"
#include "tests/support/queued_worker.h"
#include "tests/unit/table_fixture.h"

namespace pitlink::table {
namespace {

using game::BetType;

TableSettings protectedSettings() {
    TableSettings settings;
    settings.shoe.decks = 8;
    settings.protection.enabled = true;
    settings.protection.sideBets = {game::SideBetRule{BetType::Gold7, game::EdgeAction::Close, 0},
                                    game::SideBetRule{BetType::Jade8, game::EdgeAction::Alert, 0}};
    return settings;
}

struct ProtectedTable {
    TableFixture f{CardSource::Reader, protectedSettings(), "ruyi"};
    test::QueuedWorker::Queue worker;
    game::ShoeComposition known = game::ShoeComposition::fullDecks(8);  // the test's own

    ProtectedTable() {
        f.table->enableProtection(std::make_unique<test::QueuedWorker>(worker));
        f.fund(1, 100'000);
    }
    void computeEdges() {
        worker.runAll();
        f.timers.runPosted();
    }
    std::string bet(BetType spot, game::Money stake = 100) {
        const Reply reply = f.call([&](Respond r) { f.table->placeBet(1, spot, stake, r); });
        return reply.ok ? "ok" : reply.error;
    }
    void dealRound(const std::string& cards) {
        ASSERT_TRUE(f.call([&](Respond r) { f.table->closeBets(r); }).ok);
        f.deal(cards);
        for (const game::Card c : test::cards(cards)) {
            known.remove(c);
        }
    }
    nlohmann::json lastEdgeRecord() {
        auto q =
            f.store->connection().prepare("SELECT body FROM record WHERE kind = 'shoe.edge' ORDER BY seq DESC LIMIT 1");
        EXPECT_TRUE(q.step());
        return nlohmann::json::parse(q.text(0));
    }
    std::int64_t expectedPpm(BetType bet) const {
        for (const game::BetEdge& e : game::sideBetEdges(f.paytable, known)) {
            if (e.bet == bet) {
                return e.ppm();
            }
        }
        ADD_FAILURE() << "no edge";
        return 0;
    }
    std::vector<nlohmann::json> events(const std::string& kind) const {
        std::vector<nlohmann::json> out;
        for (const nlohmann::json& e : f.events) {
            if (e["event"] == kind) {
                out.push_back(e);
            }
        }
        return out;
    }
};

TEST(TableProtection, ASideBetWaitsForItsEdgeClosesAboveTheThresholdAndReopens) {
    ProtectedTable t;
    ASSERT_TRUE(t.f.call([&](Respond r) { t.f.table->newShoe(r); }).ok);
    // The burn: AS turned (shown), 5C burned face down. The face-down card stays in what a player
    // could know; the table's own composition has it out.
    ASSERT_TRUE(t.f.call([&](Respond r) { t.f.table->reportBurn(test::cards("AS 5C"), r); }).ok);
    t.known.remove(test::cards("AS").front());
    EXPECT_EQ(t.f.table->knownLeft(), t.known);
    EXPECT_EQ(t.f.table->shoeLeft().total(), 414);

    ASSERT_TRUE(t.f.call([&](Respond r) { t.f.table->openRound(r); }).ok);
    EXPECT_EQ(t.bet(BetType::Gold7), "side_bet_edge_pending");  // nobody has looked at its edge yet
    EXPECT_EQ(t.bet(BetType::Jade8), "ok");                     // alert only: never waits
    t.computeEdges();
    const nlohmann::json first = t.lastEdgeRecord();
    EXPECT_EQ(first["round_in_shoe"], 1);
    EXPECT_EQ(first["cards_known"], 415);
    EXPECT_EQ(first["edges"]["gold_7"], t.expectedPpm(BetType::Gold7));
    EXPECT_EQ(first["edges"]["gold_7"], -75'615);
    EXPECT_EQ(first["edges"]["jade_8"], t.expectedPpm(BetType::Jade8));
    EXPECT_EQ(first["closed"], nlohmann::json::array());
    EXPECT_EQ(t.bet(BetType::Gold7), "ok");
    EXPECT_EQ(t.f.table->protectionStats().betsWaited, 1U);

    // Four rounds of 9s and 8s (Player 9 9, Banker 8 8: a natural) take Gold 7 above 0.
    const char* nines[] = {"9S 8S 9H 8H", "9D 8D 9C 8C", "9S 8S 9H 8H", "9D 8D 9C 8C"};
    t.dealRound(nines[0]);
    for (int round = 2; round <= 4; ++round) {
        ASSERT_TRUE(t.f.call([&](Respond r) { t.f.table->openRound(r); }).ok);
        t.computeEdges();
        EXPECT_EQ(t.lastEdgeRecord()["edges"]["gold_7"], t.expectedPpm(BetType::Gold7));
        EXPECT_EQ(t.bet(BetType::Gold7), "ok") << round;
        t.dealRound(nines[round - 1]);
    }
    t.computeEdges();  // between rounds: the edge of round 5
    const nlohmann::json fifth = t.lastEdgeRecord();
    EXPECT_EQ(fifth["round_in_shoe"], 5);
    EXPECT_EQ(fifth["edges"]["gold_7"], 10'950);
    EXPECT_EQ(fifth["closed"], nlohmann::json::array({"gold_7"}));
    ASSERT_FALSE(t.events("side_bets").empty());
    EXPECT_EQ(t.events("side_bets").back(), (nlohmann::json{{"event", "side_bets"}, {"closed", {"gold_7"}}}));

    ASSERT_TRUE(t.f.call([&](Respond r) { t.f.table->openRound(r); }).ok);
    EXPECT_EQ(t.bet(BetType::Gold7), "side_bet_closed");
    EXPECT_EQ(t.bet(BetType::Jade8), "ok");
    EXPECT_EQ(t.bet(BetType::Banker, 1'000), "ok");
    t.dealRound("7S 7H JS QS");  // two sevens out: still positive for round 6
    t.computeEdges();
    EXPECT_EQ(t.lastEdgeRecord()["edges"]["gold_7"], 5'467);
    ASSERT_TRUE(t.f.call([&](Respond r) { t.f.table->openRound(r); }).ok);
    EXPECT_EQ(t.bet(BetType::Gold7), "side_bet_closed");
    t.dealRound("7D 7C JH QH");
    t.computeEdges();
    EXPECT_EQ(t.lastEdgeRecord()["edges"]["gold_7"], -26);  // back below 0: reopened
    EXPECT_EQ(t.lastEdgeRecord()["closed"], nlohmann::json::array());
    EXPECT_EQ(t.events("side_bets").back()["closed"], nlohmann::json::array());
    ASSERT_TRUE(t.f.call([&](Respond r) { t.f.table->openRound(r); }).ok);
    EXPECT_EQ(t.bet(BetType::Gold7), "ok");

    // Every refusal is journaled with its rule.
    auto q = t.f.store->connection().prepare(
        "SELECT json_extract(body, '$.rule'), count(*) FROM record WHERE kind = 'bet.refused' GROUP BY 1 ORDER BY 1");
    std::map<std::string, std::int64_t> refused;
    while (q.step()) {
        refused[std::string(q.text(0))] = q.integer(1);
    }
    EXPECT_EQ(refused, (std::map<std::string, std::int64_t>{{"side_bet_closed", 2}, {"side_bet_edge_pending", 1}}));
    // One edge for each of rounds 1 to 7; the shoe's own, before its burn, was never computed:
    // its job found a newer composition asked for.
    EXPECT_EQ(t.f.count(journal::kind::kShoeEdge), 7);
    EXPECT_EQ(t.events("shoe_edge").size(), 7U);
    EXPECT_EQ(t.f.table->shoeEdges().size(), 7U);
    EXPECT_EQ(t.f.table->protectionStats().edgesComputed, 7U);
    EXPECT_EQ(t.f.table->protectionStats().edgesStale, 0U);
}

TEST(TableProtection, AnEdgeThatComesAfterTheShoeMovedOnIsDropped) {
    ProtectedTable t;
    ASSERT_TRUE(t.f.call([&](Respond r) { t.f.table->newShoe(r); }).ok);
    t.worker.runAll();  // shoe 1's edge computed; its result not yet back on the logic thread
    ASSERT_TRUE(t.f.call([&](Respond r) { t.f.table->newShoe(r); }).ok);
    t.computeEdges();
    EXPECT_EQ(t.f.table->protectionStats().edgesStale, 1U);
    EXPECT_EQ(t.f.table->protectionStats().edgesComputed, 1U);
    EXPECT_EQ(t.f.count(journal::kind::kShoeEdge), 1);
    EXPECT_EQ(t.lastEdgeRecord()["shoe"], 2);
}

TEST(TableProtection, AnEdgeAskedForBeforeTheShoeMovedOnIsNotComputed) {
    ProtectedTable t;
    ASSERT_TRUE(t.f.call([&](Respond r) { t.f.table->newShoe(r); }).ok);
    ASSERT_TRUE(t.f.call([&](Respond r) { t.f.table->newShoe(r); }).ok);  // before the worker ran
    EXPECT_EQ(t.worker.jobs.size(), 2U);
    t.computeEdges();  // the first job sees a newer key and posts nothing
    EXPECT_EQ(t.f.table->protectionStats().edgesStale, 0U);
    EXPECT_EQ(t.f.table->protectionStats().edgesComputed, 1U);
    EXPECT_EQ(t.f.count(journal::kind::kShoeEdge), 1);
    EXPECT_EQ(t.lastEdgeRecord()["shoe"], 2);
}

TEST(TableProtection, WithoutProtectionNothingIsComputedOrRefused) {
    TableSettings settings = protectedSettings();
    settings.protection.enabled = false;
    TableFixture f(CardSource::Reader, settings, "ruyi");
    test::QueuedWorker::Queue worker;
    f.table->enableProtection(std::make_unique<test::QueuedWorker>(worker));
    f.fund(1, 10'000);
    f.openReaderRound();
    EXPECT_TRUE(f.call([&](Respond r) { f.table->placeBet(1, BetType::Gold7, 100, r); }).ok);
    EXPECT_TRUE(worker.jobs.empty());
    EXPECT_EQ(f.table->protection(), nullptr);
}

}  // namespace
}  // namespace pitlink::table

namespace pitlink::table {
namespace {

// A standing slip (auto-repeat) that holds a guarded side bet is not refused at an opening that
// comes before the round's edge: it waits, and is placed right after the edge, auto-repeat still on.
TEST(TableProtection, AnAutoRepeatedSlipWaitsForTheEdgeAndIsPlacedAfterIt) {
    ProtectedTable t;
    ASSERT_TRUE(t.f.call([&](Respond r) { t.f.table->newShoe(r); }).ok);
    t.computeEdges();
    ASSERT_TRUE(t.f.call([&](Respond r) { t.f.table->openRound(r); }).ok);
    ASSERT_EQ(t.bet(BetType::Gold7), "ok");
    ASSERT_EQ(t.bet(BetType::Banker, 1'000), "ok");
    t.dealRound("9S 2H KD 4C");
    ASSERT_TRUE(t.f.call([&](Respond r) { t.f.table->setAutoRepeat(1, true, r); }).ok);  // its last slip
    ASSERT_TRUE(t.f.call([&](Respond r) { t.f.table->openRound(r); }).ok);               // its edge not computed yet
    EXPECT_TRUE(t.f.table->station(1).bets.empty());
    EXPECT_TRUE(t.f.table->station(1).autoRepeat);
    EXPECT_EQ(t.f.count(journal::kind::kBetRefused), 0);
    t.computeEdges();
    EXPECT_EQ(t.f.table->station(1).slip()[BetType::Gold7], 100);
    EXPECT_EQ(t.f.table->station(1).slip()[BetType::Banker], 1'000);
    EXPECT_TRUE(t.f.table->station(1).autoRepeat);
    // In the journal the round's edge comes before the repeated bets.
    auto q = t.f.store->connection().prepare(
        "SELECT kind FROM record WHERE kind IN ('shoe.edge', 'bet.accepted') ORDER BY seq DESC LIMIT 3");
    std::vector<std::string> kinds;
    while (q.step()) {
        kinds.emplace_back(q.text(0));
    }
    EXPECT_EQ(kinds, (std::vector<std::string>{"bet.accepted", "bet.accepted", "shoe.edge"}));
}

}  // namespace
}  // namespace pitlink::table
