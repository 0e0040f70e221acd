// Standing bets: auto-repeat (seeds 000 and 001: "repeat held 3 s and confirmed") and, on RNG
// tables, Keep Bets On (seed 000). Either places the last round's slip again at every round's
// opening until the player turns it off; auto-repeat also starts the round where a station's
// DEAL would (rounds.start: deal), Keep Bets On never does. A repeat the rules refuse (credits run
// out, a limit changed, the station locked) is journaled with its rule like any refused bet, and
// the standing bets stop there: a player who walked away is not left betting on whatever the
// rules still allow. A slip with a side bet waiting for its edge (game protection) waits with it.
#include <memory>

#include "daemon/journal/records/record_kinds.h"
#include "daemon/table/table.h"

namespace pitlink::table {

void Table::setAutoRepeat(std::int64_t number, bool on, Respond respond) {
    setStandingBets(number, on, false, std::move(respond));
}

void Table::setKeepBets(std::int64_t number, bool on, Respond respond) {
    if (settings_.source != CardSource::Rng) {
        refuse("keep_bets", number, respond,
               Reply::refused("rng_only", "Keep Bets On is offered where the table deals from its own RNG shoe"),
               journal::RefusedRequest{.on = on});
        return;
    }
    setStandingBets(number, on, true, std::move(respond));
}

void Table::setStandingBets(std::int64_t number, bool on, bool keep, Respond respond) {
    const char* op = keep ? "keep_bets" : "auto_repeat";
    if (auto problem = seatProblem(number)) {
        refuse(op, number, respond, *problem, journal::RefusedRequest{.on = on});
        return;
    }
    Station& s = stationAt(number);
    bool& mine = keep ? s.keepBets : s.autoRepeat;
    bool& other = keep ? s.autoRepeat : s.keepBets;
    if (mine == on) {
        respond(Reply::accepted(AlreadySo{}));
        return;
    }
    if (on && s.lastSlip.total() == 0) {
        refuse(op, number, respond, Reply::refused("nothing_to_repeat", "the station had no bets in its last round"),
               journal::RefusedRequest{.on = on});
        return;
    }
    const bool otherWasOn = on && other;
    mine = on;
    if (on) {
        other = false;  // one of the two at a time
    }
    journal::JournalTransaction tx = journal_.begin();
    addStationState(tx, s);
    commit(std::move(tx), std::move(respond), Reply::accepted(AutoRepeatAnswer{on, keep}),
           [this, number, on, keep, otherWasOn] {
               if (otherWasOn) {
                   publishStanding(number, !keep, false, {});
               }
               publishStanding(number, keep, on, {});
           });
    if (on && bettingOpen(phase_)) {
        if (s.bets.empty()) {
            placeStandingBets(s);  // turned on during the betting window: this round too
        }
        armAutoDeal();
    }
}

void Table::publishStanding(std::int64_t number, bool keep, bool on, const std::string& reason) {
    if (keep) {
        publish(KeepBetsChanged{number, on, reason});
    } else {
        publish(AutoRepeatChanged{number, on, reason});
    }
}

void Table::autoRepeatBets() {
    for (Station& s : stations_) {
        s.standingWaitsForEdge = false;
        if (s.autoRepeat || s.keepBets) {
            placeStandingBets(s);
        }
    }
    armAutoDeal();
}

void Table::placeStandingBets(Station& s) {
    if (const auto waiting = guard_ ? guard_->refusal(s.lastSlip) : std::nullopt;
        waiting && waiting->rule == game::BetRule::SideBetEdgePending && bettingOpen(phase_)) {
        // An RNG table opens the next round before the worker has its edge: the standing slip
        // is placed when the edge comes, not refused (which would turn the standing bets off).
        s.standingWaitsForEdge = true;
        return;
    }
    const bool keep = s.keepBets;
    const std::size_t before = s.placements.size();
    // The refusal's rule, known once it has committed (before the station.state below does).
    auto refused = std::make_shared<std::string>();
    placeSlip(s.number, s.lastSlip, keep ? "keep_bets" : "auto_repeat", [refused](const Reply& reply) {
        if (!reply.ok) {
            *refused = reply.error;
        }
    });
    if (s.placements.size() > before) {
        // Placed (decided now: the table applies a change when it submits it). Auto-repeat was
        // confirmed when the player turned it on: in the multiplayer mode its bets play.
        if (!keep && settings_.confirmBets) {
            s.confirmed = true;
            journal::JournalTransaction tx = journal_.begin();
            tx.add(journal::BetsConfirmedRecord{s.slip(), "auto_repeat"}, roundId_, s.number);
            commit(std::move(tx), {}, Reply::accepted());
        }
        return;
    }
    (keep ? s.keepBets : s.autoRepeat) = false;
    journal::JournalTransaction tx = journal_.begin();
    addStationState(tx, s);
    commit(std::move(tx), {}, Reply::accepted(),
           [this, number = s.number, keep, refused] { publishStanding(number, keep, false, *refused); });
}

}  // namespace pitlink::table
