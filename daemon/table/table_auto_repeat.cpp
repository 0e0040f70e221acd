// Auto-repeat (seeds 000 and 001): "repeat held 3 s and confirmed" turns it on at the station;
// the last round's slip is then placed again at every round's opening until the player turns it
// off. A repeat the rules refuse (credits run out, a limit changed, the station locked) is
// journaled with its rule like any refused bet, and auto-repeat stops there: a player who walked
// away is not left betting on whatever the rules still allow.
#include <memory>

#include "daemon/table/table.h"

namespace pitlink::table {

using nlohmann::json;

void Table::setAutoRepeat(std::int64_t number, bool on, Respond respond) {
    if (auto problem = stationProblem(number)) {
        refuse("auto_repeat", number, respond, *problem, json{{"on", on}});
        return;
    }
    Station& s = stationAt(number);
    if (s.autoRepeat == on) {
        respond(Reply::accepted(AlreadySo{}));
        return;
    }
    if (on && s.lastSlip.total() == 0) {
        refuse("auto_repeat", number, respond,
               Reply::refused("nothing_to_repeat", "the station had no bets in its last round"), json{{"on", on}});
        return;
    }
    s.autoRepeat = on;
    journal::JournalTransaction tx = journal_.begin();
    addStationState(tx, s);
    commit(std::move(tx), std::move(respond), Reply::accepted(AutoRepeatAnswer{on}), [this, number, on] {
        publish(AutoRepeatChanged{number, on, {}});
    });
    if (on && bettingOpen(phase_) && s.bets.empty()) {
        placeAutoRepeat(s);  // pressed during the betting window: this round too
    }
}

void Table::autoRepeatBets() {
    for (Station& s : stations_) {
        if (s.autoRepeat) {
            placeAutoRepeat(s);
        }
    }
}

void Table::placeAutoRepeat(Station& s) {
    const std::size_t before = s.placements.size();
    // The refusal's rule, known once it has committed (before the station.state below does).
    auto refused = std::make_shared<std::string>();
    placeSlip(s.number, s.lastSlip, "auto_repeat", [refused](const Reply& reply) {
        if (!reply.ok) {
            *refused = reply.error;
        }
    });
    if (s.placements.size() > before) {
        return;  // placed (decided now: the table applies a change when it submits it)
    }
    s.autoRepeat = false;
    journal::JournalTransaction tx = journal_.begin();
    addStationState(tx, s);
    commit(std::move(tx), {}, Reply::accepted(), [this, number = s.number, refused] {
        publish(AutoRepeatChanged{number, false, *refused});
    });
}

}  // namespace pitlink::table
