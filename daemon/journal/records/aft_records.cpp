#include "daemon/journal/records/aft_records.h"

#include <algorithm>
#include <limits>

#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/typed_record.h"
#include "daemon/journal/store/record.h"

namespace pitlink::journal {

using nlohmann::json;

namespace {

constexpr std::int64_t kMaxUint32 = std::numeric_limits<std::uint32_t>::max();
constexpr std::int64_t kMaxAftCents = 9'999'999'999;  // 5 BCD bytes

json amountsJson(const AftAmounts& a) {
    return {{"cashable", a.cashable}, {"restricted", a.restricted}, {"nonrestricted", a.nonrestricted}};
}

AftAmounts amountsOf(const json& body, std::string_view key) {
    const json& a = objectField(body, key);
    return {integerField(a, "cashable", 0, kMaxAftCents), integerField(a, "restricted", 0, kMaxAftCents),
            integerField(a, "nonrestricted", 0, kMaxAftCents)};
}

}  // namespace

json toBody(const AftRegistrationRecord& record) {
    return {{"status", record.status}, {"asset", record.asset}, {"key", toHex(record.key)}, {"pos_id", record.posId}};
}

AftRegistrationRecord fromBody(const json& body, std::type_identity<AftRegistrationRecord>) {
    AftRegistrationRecord r;
    r.status = static_cast<std::uint8_t>(integerField(body, "status", 0, 0xFF));
    r.asset = static_cast<std::uint32_t>(integerField(body, "asset", 0, kMaxUint32));
    const auto key = fromHex(stringField(body, "key"));
    if (!key || key->size() != r.key.size()) {
        throw BodyError("\"key\" is not 20 bytes of hex");
    }
    std::copy(key->begin(), key->end(), r.key.begin());
    r.posId = static_cast<std::uint32_t>(integerField(body, "pos_id", 0, kMaxUint32));
    return r;
}

json toBody(const AftTransferRecord& record) {
    json body{{"id", record.id},
              {"code", record.code},
              {"type", record.type},
              {"asked", amountsJson(record.asked)},
              {"moved", amountsJson(record.moved)},
              {"flags", record.flags},
              {"asset", record.asset},
              {"expiration", record.expiration},
              {"pool", record.pool},
              {"status", record.status}};
    putIfSet(body, "at", record.at);
    return body;
}

AftTransferRecord fromBody(const json& body, std::type_identity<AftTransferRecord>) {
    AftTransferRecord r;
    r.id = stringField(body, "id");
    if (r.id.size() > 20) {
        throw BodyError("\"id\" is longer than 20 characters");
    }
    r.code = static_cast<std::uint8_t>(integerField(body, "code", 0, 0xFF));
    r.type = static_cast<std::uint8_t>(integerField(body, "type", 0, 0xFF));
    r.asked = amountsOf(body, "asked");
    r.moved = amountsOf(body, "moved");
    r.flags = static_cast<std::uint8_t>(integerField(body, "flags", 0, 0xFF));
    r.asset = static_cast<std::uint32_t>(integerField(body, "asset", 0, kMaxUint32));
    r.expiration = static_cast<std::uint32_t>(integerField(body, "expiration", 0, 99'999'999));
    r.pool = static_cast<std::uint16_t>(integerField(body, "pool", 0, 0xFFFF));
    r.status = static_cast<std::uint8_t>(integerField(body, "status", 0, 0xFF));
    if (body.contains("at")) {
        r.at = stringField(body, "at");
    }
    return r;
}

json toBody(const AftAcknowledgedRecord& record) {
    return {{"id", record.id}};
}

AftAcknowledgedRecord fromBody(const json& body, std::type_identity<AftAcknowledgedRecord>) {
    return {stringField(body, "id")};
}

void AftState::apply(const AftTransferRecord& record) {
    if (current && current->id == record.id) {
        current = record;  // a pending transfer's end
        return;
    }
    if (record.status == 0x40 && (record.flags & 0x01U) != 0) {
        hostCashout = record.flags & 0x06U;  // a request taken sets the host cash-out mode
    }
    current = record;
    acknowledged = record.status != 0x40;  // refused at once: nothing for the host to acknowledge
}

void AftState::apply(const AftAcknowledgedRecord& record) {
    if (!current || current->id != record.id || acknowledged) {
        return;
    }
    acknowledged = true;
    if ((current->status == 0x00 || current->status == 0x01) && current->moved.total() > 0) {
        history.push_back(*current);
        if (history.size() > kAftHistoryKept) {
            history.erase(history.begin());
        }
    }
}

json aftStateJson(const AftState& state) {
    json body = json::object();
    if (state.registration) {
        body["registration"] = toBody(*state.registration);
    }
    if (state.current) {
        body["current"] = toBody(*state.current);
        body["acknowledged"] = state.acknowledged;
    }
    json history = json::array();
    for (const AftTransferRecord& entry : state.history) {
        history.push_back(toBody(entry));
    }
    body["history"] = std::move(history);
    if (state.hostCashout != 0) {
        body["host_cashout"] = state.hostCashout;
    }
    return body;
}

AftState aftStateFromJson(const json& body) {
    AftState state;
    if (body.contains("registration")) {
        state.registration = readBody<AftRegistrationRecord>(objectField(body, "registration"));
    }
    if (body.contains("current")) {
        state.current = readBody<AftTransferRecord>(objectField(body, "current"));
        state.acknowledged = booleanField(body, "acknowledged");
    }
    for (const json& entry : arrayField(body, "history")) {
        state.history.push_back(readBody<AftTransferRecord>(entry));
        if (state.history.size() > kAftHistoryKept) {
            throw BodyError("more than 127 transfers in an AFT history");
        }
    }
    if (body.contains("host_cashout")) {
        const std::int64_t mode = integerField(body, "host_cashout", 0, 0x06);
        if ((mode & ~std::int64_t{0x06}) != 0) {
            throw BodyError("host_cashout is not a host cash-out mode (02 enabled, 04 hard)");
        }
        state.hostCashout = static_cast<std::uint8_t>(mode);
    }
    return state;
}

}  // namespace pitlink::journal
