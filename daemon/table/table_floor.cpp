// The floor around the table: attendant calls, disputes, reserved stations, doors and tilts.
#include "daemon/journal/record_kinds.h"
#include "daemon/table/table.h"

namespace pitlink::table {

using nlohmann::json;
namespace kind = journal::kind;

void Table::callAttendant(std::int64_t number, Respond respond) {
    if (number < 1 || number > stationCount()) {
        refuse("call_attendant", number, respond, *stationProblem(number));
        return;
    }
    Station& s = stationAt(number);
    if (s.attendantCalled) {
        respond(Reply::accepted(AlreadySo{}));
        return;
    }
    s.attendantCalled = true;
    journal::JournalTransaction tx = journal_.begin();
    tx.add(kind::kAttendantCalled, std::nullopt, number, json{{"by", "station"}});
    commit(std::move(tx), std::move(respond), Reply::accepted(), [this, number] {
        publish(AttendantChanged{number, true});
    });
}

void Table::clearAttendant(std::int64_t number, const std::string& who, Respond respond) {
    if (number < 1 || number > stationCount() || !station(number).attendantCalled) {
        refuse("attendant_clear", number, respond,
               Reply::refused("no_call", "station " + std::to_string(number) + " has not called an attendant"),
               json{{"by", who}});
        return;
    }
    stationAt(number).attendantCalled = false;
    journal::JournalTransaction tx = journal_.begin();
    tx.add(kind::kAttendantCleared, std::nullopt, number, json{{"by", who}});
    commit(std::move(tx), std::move(respond), Reply::accepted(), [this, number] {
        publish(AttendantChanged{number, false});
    });
}

void Table::dispute(std::int64_t number, std::int64_t round, const std::string& text, Respond respond) {
    if (number < 1 || number > stationCount()) {
        refuse("dispute", number, respond, *stationProblem(number), json{{"round", round}});
        return;
    }
    if (round < 1 || round > roundId_) {
        refuse("dispute", number, respond,
               Reply::refused("no_round", "round " + std::to_string(round) + " has not been played here"),
               json{{"round", round}});
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(kind::kDisputeRaised, round, number, json{{"text", text.substr(0, 500)}});
    commit(std::move(tx), std::move(respond), Reply::accepted(RoundAnswer{round}));
}

void Table::reserve(std::int64_t number, bool on, Respond respond) {
    if (auto problem = stationProblem(number)) {
        refuse("reserve", number, respond, *problem, json{{"reserved", on}});
        return;
    }
    stationAt(number).reserved = on;
    journal::JournalTransaction tx = journal_.begin();
    tx.add(kind::kStationReserved, std::nullopt, number, json{{"reserved", on}});
    commit(std::move(tx), std::move(respond), Reply::accepted(ReservedAnswer{on}));
}

void Table::doorOpened(const std::string& door, Respond respond) {
    if (!openDoors_.insert(door).second) {
        if (respond) {
            respond(Reply::accepted(AlreadySo{}));
        }
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(kind::kDoorOpened, std::nullopt, std::nullopt, json{{"door", door}});
    commit(std::move(tx), std::move(respond), Reply::accepted());
    tiltNow("door:" + door, "the " + door + " door is open", false);
}

void Table::doorClosed(const std::string& door, Respond respond) {
    if (openDoors_.erase(door) == 0) {
        if (respond) {
            respond(Reply::accepted(AlreadySo{}));
        }
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(kind::kDoorClosed, std::nullopt, std::nullopt, json{{"door", door}});
    tilts_.erase("door:" + door);
    const bool stillTilted = tilted();
    commit(std::move(tx), std::move(respond), Reply::accepted(), [this, stillTilted] {
        publish(TiltChanged{stillTilted, std::nullopt, std::nullopt});
    });
    scheduleNextRound();
}

void Table::raiseTilt(const std::string& cause, const std::string& message) {
    tiltNow(cause, message, true);
}

void Table::clearTilt(const std::string& cause, const std::string& who, Respond respond) {
    if (!tilts_.contains(cause)) {
        refuse("tilt_clear", std::nullopt, respond, Reply::refused("no_tilt", "no tilt '" + cause.substr(0, 100) + "'"),
               json{{"cause", cause.substr(0, 100)}, {"by", who}});
        return;
    }
    if (cause == "journal" || cause.starts_with("door:")) {
        refuse("tilt_clear", std::nullopt, respond,
               Reply::refused("tilt_cause_present",
                              cause == "journal" ? "a journal failure clears only with a restart on a sound journal"
                                                 : "a door tilt clears when the door is closed"),
               json{{"cause", cause}, {"by", who}});
        return;
    }
    tilts_.erase(cause);
    journal::JournalTransaction tx = journal_.begin();
    tx.add(kind::kTiltCleared, std::nullopt, std::nullopt, json{{"cause", cause}, {"by", who}});
    const bool stillTilted = tilted();
    commit(std::move(tx), std::move(respond), Reply::accepted(), [this, stillTilted] {
        publish(TiltChanged{stillTilted, std::nullopt, std::nullopt});
    });
    scheduleNextRound();
}

}  // namespace pitlink::table
