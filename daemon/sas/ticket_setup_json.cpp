#include "daemon/sas/ticket_setup_json.h"

#include "daemon/journal/records/body_fields.h"

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
    const auto number = [&j](std::string_view key, std::uint16_t kept) {
        return static_cast<std::uint16_t>(journal::optionalIntegerField(j, key, 0, 0xFFFF).value_or(kept));
    };
    const auto text = [&j](std::string_view key, const std::string& kept) {
        return journal::optionalStringField(j, key).value_or(kept);
    };
    base.statusBits = number("status_bits", base.statusBits);
    base.cashableExpirationDays = number("cashable_expiration_days", base.cashableExpirationDays);
    base.restrictedExpirationDays = number("restricted_expiration_days", base.restrictedExpirationDays);
    base.hostId = number("host_id", base.hostId);
    base.location = text("location", base.location);
    base.address1 = text("address1", base.address1);
    base.address2 = text("address2", base.address2);
    return base;
}

}  // namespace pitlink::sas
