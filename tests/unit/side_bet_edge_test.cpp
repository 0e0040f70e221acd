// The side bets' exact edges (issue 38): equal to a brute force that deals every ordered sequence
// of a small shoe's cards and adds up each bet's net itself, with its own exact fractions; the
// published 8-deck figures for a full shoe; an 8-deck shoe midway within a Monte Carlo interval;
// a shoe rich in sevens turns Gold 7 in the player's favour where one of the same size without the
// surplus does not.
#include "daemon/game/side_bet_edge.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "daemon/game/third_card_rule.h"
#include "tests/support/ordered_deals.h"
#include "tests/unit/fixtures.h"

namespace pitlink::game {
namespace {

// A bet's total net over every ordered 6-card sequence of `shoe`, as a fraction num / den of the
// sequences' count (den: the product of the paytable's denominators, not their lcm).
struct Exact {
    Int128 num = 0;
    Int128 den = 1;
};

std::map<BetType, Exact> bruteForceEdges(const Paytable& table, const std::vector<Card>& shoe) {
    std::map<BetType, Int128> productOfDens;
    for (const BetType t : kAllBetTypes) {
        if (!table.offers(t) || isMainBet(t)) {
            continue;
        }
        Int128 product = 1;
        for (std::size_t tier = 0; tier < payTiers(t).size(); ++tier) {
            product *= table.payout(t, static_cast<int>(tier)).ratio.den;
        }
        productOfDens[t] = product;
    }
    std::map<BetType, Int128> net;  // in units of 1 / productOfDens
    Int128 sequences = 0;
    test::forEveryOrderedDeal(shoe, [&](const Outcome& o) {
        ++sequences;
        for (const auto& [t, product] : productOfDens) {
            const BetEvent e = classifyBet(t, o);
            if (e.kind == BetEvent::Kind::Loss) {
                net[t] -= product;
            } else if (e.kind == BetEvent::Kind::Win) {
                const Payout p = table.payout(t, e.tier);
                if (!p.push) {
                    net[t] += product / p.ratio.den * p.ratio.num;
                }
            }
        }
    });
    std::map<BetType, Exact> out;
    for (const auto& [t, product] : productOfDens) {
        out[t] = Exact{net[t], sequences * product};
    }
    return out;
}

ShoeComposition compositionOf(const std::vector<Card>& shoe) {
    ShoeComposition c;
    for (const Card card : shoe) {
        c.add(card);
    }
    return c;
}

void expectBruteForceEdges(const Paytable& table, const std::string& shoeText) {
    const auto shoe = test::cards(shoeText);
    const auto expected = bruteForceEdges(table, shoe);
    const auto edges = sideBetEdges(table, compositionOf(shoe));
    ASSERT_EQ(edges.size(), expected.size()) << table.id;
    for (const BetEdge& edge : edges) {
        const Exact& e = expected.at(edge.bet);
        EXPECT_TRUE(edge.num * e.den == e.num * edge.den) << betTypeName(edge.bet) << " in " << shoeText;
    }
}

TEST(SideBetEdge, EqualsABruteForceOverEveryOrderedSequenceOfSmallShoes) {
    // Sevens and eights for three-card 7s and 8s, nines of several suits, suited pairs.
    expectBruteForceEdges(test::shippedPaytable("ruyi"), "7S 7H 7D 8C 8S 9D 9S 9H KS 2C 3H");
    expectBruteForceEdges(test::shippedPaytable("ruyi"), "7C 7C 7C 4H 3D TS 8S 8S 9C AH 6D");
    expectBruteForceEdges(test::shippedPaytable("standard"), "9D 9D 9S 9H KS KS 5C 5C 3H 2D AS 7C");
    expectBruteForceEdges(test::shippedPaytable("no_commission"), "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS");
    // Ratios that are not whole: each tier's own denominator.
    Paytable halves = test::shippedPaytable("ruyi");
    halves.set(BetType::Tie, 0, Payout::pays({17, 2}));
    halves.set(BetType::Gold7, 0, Payout::pays({121, 3}));
    halves.set(BetType::Ruby9, 1, Payout::pays({149, 2}));
    expectBruteForceEdges(halves, "7S 7H 7D 8C 8S 9D 9S 9H KS 2C 3H");
}

TEST(SideBetEdge, AFullShoeHasThePublishedHouseEdges) {
    const auto edges = sideBetEdges(test::shippedPaytable("ruyi"), ShoeComposition::fullDecks(8));
    std::map<BetType, std::int64_t> ppm;
    for (const BetEdge& e : edges) {
        ppm[e.bet] = e.ppm();
    }
    // Wizard of Odds, 8 decks: Dragon 7 (Gold 7) at 40: 7.611 %; Panda 8 (Jade 8) at 25: 10.187 %.
    EXPECT_NEAR(static_cast<double>(ppm.at(BetType::Gold7)), -76'110, 60);
    EXPECT_NEAR(static_cast<double>(ppm.at(BetType::Jade8)), -101'870, 60);
    EXPECT_EQ(ppm.count(BetType::Banker), 0U);  // a main bet: not a side bet
    EXPECT_EQ(ppm.count(BetType::Player), 0U);
}

// The exact edges of an 8-deck composition lie within a Monte Carlo interval: four million coups
// dealt at random from the same composition (each coup's cards drawn without replacement, the
// composition whole again for the next), each side bet's mean net result per unit staked, 4.5
// standard errors either way. The composition is a shoe with sixteen nines and sixteen eights
// dealt, where Gold 7 favours the player (+1.1 %): far from the full shoe's -7.6 %, which the
// interval (about +-1.5 % for Gold 7) leaves out.
TEST(SideBetEdge, AnEightDeckShoeMidwayLiesWithinTheSimulatorsInterval) {
    ShoeComposition shoe = ShoeComposition::fullDecks(8);
    for (int i = 0; i < 16; ++i) {
        for (const Rank rank : {Rank::Nine, Rank::Eight}) {
            ASSERT_TRUE(shoe.remove(Card(rank, static_cast<Suit>(i % kSuits))));
        }
    }
    std::vector<Card> cards;
    for (int index = 0; index < kCardsPerDeck; ++index) {
        for (int n = 0; n < shoe.count(index); ++n) {
            cards.push_back(Card::fromIndex(index));
        }
    }
    const Paytable ruyi = test::shippedPaytable("ruyi");
    const std::vector<BetEdge> exact = sideBetEdges(ruyi, shoe);
    std::mt19937_64 random(38);
    constexpr int kCoups = 4'000'000;
    std::map<BetType, std::pair<double, double>> sums;  // net, net squared
    for (int coup = 0; coup < kCoups; ++coup) {
        std::size_t drawn = 0;
        const Outcome outcome = evaluate(dealCoup([&] {
            // A partial Fisher-Yates: the drawn cards gather at the front, the rest stay whole.
            const std::size_t pick =
                drawn + std::uniform_int_distribution<std::size_t>(0, cards.size() - drawn - 1)(random);
            std::swap(cards[drawn], cards[pick]);
            return cards[drawn++];
        }));
        for (const BetEdge& e : exact) {
            const BetEvent event = classifyBet(e.bet, outcome);
            double net = -1;
            if (event.kind == BetEvent::Kind::Push) {
                net = 0;
            } else if (event.kind == BetEvent::Kind::Win) {
                const Payout p = ruyi.payout(e.bet, event.tier);
                net = p.push ? 0 : static_cast<double>(p.ratio.num) / static_cast<double>(p.ratio.den);
            }
            sums[e.bet].first += net;
            sums[e.bet].second += net * net;
        }
    }
    bool goldSeen = false;
    for (const BetEdge& e : exact) {
        const auto [sum, squares] = sums[e.bet];
        const double mean = sum / kCoups;
        const double standardError = std::sqrt((squares / kCoups - mean * mean) / kCoups);
        const double edge = static_cast<double>(e.ppm()) / 1e6;
        EXPECT_NEAR(mean, edge, 4.5 * standardError) << betTypeName(e.bet);
        if (e.bet == BetType::Gold7) {
            goldSeen = true;
            EXPECT_GT(edge, 0.0);
            EXPECT_GT(mean - 4.5 * standardError, -0.0761);  // the full shoe's edge lies outside
            EXPECT_LT(4.5 * standardError, 0.02);
        }
    }
    EXPECT_TRUE(goldSeen);
}

TEST(SideBetEdge, AShoeRichInSevensTurnsGoldSevenThePlayers) {
    // 52 cards each: one with 16 sevens (12 above a deck's 4), one with a deck's 4. The rest are
    // the same other ranks.
    ShoeComposition rich;
    ShoeComposition plain;
    for (int s = 0; s < kSuits; ++s) {
        for (int r = 1; r <= kRanks; ++r) {
            const Card card(static_cast<Rank>(r), static_cast<Suit>(s));
            plain.add(card);
            if (const int n = static_cast<Rank>(r) == Rank::Seven ? 4 : r == 10 || r == 11 || r == 12 ? 0 : 1; n > 0) {
                rich.add(card, n);
            }
        }
    }
    ASSERT_EQ(rich.total(), plain.total());
    const Paytable ruyi = test::shippedPaytable("ruyi");
    const auto goldSeven = [&](const ShoeComposition& c) {
        for (const BetEdge& e : sideBetEdges(ruyi, c)) {
            if (e.bet == BetType::Gold7) {
                return e;
            }
        }
        ADD_FAILURE() << "ruyi offers no Gold 7";
        return BetEdge{};
    };
    EXPECT_GT(goldSeven(rich).ppm(), 0);
    EXPECT_TRUE(goldSeven(rich).above(0));
    EXPECT_LT(goldSeven(plain).ppm(), 0);
    EXPECT_FALSE(goldSeven(plain).above(0));
}

TEST(SideBetEdge, PartsPerMillionRoundTowardZeroAndTheThresholdIsExact) {
    const BetEdge third{BetType::Tie, 1, 3};
    EXPECT_EQ(third.ppm(), 333'333);
    EXPECT_TRUE(third.above(333'333));  // 333,333.33... is above 333,333
    EXPECT_FALSE(third.above(333'334));
    const BetEdge minusThird{BetType::Tie, -1, 3};
    EXPECT_EQ(minusThird.ppm(), -333'333);
    EXPECT_FALSE(minusThird.above(-333'333));  // -333,333.33... is below -333,333
    EXPECT_TRUE(minusThird.above(-333'334));
}

}  // namespace
}  // namespace pitlink::game
