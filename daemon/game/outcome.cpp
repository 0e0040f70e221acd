#include "daemon/game/outcome.h"

#include <array>

namespace pitlink::game {

Winner winnerOf(int playerTotal, int bankerTotal) {
    if (playerTotal > bankerTotal) {
        return Winner::Player;
    }
    return bankerTotal > playerTotal ? Winner::Banker : Winner::Tie;
}

NinesPattern ninesPattern(Card p1, Card b1, Card p2, Card b2) {
    if (p1.rank() != Rank::Nine && b1.rank() != Rank::Nine && p2.rank() != Rank::Nine && b2.rank() != Rank::Nine) {
        return NinesPattern::None;  // the common case, decided without counting
    }
    const std::array<Card, 4> cards{p1, b1, p2, b2};
    int count = 0;
    std::array<int, kSuits> perSuit{};
    for (const Card c : cards) {
        if (c.rank() == Rank::Nine) {
            ++count;
            ++perSuit[static_cast<std::size_t>(c.suit())];
        }
    }
    int mostOfOneSuit = 0;
    for (const int n : perSuit) {
        mostOfOneSuit = n > mostOfOneSuit ? n : mostOfOneSuit;
    }
    const bool suited = count >= 2 && mostOfOneSuit == count;
    switch (count) {
        case 0:
            return NinesPattern::None;
        case 1:
            return perSuit[static_cast<std::size_t>(Suit::Diamonds)] == 1 ? NinesPattern::OneNineOfDiamonds
                                                                          : NinesPattern::OneNine;
        case 2:
            return suited ? NinesPattern::TwoNinesSuited : NinesPattern::TwoNines;
        case 3:
            return suited ? NinesPattern::ThreeNinesSuited : NinesPattern::ThreeNines;
        default:
            return NinesPattern::FourNines;
    }
}

Outcome evaluate(const Coup& coup) {
    const Hand& p = coup.player;
    const Hand& b = coup.banker;
    Outcome o;
    o.playerTotal = static_cast<std::uint8_t>(p.total());
    o.bankerTotal = static_cast<std::uint8_t>(b.total());
    o.playerCards = static_cast<std::uint8_t>(p.size());
    o.bankerCards = static_cast<std::uint8_t>(b.size());
    o.winner = winnerOf(o.playerTotal, o.bankerTotal);
    o.playerPair = p[0].rank() == p[1].rank();
    o.bankerPair = b[0].rank() == b[1].rank();
    o.playerPerfectPair = p[0] == p[1];
    o.bankerPerfectPair = b[0] == b[1];
    o.nines = ninesPattern(p[0], b[0], p[1], b[1]);
    return o;
}

std::string_view winnerName(Winner winner) {
    switch (winner) {
        case Winner::Player:
            return "player";
        case Winner::Banker:
            return "banker";
        case Winner::Tie:
            return "tie";
    }
    return "?";
}

char winnerLetter(Winner winner) {
    switch (winner) {
        case Winner::Player:
            return 'P';
        case Winner::Banker:
            return 'B';
        case Winner::Tie:
            return 'T';
    }
    return '?';
}

}  // namespace pitlink::game
