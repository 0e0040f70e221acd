// The floor around the table: attendant calls, reserved stations, doors and tilts.
#include <algorithm>

#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/store/chain_hasher.h"
#include "daemon/journal/store/record.h"
#include "daemon/table/table.h"

namespace pitlink::table {

void Table::callAttendant(std::int64_t number, Respond respond) {
    if (number < 1 || number > stationCount()) {
        refuse("call_attendant", number, respond, *stationProblem(number));
        return;
    }
    StationWallet& s = walletAt(number);
    if (s.attendantCalled) {
        respond(Reply::accepted(AlreadySo{}));
        return;
    }
    s.attendantCalled = true;
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::AttendantCalledRecord{"station"}, std::nullopt, number);
    commit(std::move(tx), std::move(respond), Reply::accepted(), [this, number] {
        publish(AttendantChanged{number, true});
    });
}

void Table::clearAttendant(std::int64_t number, const std::string& who, Respond respond) {
    if (number < 1 || number > stationCount() || !wallet(number).attendantCalled) {
        refuse("attendant_clear", number, respond,
               Reply::refused("no_call", "station " + std::to_string(number) + " has not called an attendant"),
               journal::RefusedRequest{.by = who});
        return;
    }
    walletAt(number).attendantCalled = false;
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::AttendantClearedRecord{who}, std::nullopt, number);
    commit(std::move(tx), std::move(respond), Reply::accepted(), [this, number] {
        publish(AttendantChanged{number, false});
    });
}

namespace {

constexpr int kMostWrongPins = 3;

// What a reservation keeps of its PIN: a digest bound to the station (the journal is read by many).
std::string pinDigest(std::int64_t station, const std::string& pin) {
    return journal::toHex(journal::sha256("pitlink reserve " + std::to_string(station) + " " + pin));
}

}  // namespace

void Table::reserve(std::int64_t number, bool on, const std::string& pin, Respond respond) {
    const journal::RefusedRequest detail{.reserved = on};
    if (number < 1 || number > stationCount()) {
        refuse("reserve", number, respond, *stationProblem(number), detail);
        return;
    }
    StationWallet& s = walletAt(number);
    if (!on) {
        if (!s.reservation) {
            respond(Reply::accepted(AlreadySo{}));
            return;
        }
        // A PIN of 4 to 8 digits is guessed in a few thousand tries: after three wrong ones only
        // the floor or the time-out frees the station (each try journaled).
        if (s.wrongPins >= kMostWrongPins) {
            refuse("reserve", number, respond,
                   Reply::refused("pin_locked", "three wrong PINs: station " + std::to_string(number) +
                                                    " is freed by an attendant or when its reservation times out"),
                   detail);
            return;
        }
        if (!s.reservation->pinSha256.empty() && pinDigest(number, pin) != s.reservation->pinSha256) {
            ++s.wrongPins;
            refuse("reserve", number, respond,
                   Reply::refused("wrong_pin", "station " + std::to_string(number) +
                                                   " was reserved with a PIN; releasing it needs the same PIN"),
                   detail);
            return;
        }
        endReservation(number, "station", std::move(respond));
        return;
    }
    if (auto problem = stationProblem(number)) {  // already reserved, locked for a hand-pay, ...
        refuse("reserve", number, respond, *problem, detail);
        return;
    }
    s.reservation = journal::ReservationFact{true, timers_.wallMs() + settings_.reserveTimeout.count(),
                                             pin.empty() ? std::string() : pinDigest(number, pin)};
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::StationReservedRecord{*s.reservation, "station"}, std::nullopt, number);
    scheduleReservationEnd(number);
    const std::int64_t until = s.reservation->untilMs;
    commit(std::move(tx), std::move(respond), Reply::accepted(ReservedAnswer{true, until}), [this, number, until] {
        publish(ReservationChanged{number, true, until, "station"});
    });
}

void Table::releaseReservation(std::int64_t number, const std::string& who, Respond respond) {
    if (number < 1 || number > stationCount() || !wallet(number).reservation) {
        refuse("reserve_release", number, respond,
               Reply::refused("not_reserved", "station " + std::to_string(number) + " is not reserved"),
               journal::RefusedRequest{.by = who});
        return;
    }
    endReservation(number, who, std::move(respond));
}

void Table::endReservation(std::int64_t number, const std::string& by, Respond respond) {
    walletAt(number).reservation.reset();
    walletAt(number).wrongPins = 0;
    if (const auto it = reservationTimers_.find(number); it != reservationTimers_.end()) {
        timers_.cancel(it->second);
        reservationTimers_.erase(it);
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::StationReservedRecord{{}, by}, std::nullopt, number);
    commit(std::move(tx), std::move(respond), Reply::accepted(ReservedAnswer{false, 0}), [this, number, by] {
        publish(ReservationChanged{number, false, 0, by});
    });
}

void Table::scheduleReservationEnd(std::int64_t number) {
    const auto& reservation = wallet(number).reservation;
    if (!reservation || reservation->untilMs == 0) {
        return;  // journals before issue 20 had no time-out: released by the player or an operator
    }
    const std::int64_t until = reservation->untilMs;
    // At most one time-out from now, whatever the journal says (a damaged until_ms cannot
    // overflow the timer).
    const std::int64_t left = until > timers_.wallMs() ? until - timers_.wallMs() : 0;
    const auto delay = std::chrono::milliseconds(std::min<std::int64_t>(left, settings_.reserveTimeout.count()));
    reservationTimers_[number] = timers_.after(delay, [this, number, until] {
        reservationTimers_.erase(number);
        const auto& still = wallet(number).reservation;
        if (still && still->untilMs == until) {
            endReservation(number, "timeout", {});
        }
    });
}

void Table::doorOpened(const std::string& door, Respond respond) {
    if (!openDoors_.insert(door).second) {
        if (respond) {
            respond(Reply::accepted(AlreadySo{}));
        }
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::DoorOpenedRecord{door});
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
    tx.add(journal::DoorClosedRecord{door});
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
               journal::RefusedRequest{.by = who, .cause = cause.substr(0, 100)});
        return;
    }
    if (cause == "journal" || cause.starts_with("door:")) {
        refuse("tilt_clear", std::nullopt, respond,
               Reply::refused("tilt_cause_present",
                              cause == "journal" ? "a journal failure clears only with a restart on a sound journal"
                                                 : "a door tilt clears when the door is closed"),
               journal::RefusedRequest{.by = who, .cause = cause});
        return;
    }
    tilts_.erase(cause);
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::TiltClearedRecord{cause, who});
    const bool stillTilted = tilted();
    commit(std::move(tx), std::move(respond), Reply::accepted(), [this, stillTilted] {
        publish(TiltChanged{stillTilted, std::nullopt, std::nullopt});
    });
    scheduleNextRound();
}

}  // namespace pitlink::table
