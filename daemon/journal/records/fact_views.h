#pragma once
// What a station is held by across a restart: an open dispute and a reservation, as the
// start-up resumes them (resume_facts.h) and the table keeps them. A reservation's fields are read
// once here (body_fields.h); a body that does not fit is refused with BodyError. The records
// themselves are typed in station_records.h and round_records.h (schema/README.md).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace pitlink::journal {

// dispute.raised: a player's dispute of a round, open until a dispute.resolved of its station.
struct DisputeFact {
    std::int64_t round = 0;
    std::string text;
    friend bool operator==(const DisputeFact&, const DisputeFact&) = default;
};

// station.reserved: a station locked for its player until `untilMs` (table clock) or released.
struct ReservationFact {
    bool reserved = false;
    std::int64_t untilMs = 0;  // 0: journals before issue 20 (no time-out: released by hand)
    std::string pinSha256;     // hex, when the player locked it with a PIN (releasing needs it)
    friend bool operator==(const ReservationFact&, const ReservationFact&) = default;
};
[[nodiscard]] ReservationFact reservationFact(const nlohmann::json& body);
// Its body: `reserved`, and when reserved `until_ms` and `pin_sha256` (if any).
[[nodiscard]] nlohmann::json reservationJson(const ReservationFact& reservation);

}  // namespace pitlink::journal
