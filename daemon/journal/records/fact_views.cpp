#include "daemon/journal/records/fact_views.h"

#include "daemon/journal/records/body_fields.h"

namespace pitlink::journal {

ReservationFact reservationFact(const nlohmann::json& body) {
    ReservationFact f;
    f.reserved = booleanField(body, "reserved");
    if (const auto until = optionalIntegerField(body, "until_ms", 0, kMaxInt64)) {
        f.untilMs = *until;
    }
    if (body.contains("pin_sha256")) {
        f.pinSha256 = stringField(body, "pin_sha256");
    }
    return f;
}

nlohmann::json reservationJson(const ReservationFact& reservation) {
    nlohmann::json body{{"reserved", reservation.reserved}};
    if (reservation.reserved) {
        body["until_ms"] = reservation.untilMs;
        if (!reservation.pinSha256.empty()) {
            body["pin_sha256"] = reservation.pinSha256;
        }
    }
    return body;
}

}  // namespace pitlink::journal
