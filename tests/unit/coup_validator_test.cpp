#include "daemon/game/coup_validator.h"

#include <gtest/gtest.h>

#include "daemon/game/outcome.h"
#include "tests/unit/fixtures.h"

namespace pitlink::game {
namespace {

// Offers the cards in order; returns the first refusal, if any.
std::optional<CardRefusal> offerAll(CoupValidator& v, const std::string& text) {
    for (const Card c : test::cards(text)) {
        if (auto refusal = v.offer(c)) {
            return refusal;
        }
    }
    return std::nullopt;
}

TEST(CoupValidator, AcceptsALegalCoupAndTracksTheShoe) {
    CoupValidator v(ShoeComposition::fullDecks(8));
    EXPECT_EQ(v.due(), Side::Player);
    EXPECT_FALSE(offerAll(v, "2S 3H 3D 2C 4S 3C"));
    EXPECT_TRUE(v.complete());
    EXPECT_EQ(evaluate(v.coup()).playerTotal, 9);
    EXPECT_EQ(v.remaining().total(), 416 - 6);
    EXPECT_EQ(v.remaining().count(Card(Rank::Three, Suit::Clubs)), 7);
}

TEST(CoupValidator, DueSideFollowsTheDealOrderAndTheRules) {
    CoupValidator v(ShoeComposition::fullDecks(8));
    const std::array<Side, 4> order{Side::Player, Side::Banker, Side::Player, Side::Banker};
    const auto cs = test::cards("KH 3S QD 3C");
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(v.due(), order[i]) << i;
        EXPECT_FALSE(v.offer(cs[i]));
    }
    EXPECT_EQ(v.due(), Side::Player);  // Player 0 draws
    EXPECT_FALSE(v.offer(*parseCard("5H")));
    EXPECT_TRUE(v.complete());  // Banker 6 stands on a Player third card of 5
}

TEST(CoupValidator, MisdealACardAfterANatural) {
    CoupValidator v(ShoeComposition::fullDecks(8));
    const auto refusal = offerAll(v, "9S 7H KD QC 5D");
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->position, 5);
    EXPECT_EQ(refusal->reason, "card 5 (5D): no card is due, the coup is complete: Player has a natural 9");
    EXPECT_EQ(v.coup().cardCount(), 4);  // the refused card was not added
}

TEST(CoupValidator, MisdealABankerCardWhenBankerStands) {
    CoupValidator v(ShoeComposition::fullDecks(8));
    const auto refusal = offerAll(v, "KH 3S QD 3C 5H 2D");
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->position, 6);
    EXPECT_NE(refusal->reason.find("Banker stands on 6 against Player's third card 5"), std::string::npos)
        << refusal->reason;
}

TEST(CoupValidator, MisdealWhenBothStand) {
    CoupValidator v(ShoeComposition::fullDecks(8));
    const auto refusal = offerAll(v, "6S 7H KD QC 2C");  // Player 6, Banker 7: both stand
    ASSERT_TRUE(refusal);
    EXPECT_NE(refusal->reason.find("Banker stands on 7 (Player stood on 6)"), std::string::npos) << refusal->reason;
}

TEST(CoupValidator, ImpossibleCardForTheShoeComposition) {
    // No ninth ace of spades in an 8-deck shoe.
    ShoeComposition shoe = ShoeComposition::fullDecks(8);
    for (int i = 0; i < 8; ++i) {
        ASSERT_TRUE(shoe.remove(Card(Rank::Ace, Suit::Spades)));
    }
    CoupValidator v(shoe);
    const auto refusal = offerAll(v, "2H AS");
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->position, 2);
    EXPECT_EQ(refusal->reason, "card 2 (AS, Banker's 1st card): no AS is left in the shoe");
    // within one coup too: a 1-deck shoe has one 5 of hearts
    CoupValidator single(ShoeComposition::fullDecks(1));
    const auto twice = offerAll(single, "5H KD 5H");
    ASSERT_TRUE(twice);
    EXPECT_EQ(twice->position, 3);
}

TEST(CoupValidator, RescansThenVoids) {
    CoupValidator v(ShoeComposition::fullDecks(8), 3);
    EXPECT_FALSE(v.offer(*parseCard("2H")));
    EXPECT_EQ(v.unreadable(), RescanVerdict::Rescan);
    EXPECT_EQ(v.unreadable(), RescanVerdict::Rescan);
    EXPECT_EQ(v.rescansUsed(), 2);
    EXPECT_FALSE(v.offer(*parseCard("3H")));  // read on the third try: attempts start again for the next card
    EXPECT_EQ(v.rescansUsed(), 0);
    EXPECT_EQ(v.unreadable(), RescanVerdict::Rescan);
    EXPECT_EQ(v.unreadable(), RescanVerdict::Rescan);
    EXPECT_EQ(v.unreadable(), RescanVerdict::Rescan);
    EXPECT_EQ(v.unreadable(), RescanVerdict::VoidRound);
}

}  // namespace
}  // namespace pitlink::game
