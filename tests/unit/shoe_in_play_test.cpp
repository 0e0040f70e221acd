// A reader's shoe in play (issue 33): followed from the shoe's records, carried by a segment's
// `segment.carried`, resumed by the table at a start, and read back on a new segment alone. Every
// expected count, result and JSON text is worked out here from the cards, not taken from the code.
#include "daemon/journal/shoe_in_play.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "daemon/app/segment_carry.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/resume_facts.h"
#include "daemon/journal/segments/segment_rotation.h"
#include "daemon/journal/store/record.h"
#include "tests/support/manual_executor.h"
#include "tests/unit/fixtures.h"
#include "tests/unit/journal_fixture.h"
#include "tests/unit/table_fixture.h"

namespace pitlink {
namespace {

using game::Card;
using game::Rank;
using game::RoundMarks;
using game::Suit;
using game::Winner;
using journal::ShoeInPlay;
using nlohmann::json;
namespace kind = journal::kind;

Card card(const std::string& name) {
    return test::cards(name).front();
}

RoundMarks marks(Winner winner, bool playerPair, bool bankerPair, std::uint8_t natural) {
    return RoundMarks{winner, playerPair, bankerPair, natural};
}

// Full decks less the cards named ("AS KD ..."), each taken out once.
game::ShoeComposition fullLess(int decks, const std::string& out) {
    game::ShoeComposition left = game::ShoeComposition::fullDecks(decks);
    for (const Card c : test::cards(out)) {
        EXPECT_TRUE(left.remove(c)) << c.toString();
    }
    return left;
}

void expectMarks(const RoundMarks& actual, const RoundMarks& expected, std::size_t i) {
    EXPECT_EQ(actual.winner, expected.winner) << "result " << i;
    EXPECT_EQ(actual.playerPair, expected.playerPair) << "result " << i;
    EXPECT_EQ(actual.bankerPair, expected.bankerPair) << "result " << i;
    EXPECT_EQ(actual.natural, expected.natural) << "result " << i;
}

// Field by field (RoundMarks has no operator==).
void expectShoe(const ShoeInPlay& actual, const ShoeInPlay& expected) {
    EXPECT_EQ(actual.shoe, expected.shoe);
    EXPECT_EQ(actual.decks, expected.decks);
    EXPECT_EQ(actual.roundInShoe, expected.roundInShoe);
    EXPECT_EQ(actual.cutCardsBehind, expected.cutCardsBehind);
    EXPECT_EQ(actual.burned, expected.burned);
    EXPECT_EQ(actual.left.total(), expected.left.total());
    for (int i = 0; i < game::kCardsPerDeck; ++i) {
        EXPECT_EQ(actual.left.count(i), expected.left.count(i)) << Card::fromIndex(i).toString();
    }
    ASSERT_EQ(actual.results.size(), expected.results.size());
    for (std::size_t i = 0; i < actual.results.size(); ++i) {
        expectMarks(actual.results[i], expected.results[i], i);
    }
}

// The bodies as the table journals them (round_records.cpp, settlement_records.cpp addSettlement).
json readerStarted(std::int64_t shoe, std::int64_t decks) {
    return json{{"shoe", shoe}, {"decks", decks}, {"source", "reader"}, {"reason", "new_shoe"}};
}
json opened(std::int64_t shoe, std::int64_t roundInShoe) {
    return json{{"shoe", shoe},
                {"round_in_shoe", roundInShoe},
                {"paytable", "standard"},
                {"paytable_sha256", "00ff"},
                {"settle", "spot"}};
}
json dealt(std::int64_t position, const std::string& name) {
    return json{{"position", position}, {"card", name}, {"source", "reader"}, {"rescans", 0}};
}
json settled(const std::vector<std::string>& player, const std::vector<std::string>& banker, const json& outcome) {
    return json{{"player", player},
                {"banker", banker},
                {"outcome", outcome},
                {"paytable", "standard"},
                {"paytable_sha256", "00ff"}};
}

TEST(ShoeInPlay, FollowsTheShoeRecords) {
    std::optional<ShoeInPlay> shoe;
    const auto follow = [&shoe](std::string_view k, const json& body) { journal::followShoe(shoe, k, body); };

    follow(kind::kShoeStarted, readerStarted(5, 1));
    ASSERT_TRUE(shoe.has_value());
    EXPECT_EQ(shoe->shoe, 5);
    EXPECT_EQ(shoe->decks, 1);
    EXPECT_EQ(shoe->left.total(), 52);
    EXPECT_EQ(shoe->roundInShoe, 0);
    EXPECT_FALSE(shoe->burned);
    EXPECT_FALSE(shoe->cutCardsBehind.has_value());

    follow(kind::kShoeCut, json{{"shoe", 5}, {"cards_behind", 14}});
    follow(kind::kShoeCut, json{{"shoe", 4}, {"cards_behind", 20}});  // another shoe's: not this one's cut
    EXPECT_EQ(shoe->cutCardsBehind, 14);
    // The turned 3 burns 3 more.
    follow(kind::kShoeBurned, json{{"shoe", 5}, {"cards", {"3D", "KC", "KD", "QH"}}, {"cards_left", 48}});
    EXPECT_TRUE(shoe->burned);
    EXPECT_EQ(shoe->left.total(), 48);

    // Round 1: Player 4H 4S (a natural 8, a pair), Banker 2C 5D (7): Player wins.
    follow(kind::kRoundOpened, opened(5, 1));
    follow(kind::kCardDealt, dealt(1, "4H"));
    follow(kind::kCardDealt, dealt(2, "2C"));
    follow(kind::kCardDealt, dealt(3, "4S"));
    follow(kind::kCardDealt, dealt(4, "5D"));
    follow(kind::kRoundSettled, settled({"4H", "4S"}, {"2C", "5D"},
                                        json{{"winner", "player"},
                                             {"player_total", 8},
                                             {"banker_total", 7},
                                             {"player_pair", true},
                                             {"banker_pair", false},
                                             {"natural", true}}));
    EXPECT_EQ(shoe->roundInShoe, 1);
    EXPECT_EQ(shoe->left.total(), 44);

    // Round 2 is voided after two cards (they left the shoe); the misread 9S was refused and never
    // entered the round: it is still in the shoe.
    follow(kind::kRoundOpened, opened(5, 2));
    follow(kind::kCardDealt, dealt(1, "9C"));
    follow(kind::kCardDealt, dealt(2, "9D"));
    follow(kind::kCardRefused, json{{"position", 3}, {"card", "9S"}, {"reason", "misread"}});
    follow(kind::kRoundVoided, json{{"reason", "misdeal"}, {"by", "table"}, {"recovered", false}});
    EXPECT_EQ(shoe->roundInShoe, 2);
    EXPECT_EQ(shoe->left.total(), 42);
    EXPECT_EQ(shoe->results.size(), 1U);

    // Round 3: Player KH 6C (6, stands), Banker 7S 7D (4, a pair) draws 2S: 6 to 6, a tie.
    follow(kind::kRoundOpened, opened(5, 3));
    for (const auto& [position, name] :
         std::vector<std::pair<int, std::string>>{{1, "KH"}, {2, "7S"}, {3, "6C"}, {4, "7D"}, {5, "2S"}}) {
        follow(kind::kCardDealt, dealt(position, name));
    }
    follow(kind::kRoundSettled, settled({"KH", "6C"}, {"7S", "7D", "2S"},
                                        json{{"winner", "tie"},
                                             {"player_total", 6},
                                             {"banker_total", 6},
                                             {"player_pair", false},
                                             {"banker_pair", true},
                                             {"natural", false}}));

    // 52 less 4 burned, 4 + 2 + 5 dealt.
    ASSERT_TRUE(shoe.has_value());
    EXPECT_EQ(shoe->left.total(), 37);
    EXPECT_EQ(shoe->left.count(card("3D")), 0);
    EXPECT_EQ(shoe->left.count(card("QH")), 0);
    EXPECT_EQ(shoe->left.count(card("QS")), 1);
    EXPECT_EQ(shoe->left.count(card("4H")), 0);
    EXPECT_EQ(shoe->left.count(card("4S")), 0);
    EXPECT_EQ(shoe->left.count(card("4C")), 1);
    EXPECT_EQ(shoe->left.rankCount(Rank::Four), 2);
    EXPECT_EQ(shoe->left.count(card("9C")), 0);
    EXPECT_EQ(shoe->left.count(card("9D")), 0);
    EXPECT_EQ(shoe->left.count(card("9S")), 1);  // refused: not taken out
    EXPECT_EQ(shoe->left.rankCount(Rank::Nine), 2);
    EXPECT_EQ(shoe->left.rankCount(Rank::King), 1);  // KS only
    EXPECT_EQ(shoe->left.count(Card(Rank::King, Suit::Spades)), 1);
    EXPECT_EQ(shoe->left.rankCount(Rank::Seven), 2);
    EXPECT_EQ(shoe->left.rankCount(Rank::Two), 2);
    EXPECT_EQ(shoe->left.count(card("2D")), 1);
    EXPECT_EQ(shoe->roundInShoe, 3);
    EXPECT_TRUE(shoe->burned);
    EXPECT_EQ(shoe->cutCardsBehind, 14);
    ASSERT_EQ(shoe->results.size(), 2U);
    expectMarks(shoe->results[0], marks(Winner::Player, true, false, 8), 0);
    expectMarks(shoe->results[1], marks(Winner::Tie, false, true, 0), 1);
    expectShoe(*shoe, ShoeInPlay{5,
                                 1,
                                 3,
                                 14,
                                 true,
                                 fullLess(1, "3D KC KD QH 4H 2C 4S 5D 9C 9D KH 7S 6C 7D 2S"),
                                 {marks(Winner::Player, true, false, 8), marks(Winner::Tie, false, true, 0)},
                                 {}});

    // The cut card is out when no more cards are left than it had behind it.
    EXPECT_FALSE(shoe->cutCardOut());
    ShoeInPlay cut = *shoe;
    cut.cutCardsBehind = 37;
    EXPECT_TRUE(cut.cutCardOut());
    cut.cutCardsBehind = 36;
    EXPECT_FALSE(cut.cutCardOut());
    cut.cutCardsBehind.reset();
    EXPECT_FALSE(cut.cutCardOut());

    // A new reader shoe starts from full decks again.
    std::optional<ShoeInPlay> again = shoe;
    journal::followShoe(again, kind::kShoeStarted, readerStarted(6, 2));
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ(again->shoe, 6);
    EXPECT_EQ(again->left.total(), 104);
    EXPECT_EQ(again->left.count(card("4H")), 2);
    EXPECT_EQ(again->roundInShoe, 0);
    EXPECT_FALSE(again->cutCardsBehind.has_value());
    EXPECT_FALSE(again->burned);
    EXPECT_TRUE(again->results.empty());

    // An RNG shoe is never resumed.
    std::optional<ShoeInPlay> rng = shoe;
    journal::followShoe(rng, kind::kShoeStarted,
                        json{{"shoe", 6},
                             {"decks", 8},
                             {"source", "rng"},
                             {"cards", 416},
                             {"cut_from_end", 14},
                             {"burn_card", "9H"},
                             {"burned", 10},
                             {"reason", "cut_card"}});
    EXPECT_FALSE(rng.has_value());
    // Nor do the rounds of an RNG shoe start one.
    journal::followShoe(rng, kind::kRoundOpened, opened(6, 1));
    journal::followShoe(rng, kind::kCardDealt, dealt(1, "AS"));
    EXPECT_FALSE(rng.has_value());

    // The shoe ended: none in play.
    std::optional<ShoeInPlay> ended = shoe;
    journal::followShoe(ended, kind::kShoeEnded, json{{"shoe", 5}, {"rounds", 3}, {"cards_left", -1}});
    EXPECT_FALSE(ended.has_value());

    // A round of another shoe: the shoe in play is not known any more.
    std::optional<ShoeInPlay> other = shoe;
    journal::followShoe(other, kind::kRoundOpened, opened(7, 4));
    EXPECT_FALSE(other.has_value());
}

// A ShoeInPlay of 2 decks whose JSON is written out below by hand.
ShoeInPlay twoDeckShoe() {
    game::ShoeComposition left;
    left.add(card("AS"));
    left.add(card("TD"));
    left.add(card("KH"), 2);
    left.add(card("9C"), 2);
    return ShoeInPlay{12,
                      2,
                      5,
                      14,
                      true,
                      left,
                      {marks(Winner::Banker, false, false, 0), marks(Winner::Player, true, false, 0),
                       marks(Winner::Tie, false, false, 9), marks(Winner::Banker, true, true, 8)},
                      {}};
}

constexpr std::string_view kTwoDeckShoe =
    R"({"burned":true,"cut_cards_behind":14,"decks":2,"left":{"9C":2,"AS":1,"KH":2,"TD":1},)"
    R"("results":["B","Pp","T9","Bpb8"],"round_in_shoe":5,"shoe":12})";

TEST(ShoeInPlay, CarriedFormComesBackTheSame) {
    const ShoeInPlay shoe = twoDeckShoe();
    const json carried = journal::shoeInPlayJson(shoe);
    EXPECT_EQ(carried.dump(), kTwoDeckShoe);
    expectShoe(journal::shoeInPlayFromJson(carried), shoe);
    expectShoe(journal::shoeInPlayFromJson(json::parse(kTwoDeckShoe)), shoe);

    // No cut reported: no "cut_cards_behind", and none read back.
    ShoeInPlay uncut = shoe;
    uncut.cutCardsBehind.reset();
    uncut.burned = false;
    const json uncutJson = journal::shoeInPlayJson(uncut);
    EXPECT_EQ(uncutJson.dump(), R"({"burned":false,"decks":2,"left":{"9C":2,"AS":1,"KH":2,"TD":1},)"
                                R"("results":["B","Pp","T9","Bpb8"],"round_in_shoe":5,"shoe":12})");
    expectShoe(journal::shoeInPlayFromJson(uncutJson), uncut);

    // An empty shoe, no result yet.
    const ShoeInPlay empty{3, 1, 0, std::nullopt, false, {}, {}, {}};
    EXPECT_EQ(journal::shoeInPlayJson(empty).dump(),
              R"({"burned":false,"decks":1,"left":{},"results":[],"round_in_shoe":0,"shoe":3})");
    expectShoe(journal::shoeInPlayFromJson(journal::shoeInPlayJson(empty)), empty);

    // A full deck lists each of the 52 cards once.
    const ShoeInPlay full{1, 1, 0, std::nullopt, false, game::ShoeComposition::fullDecks(1), {}, {}};
    const json fullJson = journal::shoeInPlayJson(full);
    ASSERT_EQ(fullJson.at("left").size(), 52U);
    EXPECT_EQ(fullJson.at("left").at("QS"), 1);
    EXPECT_EQ(fullJson.at("left").at("2C"), 1);
    expectShoe(journal::shoeInPlayFromJson(fullJson), full);
}

TEST(ShoeInPlay, CarriedFormRefusesWhatDoesNotFit) {
    const json good = json::parse(kTwoDeckShoe);
    ASSERT_NO_THROW((void)journal::shoeInPlayFromJson(good));
    const auto refused = [&good](const std::string& what, const std::function<void(json&)>& edit) {
        json bad = good;
        edit(bad);
        EXPECT_THROW((void)journal::shoeInPlayFromJson(bad), json::exception) << what << ": " << bad.dump();
    };
    // Cards are written as the journal writes them: "AS", "TD".
    refused("lower case", [](json& j) { j["left"]["as"] = 1; });
    refused("10 for T", [](json& j) { j["left"]["10S"] = 1; });
    refused("no card", [](json& j) { j["left"]["ZZ"] = 1; });
    refused("empty key", [](json& j) { j["left"][""] = 1; });
    // One to `decks` of each card.
    refused("above decks", [](json& j) { j["left"]["AS"] = 3; });
    refused("zero", [](json& j) { j["left"]["AS"] = 0; });
    refused("text count", [](json& j) { j["left"]["AS"] = "1"; });
    refused("left not an object", [](json& j) { j["left"] = json::array({"AS"}); });
    // Results: B, P or T, then p, then b, then 8 or 9.
    for (const std::string result : {"X", "Bp7", "pB", "Bbp", "", "B88", "b", "Tp9b"}) {
        refused("result " + result, [&result](json& j) { j["results"][0] = result; });
    }
    refused("result not text", [](json& j) { j["results"][0] = 8; });
    // No more results than rounds.
    refused("more results than rounds", [](json& j) { j["round_in_shoe"] = 3; });
    refused("six results of five rounds", [](json& j) {
        j["results"].push_back("B");
        j["results"].push_back("P");
    });
    // Ranges.
    refused("decks 9", [](json& j) { j["decks"] = 9; });
    refused("decks 0", [](json& j) { j["decks"] = 0; });
    refused("shoe 0", [](json& j) { j["shoe"] = 0; });
    refused("round -1", [](json& j) { j["round_in_shoe"] = -1; });
    refused("cut 0", [](json& j) { j["cut_cards_behind"] = 0; });
    refused("burned 1", [](json& j) { j["burned"] = 1; });
    // Every field but the cut is needed.
    for (const std::string field : {"shoe", "decks", "round_in_shoe", "burned", "left", "results"}) {
        refused("missing " + field, [&field](json& j) { j.erase(field); });
    }

    // What fits at the limits is read.
    json atLimits = good;
    atLimits["left"]["AS"] = 2;          // as many as decks
    atLimits["round_in_shoe"] = 4;       // as many rounds as results
    atLimits.erase("cut_cards_behind");  // a cut not yet reported
    atLimits["results"][1] = "Tpb9";     // every mark
    const ShoeInPlay read = journal::shoeInPlayFromJson(atLimits);
    EXPECT_EQ(read.left.count(card("AS")), 2);
    EXPECT_EQ(read.left.total(), 2 + 1 + 2 + 2);
    EXPECT_FALSE(read.cutCardsBehind.has_value());
    expectMarks(read.results[1], marks(Winner::Tie, true, true, 9), 1);
}

json corpusFile(const std::string& name) {
    std::ifstream in(test::sourceDir() / "tests" / "fuzz" / "corpus" / "carried_state" / name);
    EXPECT_TRUE(in) << name;
    return json::parse(in);
}

// The fuzz corpus' seeds of a carried reader shoe: the good one is read as written and comes back
// the same; the one with "10C" for "TC" stops the start-up.
TEST(ShoeInPlay, TheCarriedStateCorpusSeedsReadAsTheyShould) {
    const json good = corpusFile("reader_shoe.json");
    const journal::ResumeFacts facts = journal::resumeFactsFromJson(good.at("table"));
    ASSERT_TRUE(facts.shoe.has_value());
    expectShoe(*facts.shoe, ShoeInPlay{4,
                                       1,
                                       7,
                                       14,
                                       true,
                                       fullLess(1,
                                                "AC AD AH AS 2H 2S 3C 3D 4D 4H 4S 5C 5H 6C 6D 6S 7D 7H 8C 8D 8S "
                                                "9H 9S TD TH TS JC JS QH QS KD KS"),
                                       {marks(Winner::Banker, false, false, 0), marks(Winner::Player, true, false, 0),
                                        marks(Winner::Tie, false, false, 0), marks(Winner::Banker, false, false, 8),
                                        marks(Winner::Player, false, false, 0), marks(Winner::Banker, false, true, 9)},
                                       {}});
    EXPECT_EQ(journal::resumeFactsJson(facts), good.at("table"));

    const json bad = corpusFile("reader_shoe_bad_card.json");
    EXPECT_THROW((void)journal::resumeFactsFromJson(bad.at("table")), json::exception);
}

}  // namespace
}  // namespace pitlink

namespace pitlink::table {
namespace {

using game::Card;
using game::RoundMarks;
using game::Winner;
using journal::ShoeInPlay;
using nlohmann::json;

std::vector<json> eventsOf(const TableFixture& f, const std::string& name) {
    std::vector<json> out;
    std::copy_if(f.events.begin(), f.events.end(), std::back_inserter(out),
                 [&](const json& e) { return e.value("event", "") == name; });
    return out;
}

TableSettings settingsOf(CardSource source, int decks) {
    TableSettings settings;
    settings.source = source;
    settings.shoe.decks = decks;
    settings.betsOpen = std::chrono::seconds(20);
    settings.lastBets = std::chrono::seconds(5);
    return settings;
}

// The table of `f` again, as a start-up builds it: on the same journal, with `start`.
void restart(TableFixture& f, TableSettings settings, TableStart start) {
    f.table.reset();
    f.events.clear();
    f.table = std::make_unique<Table>(*f.journal, f.paytable, std::move(settings), f.timers, f.random, std::move(start),
                                      [&f](const TableEvent& e) { f.events.push_back(io::eventJson(e)); });
}

// The body of the last record of a kind in the fixture's journal.
json lastBody(TableFixture& f, std::string_view k) {
    auto q = f.store->connection().prepare("SELECT body FROM record WHERE kind = ? ORDER BY seq DESC LIMIT 1");
    q.bind(1, k);
    if (!q.step()) {
        ADD_FAILURE() << "no " << k;
        return json();
    }
    return json::parse(std::string(q.text(0)));
}

constexpr const char* kOut = "2H 5C 6C AS AH AD AC 9S 9H KS QS JS TS 8D 7D";  // 15 cards out

// Shoe 4 of 1 deck: burned (2H 5C 6C), 3 rounds dealt, its cut 14 cards from the end.
ShoeInPlay resumedShoe() {
    game::ShoeComposition left = game::ShoeComposition::fullDecks(1);
    for (const Card c : test::cards(kOut)) {
        left.remove(c);
    }
    return ShoeInPlay{4,
                      1,
                      3,
                      14,
                      true,
                      left,
                      {RoundMarks{Winner::Banker, false, false, 0}, RoundMarks{Winner::Player, true, false, 0},
                       RoundMarks{Winner::Tie, false, false, 0}},
                      {}};
}

TableStart startWith(std::optional<ShoeInPlay> shoe, std::uint32_t nextShoe) {
    TableStart start;
    start.nextRoundId = 20;
    start.nextShoeNumber = nextShoe;
    start.shoe = std::move(shoe);
    return start;
}

TEST(ShoeResume, AReaderTableGoesOnWithItsShoe) {
    TableFixture f(CardSource::Reader, settingsOf(CardSource::Reader, 1));
    restart(f, settingsOf(CardSource::Reader, 1), startWith(resumedShoe(), 5));
    Table& t = *f.table;

    EXPECT_EQ(t.shoeNumber(), 4U);
    EXPECT_EQ(t.roundInShoe(), 3);
    EXPECT_TRUE(t.shoeResumed());
    const game::ShoeComposition left = t.shoeLeft();
    EXPECT_EQ(left.total(), 52 - 15);
    EXPECT_EQ(left.count(test::cards("AS").front()), 0);
    EXPECT_EQ(left.count(test::cards("2H").front()), 0);
    EXPECT_EQ(left.count(test::cards("2C").front()), 1);
    EXPECT_EQ(left.rankCount(game::Rank::Ace), 0);
    EXPECT_EQ(left.rankCount(game::Rank::Nine), 2);
    EXPECT_EQ(left, resumedShoe().left);
    const TableStatus status = t.status();
    EXPECT_TRUE(status.shoeResumed);
    EXPECT_EQ(status.cardsLeft, 37);
    EXPECT_EQ(status.shoe, 4U);
    EXPECT_EQ(status.roundInShoe, 3);
    EXPECT_EQ(status.shoeReason, "");
    // The roads of the shoe's three rounds.
    const auto& beads = t.scoreboard().beads();
    ASSERT_EQ(beads.size(), 3U);
    EXPECT_EQ(beads[0].winner, Winner::Banker);
    EXPECT_EQ(beads[1].winner, Winner::Player);
    EXPECT_TRUE(beads[1].playerPair);
    EXPECT_FALSE(beads[1].bankerPair);
    EXPECT_EQ(beads[2].winner, Winner::Tie);
    EXPECT_EQ(t.scoreboard().shoeNumber(), 4U);
    EXPECT_EQ(t.scoreboard().statistics().rounds, 3);
    // Its cut and burn were reported before the stop: not again.
    EXPECT_EQ(f.call([&](Respond r) { t.reportCut(10, r); }).error, "shoe_in_play");
    EXPECT_EQ(f.call([&](Respond r) { t.reportBurn(test::cards("2C 3C 4C"), r); }).error, "shoe_in_play");

    // The next round is the shoe's fourth; no new shoe is started.
    ASSERT_TRUE(f.call([&](Respond r) { t.openRound(r); }).ok);
    const auto rounds = eventsOf(f, "round");
    ASSERT_EQ(rounds.size(), 1U);
    EXPECT_EQ(rounds[0]["phase"], "bets_open");
    EXPECT_EQ(rounds[0]["round"], 20);
    EXPECT_EQ(rounds[0]["shoe"], 4);
    EXPECT_EQ(rounds[0]["round_in_shoe"], 4);
    EXPECT_TRUE(eventsOf(f, "shoe").empty());
    EXPECT_EQ(f.count(journal::kind::kShoeStarted), 0);
    EXPECT_EQ(lastBody(f, journal::kind::kRoundOpened)["round_in_shoe"], 4);

    // An ace: the shoe has none left. A misdeal, the round voided, nothing taken out.
    ASSERT_TRUE(f.call([&](Respond r) { t.closeBets(r); }).ok);
    const Reply ace = f.call([&](Respond r) { t.dealCard(test::cards("AD").front(), r); });
    EXPECT_FALSE(ace.ok);
    EXPECT_EQ(ace.error, "card_refused");
    EXPECT_NE(ace.message.find("card 1 "), std::string::npos) << ace.message;
    EXPECT_NE(ace.message.find("AD"), std::string::npos) << ace.message;
    EXPECT_NE(ace.message.find("left in the shoe"), std::string::npos) << ace.message;
    EXPECT_EQ(t.phase(), RoundPhase::Idle);
    EXPECT_EQ(f.count(journal::kind::kCardRefused), 1);
    EXPECT_EQ(f.count(journal::kind::kRoundVoided), 1);
    EXPECT_EQ(f.count(journal::kind::kCardDealt), 0);
    const auto results = eventsOf(f, "result");
    ASSERT_EQ(results.size(), 1U);
    EXPECT_EQ(results[0]["voided"], true);
    EXPECT_EQ(t.status().cardsLeft, 37);
    EXPECT_EQ(t.scoreboard().beads().size(), 3U);

    // The fifth round is dealt from what is left: 9C 2C TD 3S, Player's natural 9 against 5.
    ASSERT_TRUE(f.call([&](Respond r) { t.openRound(r); }).ok);
    EXPECT_EQ(t.roundInShoe(), 5);
    ASSERT_TRUE(f.call([&](Respond r) { t.closeBets(r); }).ok);
    f.deal("9C 2C TD 3S");
    EXPECT_EQ(t.phase(), RoundPhase::Idle);
    EXPECT_EQ(t.status().cardsLeft, 33);
    EXPECT_EQ(t.shoeLeft().count(test::cards("9C").front()), 0);
    EXPECT_EQ(t.shoeLeft().rankCount(game::Rank::Nine), 1);
    ASSERT_EQ(t.scoreboard().beads().size(), 4U);
    EXPECT_EQ(t.scoreboard().beads()[3].winner, Winner::Player);
    EXPECT_EQ(t.scoreboard().beads()[3].natural, 9);
    EXPECT_EQ(t.shoeNumber(), 4U);
}

TEST(ShoeResume, AResumedShoeWhoseCutCardIsOutWaitsForANewShoe) {
    ShoeInPlay shoe = resumedShoe();
    shoe.cutCardsBehind = 37;  // as many cards left as the cut had behind it
    TableFixture f(CardSource::Reader, settingsOf(CardSource::Reader, 1));
    restart(f, settingsOf(CardSource::Reader, 1), startWith(shoe, 5));
    EXPECT_TRUE(f.table->shoeResumed());
    EXPECT_EQ(f.table->shoeNumber(), 4U);
    EXPECT_EQ(f.call([&](Respond r) { f.table->openRound(r); }).error, "no_shoe");

    ASSERT_TRUE(f.call([&](Respond r) { f.table->newShoe(r); }).ok);
    EXPECT_EQ(f.table->shoeNumber(), 5U);
    EXPECT_FALSE(f.table->shoeResumed());
    EXPECT_EQ(f.table->status().cardsLeft, 52);
    EXPECT_EQ(f.table->status().shoeReason, "new_shoe");
    EXPECT_TRUE(f.table->scoreboard().beads().empty());
    EXPECT_EQ(lastBody(f, journal::kind::kShoeEnded), json::parse(R"({"shoe":4,"rounds":3,"cards_left":-1})"));
    const auto shoes = eventsOf(f, "shoe");
    ASSERT_EQ(shoes.size(), 1U);
    EXPECT_EQ(shoes[0], json::parse(R"({"event":"shoe","shoe":5,"reason":"new_shoe"})"));
    ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
    EXPECT_EQ(f.table->roundInShoe(), 1);
}

TEST(ShoeResume, AShoeOfOtherDecksIsNotResumed) {
    TableFixture f(CardSource::Reader, settingsOf(CardSource::Reader, 2));
    restart(f, settingsOf(CardSource::Reader, 2), startWith(resumedShoe(), 5));  // a 1-deck shoe
    EXPECT_FALSE(f.table->shoeResumed());
    EXPECT_EQ(f.table->shoeNumber(), 0U);
    EXPECT_EQ(f.table->status().cardsLeft, 0);
    EXPECT_FALSE(f.table->status().shoeResumed);
    EXPECT_TRUE(f.table->scoreboard().beads().empty());
    EXPECT_EQ(f.call([&](Respond r) { f.table->openRound(r); }).error, "no_shoe");
    // The dealer reports a new shoe: the next number.
    ASSERT_TRUE(f.call([&](Respond r) { f.table->newShoe(r); }).ok);
    EXPECT_EQ(f.table->shoeNumber(), 5U);
    EXPECT_EQ(f.table->status().cardsLeft, 104);
    EXPECT_EQ(f.count(journal::kind::kShoeEnded), 0);  // no shoe was in play
}

// An RNG table shuffles a new shoe at its first round, whatever it is given; the shoe says why.
TEST(ShoeResume, AnRngTableStartsANewShoeAndSaysWhy) {
    for (const auto& [nextShoe, reason] :
         std::vector<std::pair<std::uint32_t, std::string>>{{5, "restart"}, {1, "first"}}) {
        SCOPED_TRACE(reason);
        TableFixture f(CardSource::Rng, settingsOf(CardSource::Rng, 1));
        restart(f, settingsOf(CardSource::Rng, 1), startWith(resumedShoe(), nextShoe));
        EXPECT_FALSE(f.table->shoeResumed());
        EXPECT_EQ(f.table->shoeNumber(), 0U);
        EXPECT_EQ(f.table->status().cardsLeft, 0);
        ASSERT_TRUE(f.call([&](Respond r) { f.table->openRound(r); }).ok);
        EXPECT_EQ(f.table->shoeNumber(), nextShoe);
        EXPECT_EQ(f.table->roundInShoe(), 1);
        EXPECT_FALSE(f.table->shoeResumed());
        EXPECT_TRUE(f.table->scoreboard().beads().empty());
        const auto shoes = eventsOf(f, "shoe");
        ASSERT_EQ(shoes.size(), 1U);
        EXPECT_EQ(shoes[0], (json{{"event", "shoe"}, {"shoe", nextShoe}, {"reason", reason}}));
        // The shoe event goes out before the round's.
        const auto shoeAt = std::find_if(f.events.begin(), f.events.end(),
                                         [](const json& e) { return e.value("event", "") == "shoe"; });
        const auto roundAt = std::find_if(f.events.begin(), f.events.end(),
                                          [](const json& e) { return e.value("event", "") == "round"; });
        EXPECT_LT(shoeAt - f.events.begin(), roundAt - f.events.begin());
        EXPECT_EQ(f.table->status().shoeReason, reason);
        const json started = lastBody(f, journal::kind::kShoeStarted);
        EXPECT_EQ(started["reason"], reason);
        EXPECT_EQ(started["source"], "rng");
        EXPECT_EQ(started["shoe"], nextShoe);
        EXPECT_EQ(started["decks"], 1);
        // What is left: the deck less its burn.
        EXPECT_EQ(f.table->status().cardsLeft, 52 - started["burned"].get<int>());
    }
}

}  // namespace
}  // namespace pitlink::table

namespace pitlink {
namespace {

using game::Card;
using game::Winner;
using journal::ShoeInPlay;
using nlohmann::json;

table::Reply call(const std::function<void(table::Respond)>& op) {
    std::optional<table::Reply> reply;
    op([&](const table::Reply& r) { reply = r; });
    EXPECT_TRUE(reply.has_value()) << "no reply";
    return reply.value_or(table::Reply::refused("none", "no reply"));
}

// A reader table of one deck on the fixture's journal.
struct ReaderTable {
    ReaderTable(journal::Journal& journal, table::TableStart start) {
        table::TableSettings settings;
        settings.source = table::CardSource::Reader;
        settings.shoe.decks = 1;
        t = std::make_unique<table::Table>(journal, paytable, settings, timers, random, std::move(start),
                                           [](const table::TableEvent&) {});
    }
    void round(const std::string& cards) {
        ASSERT_TRUE(call([&](table::Respond r) { t->openRound(r); }).ok);
        ASSERT_TRUE(call([&](table::Respond r) { t->closeBets(r); }).ok);
        for (const Card c : test::cards(cards)) {
            ASSERT_TRUE(call([&](table::Respond r) { t->dealCard(c, r); }).ok) << c.toString();
        }
    }

    game::Paytable paytable = test::shippedPaytable("standard");
    test::ManualExecutor timers;
    game::SeededRandom random{7};
    std::unique_ptr<table::Table> t;
};

std::int64_t countOf(test::JournalFixture& f, std::string_view k) {
    auto q = f.store->connection().prepare("SELECT count(*) FROM record WHERE kind = ?");
    q.bind(1, k);
    q.step();
    return q.integer(0);
}

TEST(ShoeInPlay, ACarriedShoeResumesOnTheNewSegmentAlone) {
    test::JournalFixture f;  // its RNG shoe 1 started
    {
        table::TableStart start;
        start.nextShoeNumber = 2;
        ReaderTable r(*f.journal, start);
        ASSERT_TRUE(call([&](table::Respond k) { r.t->newShoe(k); }).ok);
        ASSERT_TRUE(call([&](table::Respond k) { r.t->reportCut(10, k); }).ok);
        ASSERT_TRUE(call([&](table::Respond k) { r.t->reportBurn(test::cards("2D 7H 7C"), k); }).ok);
        r.round("9H 2C TD 3S");  // Player's natural 9 against 5
        r.round("8S 4D KC 4C");  // 8 to 8, both naturals: a tie with a Banker pair
    }
    ShoeInPlay expected{
        2,
        1,
        2,
        10,
        true,
        game::ShoeComposition::fullDecks(1),
        {game::RoundMarks{Winner::Player, false, false, 9}, game::RoundMarks{Winner::Tie, false, true, 8}},
        {}};
    for (const Card c : test::cards("2D 7H 7C 9H 2C TD 3S 8S 4D KC 4C")) {
        ASSERT_TRUE(expected.left.remove(c));
    }
    ASSERT_EQ(expected.left.total(), 41);
    const journal::ResumeFacts whole = journal::resumeFacts(*f.store);
    ASSERT_TRUE(whole.shoe.has_value());
    expectShoe(*whole.shoe, expected);

    f.rotate();
    ASSERT_EQ(journal::SegmentFiles(f.path).active(), 2U);
    const std::optional<json> carried = journal::carriedState(*f.store);
    ASSERT_TRUE(carried.has_value());
    const json& shoe = carried->at("table").at("shoe");
    EXPECT_EQ(shoe.at("shoe"), 2);
    EXPECT_EQ(shoe.at("decks"), 1);
    EXPECT_EQ(shoe.at("round_in_shoe"), 2);
    EXPECT_EQ(shoe.at("cut_cards_behind"), 10);
    EXPECT_EQ(shoe.at("burned"), true);
    EXPECT_EQ(shoe.at("results"), json::parse(R"(["P9","Tb8"])"));
    EXPECT_EQ(shoe.at("left").size(), 41U);  // each card once, the 11 out left out
    EXPECT_FALSE(shoe.at("left").contains("2D"));
    EXPECT_FALSE(shoe.at("left").contains("KC"));
    EXPECT_EQ(shoe.at("left").at("KD"), 1);
    EXPECT_EQ(carried->at("table").at("last_shoe"), 2);

    // The new segment holds none of the shoe's records: what it carried is the shoe.
    EXPECT_EQ(countOf(f, journal::kind::kShoeStarted), 0);
    EXPECT_EQ(countOf(f, journal::kind::kCardDealt), 0);
    const journal::ResumeFacts resumed = journal::resumeFacts(*f.store);
    ASSERT_TRUE(resumed.shoe.has_value());
    expectShoe(*resumed.shoe, expected);
    EXPECT_EQ(resumed.lastShoe, 2U);

    // A start on it goes on with the shoe: a round, then one voided after its first card.
    {
        table::TableStart start;
        start.nextRoundId = resumed.lastRoundId.value_or(0) + 1;
        start.nextShoeNumber = resumed.lastShoe.value_or(0) + 1;
        start.shoe = resumed.shoe;
        ReaderTable r(*f.journal, start);
        ASSERT_TRUE(r.t->shoeResumed());
        r.round("6S 3H 3D JH");  // Player's natural 9 against 3
        EXPECT_EQ(r.t->roundInShoe(), 3);
        ASSERT_TRUE(call([&](table::Respond k) { r.t->openRound(k); }).ok);
        ASSERT_TRUE(call([&](table::Respond k) { r.t->closeBets(k); }).ok);
        ASSERT_TRUE(call([&](table::Respond k) { r.t->dealCard(test::cards("5D").front(), k); }).ok);
        ASSERT_TRUE(call([&](table::Respond k) { r.t->voidRound("the dealer dropped a card", "floor", k); }).ok);
    }
    for (const Card c : test::cards("6S 3H 3D JH 5D")) {
        ASSERT_TRUE(expected.left.remove(c));
    }
    expected.roundInShoe = 4;
    expected.results.push_back(game::RoundMarks{Winner::Player, false, false, 9});
    ASSERT_EQ(expected.left.total(), 36);
    const journal::ResumeFacts after = journal::resumeFacts(*f.store);
    ASSERT_TRUE(after.shoe.has_value());
    expectShoe(*after.shoe, expected);
    // And after a restart on the same segment (its recovery finds nothing unfinished).
    f.reopen();
    const std::optional<ShoeInPlay> again = journal::resumeShoe(*f.store, journal::carriedState(*f.store));
    ASSERT_TRUE(again.has_value());
    expectShoe(*again, expected);
}

}  // namespace
}  // namespace pitlink
