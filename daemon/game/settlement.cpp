#include "daemon/game/settlement.h"

#include <stdexcept>

namespace pitlink::game {

BetSettlement settleBet(const Bet& bet, const Outcome& outcome, const Paytable& table) {
    if (bet.stake < 0 || !table.offers(bet.type)) {
        // Bet rules refuse both before a bet is accepted; reaching here is a programming error.
        throw std::logic_error("settleBet: bet not accepted by the paytable");
    }
    BetSettlement s;
    s.bet = bet;
    const BetEvent event = classifyBet(bet.type, outcome);
    s.tier = event.tier;
    switch (event.kind) {
        case BetEvent::Kind::Loss:
            s.result = BetResult::Loss;
            return s;
        case BetEvent::Kind::Push:
            s.result = BetResult::Push;
            s.returned = bet.stake;
            return s;
        case BetEvent::Kind::Win:
            break;
    }
    const Payout payout = table.payout(bet.type, event.tier);
    if (payout.push) {
        s.result = BetResult::Push;
        s.returned = bet.stake;
        return s;
    }
    const Int128 gross = static_cast<Int128>(bet.stake) * payout.ratio.num;
    s.result = BetResult::Win;
    s.win = static_cast<Money>(gross / payout.ratio.den);
    s.breakage = Fraction{static_cast<std::int64_t>(gross % payout.ratio.den), payout.ratio.den};
    s.returned = bet.stake + s.win;
    return s;
}

void settleRound(std::span<const Bet> bets, const Outcome& outcome, const Paytable& table,
                 std::vector<BetSettlement>& out) {
    out.clear();
    for (const Bet& bet : bets) {
        out.push_back(settleBet(bet, outcome, table));
    }
}

std::string_view betResultName(BetResult result) {
    switch (result) {
        case BetResult::Win:
            return "win";
        case BetResult::Push:
            return "push";
        case BetResult::Loss:
            return "loss";
    }
    return "?";
}

}  // namespace pitlink::game
