#include "daemon/game/bet_type.h"

namespace pitlink::game {

namespace {
constexpr std::array<std::string_view, kBetTypes> kNames{
    "player", "banker", "tie",    "player_pair", "banker_pair", "any_pair",
    "big",    "small",  "gold_7", "jade_8",      "ruby_9",      "lucky_nines",
};

constexpr std::array<PayTier, 1> kWinOnly{{{"win", false}}};
constexpr std::array<PayTier, 3> kBankerTiers{{
    {"win", false},
    {"win_with_six", true},               // no-commission tables (seed 004): Banker winning with 6
    {"win_with_three_card_seven", true},  // Ruyi (seed 003): Banker winning with a 3-card 7
}};
constexpr std::array<PayTier, 2> kRuby9Tiers{{{"one_hand", false}, {"both_hands", false}}};
// Index = NinesPattern - 1; only the highest pattern pays (seed 001).
constexpr std::array<PayTier, 7> kLuckyNinesTiers{{
    {"one_nine", false},
    {"one_nine_of_diamonds", false},
    {"two_nines", false},
    {"two_nines_suited", false},
    {"three_nines", false},
    {"three_nines_suited", false},
    {"four_nines", false},
}};
static_assert(kLuckyNinesTiers.size() <= kMaxPayTiers);

BetEvent mainBet(Winner bet, const Outcome& o) {
    if (o.winner == Winner::Tie) {
        return BetEvent::push();  // Player and Banker bets are returned on a tie
    }
    return o.winner == bet ? BetEvent::win() : BetEvent::loss();
}

BetEvent winIf(bool won) {
    return won ? BetEvent::win() : BetEvent::loss();
}
}  // namespace

std::string_view betTypeName(BetType type) {
    return kNames[static_cast<std::size_t>(type)];
}

std::optional<BetType> parseBetType(std::string_view name) {
    for (const BetType t : kAllBetTypes) {
        if (betTypeName(t) == name) {
            return t;
        }
    }
    return std::nullopt;
}

std::span<const PayTier> payTiers(BetType type) {
    switch (type) {
        case BetType::Banker:
            return kBankerTiers;
        case BetType::Ruby9:
            return kRuby9Tiers;
        case BetType::LuckyNines:
            return kLuckyNinesTiers;
        default:
            return kWinOnly;
    }
}

BetEvent classifyBet(BetType type, const Outcome& o) {
    switch (type) {
        case BetType::Player:
            return mainBet(Winner::Player, o);
        case BetType::Banker: {
            const BetEvent e = mainBet(Winner::Banker, o);
            if (e.kind != BetEvent::Kind::Win) {
                return e;
            }
            if (o.bankerWinsWithThreeCardSeven()) {
                return BetEvent::win(2);
            }
            return o.bankerTotal == 6 ? BetEvent::win(1) : BetEvent::win(0);
        }
        case BetType::Tie:
            return winIf(o.winner == Winner::Tie);
        case BetType::PlayerPair:
            return winIf(o.playerPair);
        case BetType::BankerPair:
            return winIf(o.bankerPair);
        case BetType::AnyPair:
            return winIf(o.playerPair || o.bankerPair);
        case BetType::Big:
            return winIf(!o.small());
        case BetType::Small:
            return winIf(o.small());
        case BetType::Gold7:
            return winIf(o.bankerWinsWithThreeCardSeven());
        case BetType::Jade8:
            return winIf(o.playerWinsWithThreeCardEight());
        case BetType::Ruby9: {
            const int hands = (o.playerThreeCardNine() ? 1 : 0) + (o.bankerThreeCardNine() ? 1 : 0);
            return hands == 0 ? BetEvent::loss() : BetEvent::win(hands - 1);
        }
        case BetType::LuckyNines:
            return o.nines == NinesPattern::None ? BetEvent::loss() : BetEvent::win(static_cast<int>(o.nines) - 1);
    }
    return BetEvent::loss();
}

}  // namespace pitlink::game
