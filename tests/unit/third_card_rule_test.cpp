#include "daemon/game/third_card_rule.h"

#include <gtest/gtest.h>

#include <set>

#include "daemon/game/outcome.h"
#include "daemon/game/random_source.h"
#include "tests/unit/fixtures.h"

namespace pitlink::game {
namespace {

// Every cell of the Banker's table against the ez-baccarat tableau (bankerTotal -> player third
// card points on which the Banker draws).
TEST(ThirdCardRule, EveryBankerCellMatchesTheEzBaccaratTableau) {
    const auto fixture = test::loadJsonFixture("baccarat/ez-baccarat_fixtures.json");
    const auto& tableau = fixture["tableau_banker_draws_on_player_third"];
    int cells = 0;
    for (int banker = 0; banker <= 9; ++banker) {
        std::set<int> draws;
        for (const auto& v : tableau[std::to_string(banker)]) {
            draws.insert(v.get<int>());
        }
        for (int third = 0; third <= 9; ++third) {
            EXPECT_EQ(bankerDraws(banker, third), draws.count(third) == 1) << "banker " << banker << " third " << third;
            ++cells;
        }
    }
    EXPECT_EQ(cells, 100);
}

TEST(ThirdCardRule, BankerAfterPlayerStoodDrawsOnFiveOrLess) {
    for (int banker = 0; banker <= 9; ++banker) {
        EXPECT_EQ(bankerDraws(banker, std::nullopt), banker <= 5) << banker;
    }
    // nine-road-lab fixture: player stood, banker 5 draws, 6 stands
    EXPECT_TRUE(bankerDraws(5, std::nullopt));
    EXPECT_FALSE(bankerDraws(6, std::nullopt));
}

TEST(ThirdCardRule, PlayerDrawsOnZeroToFive) {
    for (int p = 0; p <= 9; ++p) {
        EXPECT_EQ(playerDraws(p), p <= 5) << p;
    }
}

// The same cells reached by dealing real cards: Player 2-card total 0 (draws), Banker total b,
// Player's third card v; the coup must give the Banker a third card exactly when the table says.
TEST(ThirdCardRule, DealingFollowsEveryReachableCell) {
    const std::array<const char*, 10> pointCard{"KS", "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"};
    for (int b = 0; b <= 7; ++b) {
        for (int v = 0; v <= 9; ++v) {
            // P1=K, B1=K, P2=Q, B2=b, P3=v, B3=K if due
            const std::string cards = std::string("KH KD QH ") + pointCard[static_cast<std::size_t>(b)] + " " +
                                      pointCard[static_cast<std::size_t>(v)] + (bankerDraws(b, v) ? " KC" : "");
            const Coup coup = test::coupFromDeal(cards);
            EXPECT_EQ(coup.player.size(), 3);
            EXPECT_EQ(coup.banker.size(), bankerDraws(b, v) ? 3 : 2) << cards;
        }
    }
}

TEST(ThirdCardRule, NaturalsStopTheDeal) {
    EXPECT_EQ(test::coupFromDeal("9H 7D KS QC").cardCount(), 4);  // Player natural 9 (nine-road-lab deal)
    EXPECT_EQ(test::coupFromDeal("2H 4D 3S 4C").cardCount(), 4);  // Banker natural 8 against Player 5
    EXPECT_EQ(test::coupFromDeal("4H 4D 4S 5C").cardCount(), 4);  // Player natural 8
}

TEST(ThirdCardRule, NineRoadLabDeals) {
    const auto fixture = test::loadJsonFixture("baccarat/nine-road-lab_fixtures.json");
    ASSERT_EQ(fixture["deals"].size(), 2U);
    // "P1=9 B1=7 P2=K B2=Q": 4 cards, Player 9 natural wins
    const Coup first = test::coupFromDeal("9S 7H KD QC");
    EXPECT_EQ(first.cardCount(), fixture["deals"][0]["cardsUsed"].get<int>());
    const Outcome o1 = evaluate(first);
    EXPECT_EQ(o1.playerTotal, fixture["deals"][0]["playerTotal"].get<int>());
    EXPECT_EQ(std::string(winnerName(o1.winner)), fixture["deals"][0]["winner"].get<std::string>());
    EXPECT_TRUE(o1.playerNatural());
    // "P1=2 B1=3 P2=3 B2=2 P3=4 B3=3": both draw, Player 9 beats Banker 8
    const Coup second = test::coupFromDeal("2S 3H 3D 2C 4S 3C");
    EXPECT_EQ(second.player.size(), fixture["deals"][1]["player_cards"].get<int>());
    EXPECT_EQ(second.banker.size(), fixture["deals"][1]["banker_cards"].get<int>());
    const Outcome o2 = evaluate(second);
    EXPECT_EQ(o2.playerTotal, 9);
    EXPECT_EQ(o2.bankerTotal, 8);
    EXPECT_EQ(o2.winner, Winner::Player);
}

}  // namespace
}  // namespace pitlink::game

namespace pitlink::game {
namespace {

// dealCoup (straight-line, for speed) and nextCardFor (step by step, for the card validator)
// must deal the same coup from every sequence.
TEST(ThirdCardRule, DealCoupAndNextCardForAgreeOnRandomSequences) {
    SeededRandom random(99);
    for (int trial = 0; trial < 200'000; ++trial) {
        std::array<Card, 6> seq{};
        for (Card& c : seq) {
            c = Card::fromIndex(static_cast<int>(uniformBelow(random, kCardsPerDeck)));
        }
        std::size_t a = 0;
        const Coup fast = dealCoup([&] { return seq[a++]; });
        Coup stepwise;
        std::size_t b = 0;
        while (const auto side = nextCardFor(stepwise)) {
            stepwise.hand(*side).add(seq[b++]);
        }
        ASSERT_EQ(a, b) << trial;
        ASSERT_EQ(evaluate(fast), evaluate(stepwise)) << trial;
        ASSERT_EQ(fast.player.size(), stepwise.player.size());
    }
}

}  // namespace
}  // namespace pitlink::game
