#include "daemon/journal/records/cashier_records.h"

#include <limits>

#include "daemon/journal/records/body_fields.h"

namespace pitlink::journal {

using nlohmann::json;

json toBody(const CreditRecord& record) {
    json body{{"amount", record.amount}, {"balance", record.balance}, {"reason", record.reason}};
    if (record.ref) {
        body["ref"] = *record.ref;
    }
    if (record.wagered) {
        body["wagered"] = *record.wagered;
    }
    if (record.due) {
        body["due"] = *record.due;
    }
    if (record.shortfall) {
        body["shortfall"] = *record.shortfall;
    }
    if (record.denomination) {
        body["denomination"] = *record.denomination;
    }
    if (record.game) {
        body["game"] = *record.game;
    }
    const auto putPart = [&body](const char* key, Money part) {
        if (part != 0) {
            body[key] = part;
        }
    };
    putPart("restricted", record.promo.restricted);
    putPart("nonrestricted", record.promo.nonrestricted);
    putPart("wagered_restricted", record.wageredPromo.restricted);
    putPart("wagered_nonrestricted", record.wageredPromo.nonrestricted);
    if (record.taxStatus) {
        body["tax_status"] = taxStatusName(*record.taxStatus);
    }
    return body;
}

CreditRecord fromBody(const json& body, std::type_identity<CreditRecord>) {
    CreditRecord r;
    r.amount = integerField(body, "amount", -kMaxBodyMoney, kMaxBodyMoney);
    r.balance = integerField(body, "balance", -kMaxBodyMoney, kMaxBodyMoney);
    r.reason = stringField(body, "reason");
    if (r.reason == reason::kSettlement) {
        r.wagered = integerField(body, "wagered", -kMaxBodyMoney, kMaxBodyMoney);
    }
    if (body.contains("ref") && body.at("ref").is_string()) {
        r.ref = stringField(body, "ref");
    }
    r.due = optionalIntegerField(body, "due", -kMaxBodyMoney, kMaxBodyMoney);
    r.shortfall = optionalIntegerField(body, "shortfall", -kMaxBodyMoney, kMaxBodyMoney);
    r.denomination = optionalIntegerField(body, "denomination", 1, kMaxBodyMoney);
    if (body.contains("game")) {
        r.game = gameNameValue(body.at("game"), "a credit's \"game\"");
    }
    const auto part = [&body](const char* key) {
        return optionalIntegerField(body, key, -kMaxBodyMoney, kMaxBodyMoney).value_or(0);
    };
    r.promo = {part("restricted"), part("nonrestricted")};
    r.wageredPromo = {part("wagered_restricted"), part("wagered_nonrestricted")};
    if (r.reason == reason::kLegacyBonus) {
        const std::string name = stringField(body, "tax_status");
        r.taxStatus = taxStatusNamed(name);
        if (!r.taxStatus) {
            throw BodyError(
                "a legacy bonus credit's \"tax_status\" is deductible, non_deductible or wager_match, not \"" + name +
                "\"");
        }
    }
    return r;
}

json ticketPrintJson(const TicketPrint& print) {
    json body = json::object();
    putIfSet(body, "printed_at", print.printedAt);
    putIfSet(body, "location", print.location);
    putIfSet(body, "address1", print.address1);
    putIfSet(body, "address2", print.address2);
    putIfSet(body, "expires_days", print.expiresDays);
    putIfSet(body, "system_id", print.systemId);
    putIfSet(body, "machine_id", print.machineId);
    putIfSet(body, "sequence", print.sequence);
    return body;
}

json toBody(const TicketIssuedRecord& record) {
    json body = ticketPrintJson(record.print);
    body["validation"] = record.validation;
    body["amount"] = record.amount;
    return body;
}

TicketIssuedRecord fromBody(const json& body, std::type_identity<TicketIssuedRecord>) {
    // As lenient as LP 4D's reading of it has always been: every field may be absent.
    TicketIssuedRecord r;
    r.validation = optionalStringField(body, "validation").value_or(std::string());
    r.amount = optionalIntegerField(body, "amount", 0, kMaxBodyMoney).value_or(0);
    TicketPrint& p = r.print;
    p.printedAt = optionalStringField(body, "printed_at");
    p.location = optionalStringField(body, "location");
    p.address1 = optionalStringField(body, "address1");
    p.address2 = optionalStringField(body, "address2");
    p.expiresDays = optionalIntegerField(body, "expires_days", 0, kMaxInt64);
    p.systemId = optionalIntegerField(body, "system_id", 0, 0xFF);
    p.machineId = optionalIntegerField(body, "machine_id", 0, std::numeric_limits<std::uint32_t>::max());
    p.sequence = optionalIntegerField(body, "sequence", 0, std::numeric_limits<std::uint32_t>::max());
    return r;
}

json toBody(const TicketRedeemedRecord& record) {
    json body{{"validation", record.validation}, {"amount", record.amount}};
    if (record.host) {
        body["host"] = true;
    }
    return body;
}

TicketRedeemedRecord fromBody(const json& body, std::type_identity<TicketRedeemedRecord>) {
    TicketRedeemedRecord r;
    r.validation = stringField(body, "validation");
    r.amount = integerField(body, "amount", 0, kMaxBodyMoney);
    r.host = body.contains("host") && booleanField(body, "host");
    return r;
}

json toBody(const HandpayPendingRecord& record) {
    json body{{"amount", record.amount}, {"kind", record.kind}};
    if (record.why) {
        body["why"] = *record.why;
    }
    if (record.offCredits) {
        body["off_credits"] = true;
    }
    return body;
}

HandpayPendingRecord fromBody(const json& body, std::type_identity<HandpayPendingRecord>) {
    HandpayPendingRecord r;
    r.amount = integerField(body, "amount", 0, kMaxBodyMoney);
    r.kind = stringField(body, "kind");
    r.why = optionalStringField(body, "why");
    r.offCredits = body.contains("off_credits") && booleanField(body, "off_credits");
    return r;
}

json toBody(const HandpayResetRecord& record) {
    json body{{"amount", record.amount}, {"kind", record.kind}, {"by", record.by}};
    if (record.lockedAmount) {
        body["locked_amount"] = *record.lockedAmount;
    }
    return body;
}

json toBody(const TipRecord& record) {
    return json{{"amount", record.amount}};
}

}  // namespace pitlink::journal
