#include "daemon/game/bet_rules.h"

#include <limits>

namespace pitlink::game {

namespace {
constexpr std::array<std::string_view, 15> kRuleNames{
    "betting_closed",       "not_offered",       "not_positive",          "not_whole_credits",
    "below_minimum",        "above_maximum",     "above_payout_limit",    "insufficient_credits",
    "tie_without_main_bet", "player_and_banker", "big_small_too_late",    "lucky_nines_without_main_bet",
    "anti_doubling",        "side_bet_closed",   "side_bet_edge_pending",
};

std::string money(Money m) {
    return std::to_string(m);
}

BetRefusal refuse(BetRule rule, BetType spot, std::string message) {
    return BetRefusal{rule, spot, std::string(betTypeName(spot)) + ": " + std::move(message)};
}

std::optional<BetRefusal> checkSpot(BetType spot, Money stake, const StationBetContext& ctx, const Paytable& table,
                                    const BetRulesConfig& rules) {
    if (!table.offers(spot)) {
        return refuse(BetRule::NotOffered, spot, "not offered by paytable '" + table.id + "'");
    }
    if (stake < 0) {
        return refuse(BetRule::NotPositive, spot, "stake must be positive");
    }
    if (ctx.denomination <= 0 || stake % ctx.denomination != 0) {
        return refuse(BetRule::NotWholeCredits, spot,
                      "stake " + money(stake) + " is not a whole number of credits of " + money(ctx.denomination));
    }
    const StakeRange range = spotRange(rules.limits, ctx.level, spot, ctx.personal);
    const std::string whose = ctx.personal.empty() ? "" : " (with the player's own limits)";
    if (stake < range.min) {
        return refuse(BetRule::BelowMinimum, spot,
                      "stake " + money(stake) + " below the minimum " + money(range.min) + " at limit level " +
                          std::to_string(ctx.level) + whose);
    }
    if (stake > range.max) {
        return refuse(BetRule::AboveMaximum, spot,
                      "stake " + money(stake) + " above the maximum " + money(range.max) + " at limit level " +
                          std::to_string(ctx.level) + whose);
    }
    if (mostWon(table, spot, stake) > rules.maxPayout) {
        return refuse(BetRule::AbovePayoutLimit, spot,
                      "stake " + money(stake) + " could win more than the payout limit " + money(rules.maxPayout));
    }
    if (spot == BetType::Big || spot == BetType::Small) {
        if (ctx.roundInShoe > rules.bigSmallLastRound) {
            return refuse(BetRule::BigSmallTooLate, spot,
                          "not taken after round " + std::to_string(rules.bigSmallLastRound) + " of a shoe");
        }
    }
    return std::nullopt;
}
}  // namespace

Money mostWon(const Paytable& table, BetType spot, Money stake) {
    const Fraction top = table.highestRatio(spot);
    const Int128 won = static_cast<Int128>(stake) * top.num / top.den;
    // Saturated: a stake no table takes must still compare above every payout limit.
    return won > std::numeric_limits<Money>::max() ? std::numeric_limits<Money>::max() : static_cast<Money>(won);
}

std::string_view betRuleName(BetRule rule) {
    return kRuleNames[static_cast<std::size_t>(rule)];
}

void LosingStreak::record(Money evenMoneyStake, BetResult result) {
    if (evenMoneyStake == 0 || result == BetResult::Push) {
        return;  // no even-money bet, or a tie: the streak neither grows nor breaks
    }
    if (result == BetResult::Loss) {
        ++losses;
        lastStake = evenMoneyStake;
    } else {
        losses = 0;
        lastStake = 0;
    }
}

Money BetSlip::total() const {
    Money sum = 0;
    for (const Money s : stakes) {
        sum += s;
    }
    return sum;
}

std::optional<BetRefusal> checkSlip(const BetSlip& slip, const StationBetContext& ctx, const Paytable& table,
                                    const BetRulesConfig& rules) {
    for (const BetType spot : kAllBetTypes) {
        if (slip[spot] == 0) {
            continue;
        }
        if (!ctx.bettingOpen) {
            return refuse(BetRule::BettingClosed, spot, "betting is closed for this round");
        }
        if (auto refusal = checkSpot(spot, slip[spot], ctx, table, rules)) {
            return refusal;
        }
    }
    const bool mainBet = slip.has(BetType::Player) || slip.has(BetType::Banker);
    if (rules.forbidPlayerAndBanker && slip.has(BetType::Player) && slip.has(BetType::Banker)) {
        return refuse(BetRule::PlayerAndBanker, BetType::Banker, "Player and Banker may not both be bet in one round");
    }
    if (rules.tieNeedsMainBet && slip.has(BetType::Tie) && !mainBet) {
        return refuse(BetRule::TieWithoutMainBet, BetType::Tie, "a Tie bet needs a Player or Banker bet");
    }
    if (rules.luckyNinesNeedsMainBet && slip.has(BetType::LuckyNines) && !mainBet) {
        return refuse(BetRule::LuckyNinesWithoutMainBet, BetType::LuckyNines,
                      "Lucky Nines needs a Player or Banker bet");
    }
    if (rules.antiDoubling && ctx.streak.losses >= 3 && mainBet) {
        const Money evenMoney = slip[BetType::Player] + slip[BetType::Banker];
        const Money limit = ctx.streak.lastStake + ctx.streak.lastStake / 2;
        if (evenMoney > limit) {
            const BetType spot = slip.has(BetType::Player) ? BetType::Player : BetType::Banker;
            return refuse(BetRule::AntiDoubling, spot,
                          "after " + std::to_string(ctx.streak.losses) +
                              " lost even-money bets the stake may be at most " + money(limit) +
                              " (last stake plus 50 %)");
        }
    }
    if (slip.total() > ctx.credits) {
        BetType spot = BetType::Player;
        for (const BetType t : kAllBetTypes) {
            if (slip.has(t)) {
                spot = t;
                break;
            }
        }
        return refuse(BetRule::InsufficientCredits, spot,
                      "bets total " + money(slip.total()) + " but the station holds " + money(ctx.credits));
    }
    return std::nullopt;
}

}  // namespace pitlink::game
