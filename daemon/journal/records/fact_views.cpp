#include "daemon/journal/records/fact_views.h"

#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/record_kinds.h"

namespace pitlink::journal {

CreditFact creditFact(const nlohmann::json& body) {
    CreditFact f;
    f.amount = integerField(body, "amount", -kMaxBodyMoney, kMaxBodyMoney);
    f.balance = integerField(body, "balance", -kMaxBodyMoney, kMaxBodyMoney);
    f.reason = stringField(body, "reason");
    if (f.reason == reason::kSettlement) {
        f.wagered = integerField(body, "wagered", -kMaxBodyMoney, kMaxBodyMoney);
    }
    return f;
}

HandpayFact handpayFact(const nlohmann::json& body) {
    return HandpayFact{integerField(body, "amount", 0, kMaxBodyMoney), stringField(body, "kind"),
                       body.contains("off_credits") && booleanField(body, "off_credits")};
}

TicketRedeemedFact ticketRedeemedFact(const nlohmann::json& body) {
    TicketRedeemedFact f;
    f.validation = stringField(body, "validation");
    f.amount = integerField(body, "amount", 0, kMaxBodyMoney);
    f.host = body.contains("host") && booleanField(body, "host");
    return f;
}

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
