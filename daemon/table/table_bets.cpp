// A station's bets in the open round: place, clear, undo, repeat, double. Every change is
// checked as the whole slip would stand after it (game::checkSlip), and journaled with its
// credit movement; a refusal is journaled too, with the rule that refused.
#include "daemon/journal/ledger.h"
#include "daemon/journal/record_kinds.h"
#include "daemon/journal/slip_json.h"
#include "daemon/table/table.h"

namespace pitlink::table {

using nlohmann::json;
namespace kind = journal::kind;
namespace reason = journal::reason;

void Table::placeBet(std::int64_t station, game::BetType spot, game::Money stake, Respond respond) {
    game::BetSlip add;
    add[spot] = stake;
    placeSlip(station, add, "bet", std::move(respond));
}

void Table::repeatBets(std::int64_t station, Respond respond) {
    if (auto problem = stationProblem(station)) {
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
    if (auto problem = stationProblem(station)) {
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

void Table::placeSlip(std::int64_t number, const game::BetSlip& add, const std::string& action, Respond respond) {
    if (auto problem = stationProblem(number)) {
        refuse(action, number, respond, *problem, json{{"slip", journal::slipJson(add)}});
        return;
    }
    if (tilted()) {
        refuse(action, number, respond, Reply::refused("tilted", "the table is in tilt: " + tilts_.begin()->second),
               json{{"slip", journal::slipJson(add)}});
        return;
    }
    if (const std::int64_t until = station(number).hostDelayUntilMs; until > timers_.nowMs()) {
        refuse(action, number, respond,
               Reply::refused("host_delay", "the accounting host delays this station's next game for another " +
                                                std::to_string(until - timers_.nowMs()) + " ms (SAS LP 2E)"),
               json{{"slip", journal::slipJson(add)}});
        return;
    }
    Station& s = stationAt(number);
    game::BetSlip after = s.slip();
    for (std::size_t i = 0; i < game::kBetTypes; ++i) {
        after.stakes[i] += add.stakes[i];
    }
    game::StationBetContext context;
    context.bettingOpen = bettingOpen(phase_);
    context.roundInShoe = roundInShoe_;
    // The bets already placed this round were taken from the credits: the slip is checked
    // against the credits as they stood before it.
    context.credits = journal_.projected().credits(number) + s.slip().total();
    context.denomination = settings_.denomination;
    context.streak = s.streak;
    if (const auto refusal = game::checkSlip(after, context, paytable_, settings_.bets)) {
        // Journaled with its rule, and answered once that has committed.
        const std::string rule(game::betRuleName(refusal->rule));
        journal::JournalTransaction tx = journal_.begin();
        tx.add(
            kind::kBetRefused, phase_ != RoundPhase::Idle ? std::optional<std::int64_t>(roundId_) : std::nullopt,
            number,
            json{{"action", action}, {"slip", journal::slipJson(add)}, {"rule", rule}, {"message", refusal->message}});
        commit(std::move(tx), std::move(respond), Reply::refused(rule, refusal->message));
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    std::vector<journal::RoundBet> placed;
    for (std::size_t i = 0; i < game::kBetTypes; ++i) {
        if (add.stakes[i] <= 0) {
            continue;
        }
        const journal::RoundBet bet{nextBetIndex_++, number, static_cast<game::BetType>(i), add.stakes[i]};
        tx.add(
            kind::kBetAccepted, roundId_, number,
            json{{"bet", bet.index}, {"spot", game::betTypeName(bet.spot)}, {"stake", bet.stake}, {"action", action}});
        tx.credit(number, -bet.stake, reason::kBet, roundId_, json{{"ref", "bet " + std::to_string(bet.index)}});
        placed.push_back(bet);
    }
    const game::Money credits = tx.balance(number);
    s.bets.insert(s.bets.end(), placed.begin(), placed.end());
    commit(std::move(tx), std::move(respond), Reply::accepted(BetsAnswer{roundId_, credits, s.slip()}),
           [this, number, credits] {
               publish(CreditsChanged{number, credits, std::nullopt});
           });
}

void Table::clearBets(std::int64_t station, Respond respond) {
    if (auto problem = stationProblem(station)) {
        refuse("clear", station, respond, *problem);
        return;
    }
    withdraw(station, stationAt(station).bets, "clear", std::move(respond));
}

void Table::undoBet(std::int64_t station, Respond respond) {
    if (auto problem = stationProblem(station)) {
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
    withdraw(station, {bets.back()}, "undo", std::move(respond));
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
        tx.add(kind::kBetWithdrawn, roundId_, number, json{{"bet", bet.index}, {"action", action}});
        tx.credit(number, bet.stake, reason::kBetReturn, roundId_, json{{"ref", "bet " + std::to_string(bet.index)}});
        std::erase_if(s.bets, [&](const journal::RoundBet& b) { return b.index == bet.index; });
    }
    const game::Money credits = tx.balance(number);
    commit(std::move(tx), std::move(respond), Reply::accepted(BetsAnswer{roundId_, credits, s.slip()}),
           [this, number, credits] {
               publish(CreditsChanged{number, credits, std::nullopt});
           });
}

}  // namespace pitlink::table
