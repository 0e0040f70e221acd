// Who starts the deal: seed 003's single-player DEAL (rounds.start: deal, RNG tables: a round
// takes bets until a station with bets presses DEAL) and seed 002's multiplayer confirmation
// (rounds.confirm_bets: a station's bets play only if confirmed after its last change; the rest
// are returned when bets close, in the close's own transaction, and the station is told).
#include <algorithm>

#include "daemon/journal/records/record_kinds.h"
#include "daemon/table/table.h"

namespace pitlink::table {

namespace reason = journal::reason;

void Table::deal(std::int64_t number, Respond respond) {
    if (!settings_.startOnDeal) {
        refuse("deal", number, respond,
               Reply::refused("not_deal_mode", "this table's rounds start by themselves (rounds.start: timer)"));
        return;
    }
    if (auto problem = seatProblem(number)) {
        refuse("deal", number, respond, *problem);
        return;
    }
    if (!bettingOpen(phase_)) {
        refuse("deal", number, respond, Reply::refused("betting_closed", "no round is open for bets"));
        return;
    }
    if (station(number).bets.empty()) {
        refuse("deal", number, respond, Reply::refused("no_bets", "DEAL needs a bet on the layout"));
        return;
    }
    closeNow(std::move(respond), number);
}

void Table::armAutoDeal() {
    if (!settings_.startOnDeal || !bettingOpen(phase_) || timer_) {
        return;
    }
    for (const Station& s : stations_) {
        if (s.autoRepeat && !s.bets.empty()) {
            // The player sees the repeated bets for a betting window, and can stop them.
            timer_ = timers_.after(settings_.betsOpen, [this, round = roundId_] {
                // A timer cancelled while already due may still run: only this round's counts.
                if (roundId_ != round || !bettingOpen(phase_)) {
                    return;
                }
                timer_.reset();
                // Still wanted: an auto-repeating station still has bets on the layout.
                if (std::any_of(stations_.begin(), stations_.end(),
                                [](const Station& other) { return other.autoRepeat && !other.bets.empty(); })) {
                    closeNow({});
                }
            });
            return;
        }
    }
}

void Table::confirmBets(std::int64_t number, Respond respond) {
    if (!settings_.confirmBets || settings_.startOnDeal) {
        refuse(
            "confirm", number, respond,
            Reply::refused("not_confirming", "this table plays every bet on the layout (rounds.confirm_bets: false)"));
        return;
    }
    if (auto problem = seatProblem(number)) {
        refuse("confirm", number, respond, *problem);
        return;
    }
    if (!bettingOpen(phase_)) {
        refuse("confirm", number, respond, Reply::refused("betting_closed", "no round is open for bets"));
        return;
    }
    Station& s = stationAt(number);
    if (s.bets.empty()) {
        refuse("confirm", number, respond, Reply::refused("no_bets", "the station has no bets to confirm"));
        return;
    }
    if (s.confirmed) {
        respond(Reply::accepted(AlreadySo{}));
        return;
    }
    s.confirmed = true;
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::BetsConfirmedRecord{s.slip(), "station"}, roundId_, number);
    commit(std::move(tx), std::move(respond), Reply::accepted(ConfirmedAnswer{roundId_, s.slip()}));
}

std::vector<BetsUnconfirmed> Table::returnUnconfirmed(journal::JournalTransaction& tx) {
    std::vector<BetsUnconfirmed> returned;
    // With start: deal the DEAL is the confirmation (the loader refuses both; a SIGHUP that sets
    // confirm_bets on a running deal table changes nothing until the restart makes it an error).
    if (!settings_.confirmBets || settings_.startOnDeal) {
        return returned;
    }
    for (Station& s : stations_) {
        if (s.bets.empty() || s.confirmed) {
            continue;
        }
        game::Money total = 0;
        for (const journal::RoundBet& bet : s.bets) {
            tx.add(journal::BetWithdrawnRecord{bet.index, "not_confirmed"}, roundId_, s.number);
            tx.credit(s.number, bet.stake, reason::kBetReturn, roundId_, {.ref = "bet " + std::to_string(bet.index)});
            total += bet.stake;
        }
        s.bets.clear();
        s.placements.clear();
        returned.push_back(BetsUnconfirmed{roundId_, s.number, total, tx.balance(s.number)});
    }
    return returned;
}

}  // namespace pitlink::table
