#include "daemon/game/settlement.h"

#include <gtest/gtest.h>

#include "daemon/game/round_settlement.h"
#include "tests/unit/fixtures.h"

namespace pitlink::game {
namespace {

struct PayCase {
    const char* paytable = "";
    BetType bet = BetType::Player;
    const char* deal = "";  // dealt through the drawing rules
    Money stake = 0;
    BetResult result = BetResult::Loss;
    Money win = 0;
    Fraction breakage{0, 1};
};

// Legal deals used below (P1 B1 P2 B2 [P3] [B3]).
constexpr const char* kPlayerNatural9 = "9S 7H KD QC";              // P 9 v B 7, 4 cards, one nine (spades)
constexpr const char* kBankerNatural8 = "2H 4D 3S 4C";              // B 8 v P 5, 4 cards
constexpr const char* kBankerWinsWithSix = "KH 3S QD 3C 5H";        // P 5 (3 cards) v B 6 (2 cards), 5 cards
constexpr const char* kBankerThreeCardSeven = "4H 2S 6D 2C 2D 3H";  // P 2 v B 7 (3 cards), 6 cards
constexpr const char* kTie88 = "4H 5D 4S 3C";                       // P 8 (4-4, a pair) = B 8
constexpr const char* kPlayerThreeCardEight = "AH KS 4D 7C 3S";     // P 8 (3 cards) v B 7
constexpr const char* kPlayerThreeCardNine = "2S 3H 3D 2C 4S 3C";   // P 9 (3 cards) v B 8 (3 cards)
constexpr const char* kBothThreeCardNines = "2S KH 3D AC 4S 8C";    // P 9 = B 9, both with 3 cards
constexpr const char* kPlayerPair = "KS 2H KD 6C";                  // P K-K (0) v B 8 natural
constexpr const char* kBankerPair = "2H 4S 5D 4C";                  // B 4-4 natural 8 v P 7

const Fraction kNone{0, 1};
const Fraction kHalf{1, 2};

// Every payout of every shipped paytable, on a stake of 105 so that fractional ratios break.
const PayCase kCases[] = {
    // standard
    {"standard", BetType::Player, kPlayerNatural9, 105, BetResult::Win, 105, kNone},
    {"standard", BetType::Player, kBankerNatural8, 105, BetResult::Loss, 0, kNone},
    {"standard", BetType::Player, kTie88, 105, BetResult::Push, 0, kNone},
    {"standard", BetType::Banker, kBankerNatural8, 105, BetResult::Win, 99, Fraction{3, 4}},  // 105*19/20 = 99.75
    {"standard", BetType::Banker, kBankerWinsWithSix, 105, BetResult::Win, 99, Fraction{3, 4}},
    {"standard", BetType::Banker, kBankerThreeCardSeven, 105, BetResult::Win, 99, Fraction{3, 4}},
    {"standard", BetType::Banker, kTie88, 105, BetResult::Push, 0, kNone},
    {"standard", BetType::Banker, kPlayerNatural9, 105, BetResult::Loss, 0, kNone},
    {"standard", BetType::Tie, kTie88, 105, BetResult::Win, 840, kNone},
    {"standard", BetType::Tie, kPlayerNatural9, 105, BetResult::Loss, 0, kNone},
    {"standard", BetType::PlayerPair, kPlayerPair, 105, BetResult::Win, 1155, kNone},
    {"standard", BetType::PlayerPair, kBankerPair, 105, BetResult::Loss, 0, kNone},
    {"standard", BetType::BankerPair, kBankerPair, 105, BetResult::Win, 1155, kNone},
    {"standard", BetType::BankerPair, kPlayerPair, 105, BetResult::Loss, 0, kNone},
    {"standard", BetType::AnyPair, kPlayerPair, 105, BetResult::Win, 525, kNone},
    {"standard", BetType::AnyPair, kBankerPair, 105, BetResult::Win, 525, kNone},
    {"standard", BetType::AnyPair, kPlayerNatural9, 105, BetResult::Loss, 0, kNone},
    {"standard", BetType::Big, kBankerWinsWithSix, 105, BetResult::Win, 52, kHalf},
    {"standard", BetType::Big, kBankerNatural8, 105, BetResult::Loss, 0, kNone},
    {"standard", BetType::Small, kBankerNatural8, 105, BetResult::Win, 157, kHalf},
    {"standard", BetType::Small, kBankerThreeCardSeven, 105, BetResult::Loss, 0, kNone},
    {"standard", BetType::LuckyNines, kPlayerNatural9, 105, BetResult::Win, 105, kNone},  // one nine
    {"standard", BetType::LuckyNines, "9D 7H KD QC", 105, BetResult::Win, 210, kNone},    // nine of diamonds
    {"standard", BetType::LuckyNines, "9S 9H KD QC", 105, BetResult::Win, 525, kNone},    // two nines
    {"standard", BetType::LuckyNines, "9S 9S KD QC", 105, BetResult::Win, 840, kNone},    // two suited
    {"standard", BetType::LuckyNines, "9S 9H 9D QC", 105, BetResult::Win, 2100, kNone},   // three nines
    {"standard", BetType::LuckyNines, "9S 9S 9S QC", 105, BetResult::Win, 26250, kNone},  // three suited
    {"standard", BetType::LuckyNines, "9S 9H 9D 9C", 105, BetResult::Win, 52500, kNone},  // four nines
    {"standard", BetType::LuckyNines, kBankerNatural8, 105, BetResult::Loss, 0, kNone},
    // no_commission (seed 004)
    {"no_commission", BetType::Banker, kBankerNatural8, 105, BetResult::Win, 105, kNone},
    {"no_commission", BetType::Banker, kBankerWinsWithSix, 105, BetResult::Win, 52, kHalf},
    {"no_commission", BetType::Banker, kBankerThreeCardSeven, 105, BetResult::Win, 105, kNone},
    {"no_commission", BetType::Banker, kTie88, 105, BetResult::Push, 0, kNone},
    {"no_commission", BetType::Player, kPlayerNatural9, 105, BetResult::Win, 105, kNone},
    {"no_commission", BetType::Tie, kTie88, 105, BetResult::Win, 840, kNone},
    {"no_commission", BetType::PlayerPair, kPlayerPair, 105, BetResult::Win, 1155, kNone},
    {"no_commission", BetType::BankerPair, kBankerPair, 105, BetResult::Win, 1155, kNone},
    {"no_commission", BetType::AnyPair, kBankerPair, 105, BetResult::Win, 525, kNone},
    {"no_commission", BetType::Big, kBankerThreeCardSeven, 105, BetResult::Win, 52, kHalf},
    {"no_commission", BetType::Small, kTie88, 105, BetResult::Win, 157, kHalf},
    // ruyi (seed 003)
    {"ruyi", BetType::Banker, kBankerNatural8, 105, BetResult::Win, 105, kNone},
    {"ruyi", BetType::Banker, kBankerWinsWithSix, 105, BetResult::Win, 105, kNone},
    {"ruyi", BetType::Banker, kBankerThreeCardSeven, 105, BetResult::Push, 0, kNone},
    {"ruyi", BetType::Player, kPlayerThreeCardEight, 105, BetResult::Win, 105, kNone},
    {"ruyi", BetType::Tie, kBothThreeCardNines, 105, BetResult::Win, 840, kNone},
    {"ruyi", BetType::PlayerPair, kPlayerPair, 105, BetResult::Win, 1155, kNone},
    {"ruyi", BetType::BankerPair, kBankerPair, 105, BetResult::Win, 1155, kNone},
    {"ruyi", BetType::AnyPair, kPlayerPair, 105, BetResult::Win, 525, kNone},
    {"ruyi", BetType::Gold7, kBankerThreeCardSeven, 105, BetResult::Win, 4200, kNone},
    {"ruyi", BetType::Gold7, kBankerNatural8, 105, BetResult::Loss, 0, kNone},
    {"ruyi", BetType::Jade8, kPlayerThreeCardEight, 105, BetResult::Win, 2625, kNone},
    {"ruyi", BetType::Jade8, kPlayerNatural9, 105, BetResult::Loss, 0, kNone},
    {"ruyi", BetType::Ruby9, kPlayerThreeCardNine, 105, BetResult::Win, 1050, kNone},
    {"ruyi", BetType::Ruby9, kBothThreeCardNines, 105, BetResult::Win, 7875, kNone},
    {"ruyi", BetType::Ruby9, kPlayerNatural9, 105, BetResult::Loss, 0, kNone},  // a 2-card 9 is no Ruby 9
};

TEST(Settlement, EveryPayoutOfEveryShippedPaytable) {
    for (const PayCase& c : kCases) {
        const Paytable table = test::shippedPaytable(c.paytable);
        const Outcome outcome = evaluate(test::coupFromDeal(c.deal));
        const BetSettlement s = settleBet(Bet{1, c.bet, c.stake}, outcome, table);
        const std::string where = std::string(c.paytable) + " " + std::string(betTypeName(c.bet)) + " on " + c.deal;
        EXPECT_EQ(s.result, c.result) << where;
        EXPECT_EQ(s.win, c.win) << where;
        EXPECT_EQ(s.breakage, c.breakage) << where << " breakage " << s.breakage.toString();
        const Money expectedReturn = c.result == BetResult::Loss ? 0 : c.stake + c.win;
        EXPECT_EQ(s.returned, expectedReturn) << where;
    }
}

// Every (bet, pay tier) a shipped paytable offers is exercised by kCases above.
TEST(Settlement, CasesCoverEveryTierOfEveryShippedPaytable) {
    for (const char* id : {"standard", "no_commission", "ruyi"}) {
        const Paytable table = test::shippedPaytable(id);
        for (const BetType type : kAllBetTypes) {
            if (!table.offers(type)) {
                continue;
            }
            const auto tiers = payTiers(type);
            for (std::size_t t = 0; t < tiers.size(); ++t) {
                bool covered = false;
                for (const PayCase& c : kCases) {
                    if (std::string(c.paytable) == id && c.bet == type && c.result != BetResult::Loss) {
                        const BetEvent e = classifyBet(type, evaluate(test::coupFromDeal(c.deal)));
                        covered = covered || (e.kind == BetEvent::Kind::Win && e.tier == t);
                    }
                }
                EXPECT_TRUE(covered) << id << " " << betTypeName(type) << " tier " << tiers[t].name;
            }
        }
    }
}

TEST(Settlement, WinIsFlooredAndBreakageIsTheDroppedFraction) {
    const Paytable table = test::shippedPaytable("standard");
    const Outcome banker = evaluate(test::coupFromDeal(kBankerNatural8));
    for (Money stake = 1; stake <= 400; ++stake) {
        const BetSettlement s = settleBet(Bet{1, BetType::Banker, stake}, banker, table);
        // stake * 19 / 20 = win + breakage exactly, with 0 <= breakage < 1
        EXPECT_EQ(s.win * 20 + s.breakage.num * (20 / s.breakage.den), stake * 19) << stake;
        EXPECT_LT(s.breakage.num, s.breakage.den);
    }
}

TEST(Settlement, NineRoadLabFixtures) {
    const auto fixture = test::loadJsonFixture("baccarat/nine-road-lab_fixtures.json");
    const Paytable table = test::shippedPaytable("standard");
    std::vector<BetSettlement> out;
    auto returned = [&](const std::vector<Bet>& bets, const Outcome& o) {
        settleRound(bets, o, table, out);
        Money sum = 0;
        for (const auto& s : out) {
            sum += s.returned;
        }
        return sum;
    };
    const auto& cases = fixture["settlement"];
    // banker 100 on "banker 8 v 6"
    EXPECT_EQ(returned({{1, BetType::Banker, 100}}, evaluate(test::coupOfHands("3S 3D", "4H 4C"))),
              cases[0]["totalReturned"].get<Money>());
    // player 100 + tie 10 on a tie
    EXPECT_EQ(returned({{1, BetType::Player, 100}, {1, BetType::Tie, 10}}, evaluate(test::coupFromDeal(kTie88))),
              cases[1]["totalReturned"].get<Money>());
    // player pair 10 + banker pair 20 with both pairs
    EXPECT_EQ(returned({{1, BetType::PlayerPair, 10}, {1, BetType::BankerPair, 20}},
                       evaluate(test::coupFromDeal("3S 4H 3D 4C"))),
              cases[2]["totalReturned"].get<Money>());
}

// ez-baccarat fixtures: settlement only (the hands are not all legal deals). EZ's Dragon 7 and
// Panda 8 are Ruyi's Gold 7 and Jade 8 with the same pays.
TEST(Settlement, EzBaccaratFixturesOnTheRuyiTable) {
    const auto fixture = test::loadJsonFixture("baccarat/ez-baccarat_fixtures.json");
    const Paytable ruyi = test::shippedPaytable("ruyi");
    const auto& cases = fixture["settlement"];
    const Outcome panda = evaluate(test::coupOfHands("AS 5H 2D", "AC 5D"));
    EXPECT_EQ(std::string(winnerName(panda.winner)), cases[0]["outcome"].get<std::string>());
    EXPECT_EQ(settleBet({1, BetType::Player, 100}, panda, ruyi).win,
              100 * cases[0]["mainPayouts"]["player"].get<Money>());
    EXPECT_EQ(panda.playerWinsWithThreeCardEight(), cases[0]["isPanda"].get<bool>());

    const Outcome dragon = evaluate(test::coupOfHands("4S 6H", "2D 2C 3S"));
    EXPECT_EQ(std::string(winnerName(dragon.winner)), cases[1]["outcome"].get<std::string>());
    const BetSettlement banker = settleBet({1, BetType::Banker, 100}, dragon, ruyi);
    EXPECT_EQ(banker.result, BetResult::Push);  // mainPayouts.banker 0 = push
    EXPECT_EQ(banker.returned, 100);
    EXPECT_EQ(settleBet({1, BetType::Gold7, 100}, dragon, ruyi).win,
              100 * cases[1]["sidePayouts"]["dragon"].get<Money>());

    const Outcome tie = evaluate(test::coupOfHands("4S 4H", "5D 3C"));
    EXPECT_EQ(std::string(winnerName(tie.winner)), cases[2]["outcome"].get<std::string>());
    EXPECT_EQ(settleBet({1, BetType::Tie, 100}, tie, ruyi).win, 100 * cases[2]["mainPayouts"]["tie"].get<Money>());
    EXPECT_EQ(settleBet({1, BetType::Player, 100}, tie, ruyi).result, BetResult::Push);
    EXPECT_EQ(settleBet({1, BetType::Banker, 100}, tie, ruyi).result, BetResult::Push);
}

TEST(Settlement, LargeStakesDoNotOverflow) {
    const Paytable table = test::shippedPaytable("standard");
    const Outcome four = evaluate(test::coupFromDeal("9S 9H 9D 9C"));
    const Money stake = 1'000'000'000'000;  // 10^12 minor units at 500:1
    EXPECT_EQ(settleBet({1, BetType::LuckyNines, stake}, four, table).win, 500 * stake);
}

TEST(Settlement, RefusesABetThePaytableDoesNotOffer) {
    const Paytable table = test::shippedPaytable("standard");
    EXPECT_THROW((void)settleBet({1, BetType::Gold7, 100}, evaluate(test::coupFromDeal(kTie88)), table),
                 std::logic_error);
}

}  // namespace
}  // namespace pitlink::game

namespace pitlink::game {
namespace {

// A round settled once: per station, what was wagered, returned and won, and the even-money
// result the anti-doubling streak takes; expected sums worked out by hand from the paytable.
TEST(RoundSettlement, SettlesEveryBetOnceAndSumsEachStation) {
    const Paytable table = test::shippedPaytable("standard");
    // P 5 (3 cards) v B 6: Banker wins, paid 19/20 on the standard table.
    const std::vector<Bet> bets{{3, BetType::Player, 100}, {3, BetType::Banker, 200}, {5, BetType::Tie, 50},
                                {5, BetType::Banker, 105}, {7, BetType::Tie, 40},     {9, BetType::Player, 100}};
    const RoundSettlement round = settleCoup(test::coupFromDeal("KH 3S QD 3C 5H"), bets, table, SettleRule::PerBet);
    EXPECT_EQ(round.outcome.winner, Winner::Banker);
    ASSERT_EQ(round.bets.size(), bets.size());
    EXPECT_EQ(round.bets[1].bet, bets[1]);
    EXPECT_EQ(round.bets[1].win, 190);
    EXPECT_EQ(round.bets[3].win, 99);  // floor(105 x 19/20 = 99.75)
    EXPECT_EQ(round.bets[3].breakage, (Fraction{3, 4}));
    ASSERT_EQ(round.stations.size(), 4U);
    const StationSettlement& s3 = round.stations.at(3);
    EXPECT_EQ(s3.wagered, 300);
    EXPECT_EQ(s3.returned, 390);
    EXPECT_EQ(s3.win, 190);
    EXPECT_EQ(s3.evenMoneyStake, 300);
    EXPECT_EQ(s3.evenMoney, BetResult::Win);  // one even-money bet won
    const StationSettlement& s5 = round.stations.at(5);
    EXPECT_EQ(s5.wagered, 155);
    EXPECT_EQ(s5.returned, 204);
    EXPECT_EQ(s5.win, 99);
    EXPECT_EQ(s5.evenMoneyStake, 105);
    const StationSettlement& s7 = round.stations.at(7);
    EXPECT_EQ(s7.returned, 0);
    EXPECT_EQ(s7.evenMoneyStake, 0);
    EXPECT_EQ(s7.evenMoney, BetResult::Push);  // no even-money bet
    const StationSettlement& s9 = round.stations.at(9);
    EXPECT_EQ(s9.returned, 0);
    EXPECT_EQ(s9.evenMoney, BetResult::Loss);
}

TEST(RoundSettlement, ATieReturnsEvenMoneyStakesAsAPush) {
    const Paytable table = test::shippedPaytable("standard");
    const std::vector<Bet> bets{{1, BetType::Player, 100}, {1, BetType::Banker, 100}, {2, BetType::Tie, 10}};
    const RoundSettlement round = settleCoup(test::coupFromDeal("4H 5D 4S 3C"), bets, table, SettleRule::PerSpot);
    EXPECT_EQ(round.outcome.winner, Winner::Tie);
    EXPECT_EQ(round.stations.at(1).returned, 200);
    EXPECT_EQ(round.stations.at(1).evenMoney, BetResult::Push);
    EXPECT_EQ(round.stations.at(2).returned, 90);  // 10 + 8 x 10
    EXPECT_EQ(round.stations.at(2).win, 80);
}

}  // namespace
}  // namespace pitlink::game
