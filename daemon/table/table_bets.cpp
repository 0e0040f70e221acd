// A station's bets in the open round: place, clear, undo, repeat, double. Every change is
// checked as the whole slip would stand after it (game::checkSlip), and journaled with its
// credit movement; a refusal is journaled too, with the rule that refused.
#include "daemon/game/bet_raise.h"
#include "daemon/journal/ledger/ledger.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/table/table.h"

namespace pitlink::table {

namespace reason = journal::reason;

void Table::placeBet(std::int64_t station, game::BetType spot, game::Money stake, Respond respond) {
    game::BetSlip add;
    add[spot] = stake;
    placeSlip(station, add, "bet", std::move(respond));
}

void Table::repeatBets(std::int64_t station, Respond respond) {
    if (auto problem = seatProblem(station)) {
        refuse("repeat", station, respond, *problem);
        return;
    }
    const game::BetSlip last = stationAt(station).lastSlip;
    if (last.total() == 0) {
        refuse("repeat", station, respond,
               Reply::refused("nothing_to_repeat", "the station had no bets in its last round"));
        return;
    }
    placeSlip(station, last, "repeat", std::move(respond));
}

void Table::doubleBets(std::int64_t station, Respond respond) {
    if (auto problem = seatProblem(station)) {
        refuse("double", station, respond, *problem);
        return;
    }
    const game::BetSlip current = stationAt(station).slip();
    if (current.total() == 0) {
        refuse("double", station, respond,
               Reply::refused("nothing_to_double", "the station has no bets in this round"));
        return;
    }
    placeSlip(station, current, "double", std::move(respond));
}

game::StationBetContext Table::betContext(const Station& s) const {
    game::StationBetContext context;
    context.bettingOpen = bettingOpen(phase_);
    context.roundInShoe = roundInShoe_;
    // The bets already placed this round were taken from the credits: a slip is checked against
    // the credits as they stood before it.
    context.credits = journal_.projected().credits(s.number) + s.slip().total();
    context.denomination = denominationOf(s.number);
    context.streak = s.streak;
    context.level = s.limitLevel;
    context.personal = wallet(s.number).personal;
    return context;
}

void Table::refuseBet(std::int64_t number, const std::string& action, const game::BetSlip& add,
                      const game::BetRefusal& refusal, Respond respond) {
    // Journaled with its rule, and answered once that has committed.
    const std::string rule(game::betRuleName(refusal.rule));
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::BetRefusedRecord{action, add, rule, refusal.message},
           phase_ != RoundPhase::Idle ? std::optional<std::int64_t>(roundId_) : std::nullopt, number);
    commit(std::move(tx), std::move(respond), Reply::refused(rule, refusal.message));
}

void Table::raiseBets(std::int64_t number, game::Money chip, Respond respond) {
    if (auto problem = seatProblem(number)) {
        refuse("raise", number, respond, *problem, journal::RefusedRequest{.chip = chip});
        return;
    }
    const Station& s = stationAt(number);
    const game::BetSlip current = s.slip();
    if (current.total() == 0 || chip <= 0) {
        refuse("raise", number, respond,
               chip <= 0 ? Reply::refused("not_positive", "a raise needs a chip of at least one credit")
                         : Reply::refused("nothing_to_raise", "the station has no bets in this round"),
               journal::RefusedRequest{.chip = chip});
        return;
    }
    // The spots in the order they were first bet this round.
    std::vector<game::BetType> order;
    for (const journal::RoundBet& bet : s.bets) {
        if (std::find(order.begin(), order.end(), bet.spot) == order.end()) {
            order.push_back(bet.spot);
        }
    }
    const game::RaisePlan plan = game::planRaise(order, current, chip, betContext(s), paytable_, settings_.bets);
    if (plan.add.total() == 0) {
        game::BetSlip asked;
        for (const game::BetType spot : order) {
            asked[spot] = chip;
        }
        refuseBet(number, "raise", asked, plan.skipped.front(), std::move(respond));
        return;
    }
    placeSlip(number, plan.add, "raise", std::move(respond));
}

void Table::placeSlip(std::int64_t number, const game::BetSlip& add, const std::string& action, Respond respond) {
    if (auto problem = seatProblem(number)) {
        refuse(action, number, respond, *problem, journal::RefusedRequest{.slip = add});
        return;
    }
    if (tilted()) {
        refuse(action, number, respond, Reply::refused("tilted", "the table is in tilt: " + tilts_.begin()->second),
               journal::RefusedRequest{.slip = add});
        return;
    }
    if (const std::int64_t until = wallet(number).hostDelayUntilMs; until > timers_.nowMs()) {
        refuse(action, number, respond,
               Reply::refused("host_delay", "the accounting host delays this station's next game for another " +
                                                std::to_string(until - timers_.nowMs()) + " ms (SAS LP 2E)"),
               journal::RefusedRequest{.slip = add});
        return;
    }
    if (const auto refusal = protectionRefusal(add)) {
        refuseBet(number, action, add, *refusal, std::move(respond));
        return;
    }
    Station& s = stationAt(number);
    game::BetSlip after = s.slip();
    for (std::size_t i = 0; i < game::kBetTypes; ++i) {
        after.stakes[i] += add.stakes[i];
    }
    if (const auto refusal = game::checkSlip(after, betContext(s), paytable_, settings_.bets)) {
        refuseBet(number, action, add, *refusal, std::move(respond));
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    std::vector<journal::RoundBet> placed;
    for (std::size_t i = 0; i < game::kBetTypes; ++i) {
        if (add.stakes[i] <= 0) {
            continue;
        }
        const journal::RoundBet bet{nextBetIndex_++, number, static_cast<game::BetType>(i), add.stakes[i], action};
        tx.add(journal::BetAcceptedRecord{bet.index, std::string(game::betTypeName(bet.spot)), bet.stake, action},
               roundId_, number);
        tx.credit(number, -bet.stake, reason::kBet, roundId_, {.ref = "bet " + std::to_string(bet.index)});
        placed.push_back(bet);
    }
    const game::Money credits = tx.balance(number);
    s.bets.insert(s.bets.end(), placed.begin(), placed.end());
    s.placements.push_back(placed.size());
    s.confirmed = false;  // a confirmation covers the bets as they stood
    commit(std::move(tx), std::move(respond), Reply::accepted(BetsAnswer{roundId_, credits, s.slip()}),
           [this, number, credits] {
               publish(CreditsChanged{number, credits, std::nullopt, std::nullopt, {}});
           });
}

void Table::clearBets(std::int64_t station, Respond respond) {
    if (auto problem = seatProblem(station)) {
        refuse("clear", station, respond, *problem);
        return;
    }
    withdraw(station, stationAt(station).bets, "clear", std::move(respond));
}

void Table::undoBet(std::int64_t station, Respond respond) {
    if (auto problem = seatProblem(station)) {
        refuse("undo", station, respond, *problem);
        return;
    }
    const auto& bets = stationAt(station).bets;
    if (!bettingOpen(phase_)) {
        refuse("undo", station, respond,
               Reply::refused("betting_closed", "bets can be changed only while betting is open"));
        return;
    }
    if (bets.empty()) {
        refuse("undo", station, respond, Reply::refused("no_bets", "the station has no bets in this round"));
        return;
    }
    // The last request's bets together: a double or a raise undone as a whole.
    const Station& s = stationAt(station);
    const std::size_t last = s.placements.empty() ? 1 : std::min(s.placements.back(), bets.size());
    withdraw(station, std::vector<journal::RoundBet>(bets.end() - static_cast<std::ptrdiff_t>(last), bets.end()),
             "undo", std::move(respond));
}

// NOLINTNEXTLINE(performance-unnecessary-value-param): a copy, since `bets` may be the station's own list
void Table::withdraw(std::int64_t number, std::vector<journal::RoundBet> bets, const std::string& action,
                     Respond respond) {
    if (!bettingOpen(phase_)) {
        refuse(action, number, respond,
               Reply::refused("betting_closed", "bets can be changed only while betting is open"));
        return;
    }
    if (bets.empty()) {
        refuse(action, number, respond, Reply::refused("no_bets", "the station has no bets in this round"));
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    Station& s = stationAt(number);
    for (const auto& bet : bets) {
        tx.add(journal::BetWithdrawnRecord{bet.index, action}, roundId_, number);
        tx.credit(number, bet.stake, reason::kBetReturn, roundId_, {.ref = "bet " + std::to_string(bet.index)});
        std::erase_if(s.bets, [&](const journal::RoundBet& b) { return b.index == bet.index; });
    }
    // Undo takes the last placement, clear takes them all: the placements that no longer have
    // their bets go, from the last.
    std::size_t counted = 0;
    for (const std::size_t n : s.placements) {
        counted += n;
    }
    while (!s.placements.empty() && counted > s.bets.size()) {
        counted -= s.placements.back();
        s.placements.pop_back();
    }
    const game::Money credits = tx.balance(number);
    s.confirmed = false;
    commit(std::move(tx), std::move(respond), Reply::accepted(BetsAnswer{roundId_, credits, s.slip()}),
           [this, number, credits] {
               publish(CreditsChanged{number, credits, std::nullopt, std::nullopt, {}});
           });
}

}  // namespace pitlink::table
