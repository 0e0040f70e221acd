#include "daemon/sas/ticket_setup_json.h"

namespace pitlink::sas {

nlohmann::json ticketSetupJson(const TicketSetup& s) {
    return nlohmann::json{{"status_bits", s.statusBits},
                          {"cashable_expiration_days", s.cashableExpirationDays},
                          {"restricted_expiration_days", s.restrictedExpirationDays},
                          {"host_id", s.hostId},
                          {"location", s.location},
                          {"address1", s.address1},
                          {"address2", s.address2}};
}

TicketSetup ticketSetupFromJson(const nlohmann::json& j, TicketSetup base) {
    base.statusBits = j.value("status_bits", base.statusBits);
    base.cashableExpirationDays = j.value("cashable_expiration_days", base.cashableExpirationDays);
    base.restrictedExpirationDays = j.value("restricted_expiration_days", base.restrictedExpirationDays);
    base.hostId = j.value("host_id", base.hostId);
    base.location = j.value("location", base.location);
    base.address1 = j.value("address1", base.address1);
    base.address2 = j.value("address2", base.address2);
    return base;
}

}  // namespace pitlink::sas
