#include "daemon/journal/records/sas_records.h"

#include <limits>

#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/store/record.h"

namespace pitlink::journal {

using nlohmann::json;

namespace {

constexpr std::int64_t kMaxUint32 = std::numeric_limits<std::uint32_t>::max();

// Event data as the SAS bodies have always written it: upper-case hex (record.h's toHex writes
// lower case, which would change the bytes of every sas.exception with data).
std::string upperHex(const std::vector<std::uint8_t>& bytes) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string text;
    for (const std::uint8_t b : bytes) {
        text.push_back(kHex[b >> 4U]);
        text.push_back(kHex[b & 0x0FU]);
    }
    return text;
}

json exceptionList(const std::vector<SasExceptionRecord>& exceptions) {
    json list = json::array();
    for (const SasExceptionRecord& e : exceptions) {
        list.push_back(toBody(e));
    }
    return list;
}

std::vector<SasExceptionRecord> exceptionListOf(const json& list) {
    std::vector<SasExceptionRecord> exceptions;
    for (const json& e : list) {
        exceptions.push_back(readBody<SasExceptionRecord>(e));
    }
    return exceptions;
}

// clock.set's from_ms and to_ms: the start-up reads only the offset and never refused a body
// for these, so one that is missing or does not fit reads as 0.
std::int64_t unrefusedMs(const json& body, std::string_view key) {
    try {
        return optionalIntegerField(body, key, std::numeric_limits<std::int64_t>::min(), kMaxInt64).value_or(0);
    } catch (const BodyError&) {
        return 0;
    }
}

}  // namespace

json toBody(const SasExceptionRecord& record) {
    json body{{"code", record.code}, {"serial", record.serial}};
    if (!record.data.empty()) {
        body["data"] = upperHex(record.data);
    }
    return body;
}

SasExceptionRecord fromBody(const json& body, std::type_identity<SasExceptionRecord>) {
    SasExceptionRecord r;
    r.code = static_cast<std::uint8_t>(integerField(body, "code", 0, 0xFF));
    r.serial = static_cast<std::uint64_t>(integerField(body, "serial", 0, kMaxInt64));
    const std::string data = optionalStringField(body, "data").value_or(std::string());
    auto bytes = fromHex(data);
    if (!bytes) {
        throw BodyError("\"data\" must be bytes in hexadecimal, not \"" + data.substr(0, 40) + "\"");
    }
    r.data = std::move(*bytes);
    return r;
}

json toBody(const SasAckedRecord& record) {
    return json{{"acked", exceptionList(record.acked)}};
}

SasAckedRecord fromBody(const json& body, std::type_identity<SasAckedRecord>) {
    return SasAckedRecord{exceptionListOf(arrayField(body, "acked"))};
}

json toBody(const SasQueueRecord& record) {
    return json{{"pending", exceptionList(record.pending)}};
}

SasQueueRecord fromBody(const json& body, std::type_identity<SasQueueRecord>) {
    return SasQueueRecord{exceptionListOf(arrayField(body, "pending"))};
}

json toBody(const SasValidationIdRecord& record) {
    return json{{"machine_id", record.machineId}, {"sequence", record.sequence}};
}

SasValidationIdRecord fromBody(const json& body, std::type_identity<SasValidationIdRecord>) {
    return SasValidationIdRecord{static_cast<std::uint32_t>(integerField(body, "machine_id", 0, kMaxUint32)),
                                 static_cast<std::uint32_t>(integerField(body, "sequence", 0, kMaxUint32))};
}

json toBody(const SasHostEnabledRecord& record) {
    return json{{"enabled", record.enabled}};
}

SasHostEnabledRecord fromBody(const json& body, std::type_identity<SasHostEnabledRecord>) {
    return SasHostEnabledRecord{booleanField(body, "enabled")};
}

json toBody(const SasMachineNumbersRecord& record) {
    return json{{"asset", record.asset}, {"location", record.location}};
}

SasMachineNumbersRecord fromBody(const json& body, std::type_identity<SasMachineNumbersRecord>) {
    SasMachineNumbersRecord r{static_cast<std::uint32_t>(integerField(body, "asset", 0, kMaxUint32)),
                              stringField(body, "location")};
    if (r.location.size() > 40) {
        throw BodyError("\"location\" holds more than 40 characters");
    }
    return r;
}

json toBody(const SasTicketSetupRecord& record) {
    json body = json::object();
    putIfSet(body, "status_bits", record.statusBits);
    putIfSet(body, "cashable_expiration_days", record.cashableExpirationDays);
    putIfSet(body, "restricted_expiration_days", record.restrictedExpirationDays);
    putIfSet(body, "host_id", record.hostId);
    putIfSet(body, "location", record.location);
    putIfSet(body, "address1", record.address1);
    putIfSet(body, "address2", record.address2);
    return body;
}

SasTicketSetupRecord fromBody(const json& body, std::type_identity<SasTicketSetupRecord>) {
    const auto number = [&body](std::string_view key) -> std::optional<std::uint16_t> {
        if (const auto value = optionalIntegerField(body, key, 0, 0xFFFF)) {
            return static_cast<std::uint16_t>(*value);
        }
        return std::nullopt;
    };
    SasTicketSetupRecord r;
    r.statusBits = number("status_bits");
    r.cashableExpirationDays = number("cashable_expiration_days");
    r.restrictedExpirationDays = number("restricted_expiration_days");
    r.hostId = number("host_id");
    r.location = optionalStringField(body, "location");
    r.address1 = optionalStringField(body, "address1");
    r.address2 = optionalStringField(body, "address2");
    return r;
}

json toBody(const SasRecordReadRecord& record) {
    return json{{"validation", record.validation}};
}

json toBody(const SasLegacyBonusReadRecord& record) {
    return json{{"serial", record.serial}};
}

SasLegacyBonusReadRecord fromBody(const json& body, std::type_identity<SasLegacyBonusReadRecord>) {
    return SasLegacyBonusReadRecord{static_cast<std::uint64_t>(integerField(body, "serial", 0, kMaxInt64))};
}

json toBody(const ClockSetRecord& record) {
    return json{{"from_ms", record.fromMs}, {"to_ms", record.toMs}, {"offset_ms", record.offsetMs}};
}

ClockSetRecord fromBody(const json& body, std::type_identity<ClockSetRecord>) {
    ClockSetRecord r;
    r.offsetMs = integerField(body, "offset_ms", -kMaxClockOffsetMs, kMaxClockOffsetMs);
    r.fromMs = unrefusedMs(body, "from_ms");
    r.toMs = unrefusedMs(body, "to_ms");
    return r;
}

json carriedSasJson(const CarriedSasState& state) {
    json validation = json::object();
    json hostEnabled = json::object();
    json ticketSetup = json::object();
    json issued = json::object();
    json unread = json::object();
    json redemption = json::object();
    for (const auto& [station, id] : state.validation) {
        validation[std::to_string(station)] = toBody(id);
    }
    for (const auto& [station, enabled] : state.hostEnabled) {
        hostEnabled[std::to_string(station)] = enabled;
    }
    for (const auto& [station, setup] : state.ticketSetup) {
        ticketSetup[std::to_string(station)] = toBody(setup);
    }
    for (const auto& [station, tickets] : state.issued) {
        json list = json::array();
        for (const CarriedSasState::IssuedTicket& t : tickets) {
            list.push_back(json{{"at_ms", t.atMs}, {"ticket", toBody(t.ticket)}});
        }
        issued[std::to_string(station)] = std::move(list);
    }
    for (const auto& [station, n] : state.unread) {
        unread[std::to_string(station)] = n;
    }
    for (const auto& [station, last] : state.lastRedemption) {
        redemption[std::to_string(station)] = json{{"validation", last.validation}, {"amount", last.amount}};
    }
    json out{{"validation", std::move(validation)},
             {"host_enabled", std::move(hostEnabled)},
             {"ticket_setup", std::move(ticketSetup)},
             {"issued", std::move(issued)},
             {"unread", std::move(unread)},
             {"last_redemption", std::move(redemption)}};
    // Only once a station has them: a segment of a floor without games or B7 carries what it did.
    if (!state.selectedGame.empty()) {
        json selected = json::object();
        for (const auto& [station, game] : state.selectedGame) {
            selected[std::to_string(station)] = game;
        }
        out["selected_game"] = std::move(selected);
    }
    if (!state.machineNumbers.empty()) {
        json numbers = json::object();
        for (const auto& [station, record] : state.machineNumbers) {
            numbers[std::to_string(station)] = toBody(record);
        }
        out["machine_numbers"] = std::move(numbers);
    }
    if (!state.aft.empty()) {
        json aft = json::object();
        for (const auto& [station, stationState] : state.aft) {
            aft[std::to_string(station)] = aftStateJson(stationState);
        }
        out["aft"] = std::move(aft);
    }
    if (!state.legacyBonus.empty()) {
        json bonus = json::object();
        for (const auto& [station, awarded] : state.legacyBonus) {
            bonus[std::to_string(station)] = toBody(awarded);
        }
        out["legacy_bonus"] = std::move(bonus);
    }
    return out;
}

CarriedSasState carriedSasFromJson(const json& sas) {
    CarriedSasState state;
    for (const auto& [station, id] : objectField(sas, "validation").items()) {
        state.validation[stationKey(station)] = readBody<SasValidationIdRecord>(id);
    }
    for (const auto& [station, enabled] : objectField(sas, "host_enabled").items()) {
        if (!enabled.is_boolean()) {
            throw BodyError("\"host_enabled\" of station " + station + " must be true or false");
        }
        state.hostEnabled[stationKey(station)] = enabled.get<bool>();
    }
    for (const auto& [station, setup] : objectField(sas, "ticket_setup").items()) {
        state.ticketSetup[stationKey(station)] = readBody<SasTicketSetupRecord>(setup);
    }
    for (const auto& [station, tickets] : objectField(sas, "issued").items()) {
        std::vector<CarriedSasState::IssuedTicket>& list = state.issued[stationKey(station)];
        for (const json& entry : tickets) {
            TicketIssuedRecord ticket = readBody<TicketIssuedRecord>(objectField(entry, "ticket"));
            list.push_back({integerField(entry, "at_ms", 0, kMaxInt64), std::move(ticket)});
        }
    }
    for (const auto& [station, n] : objectField(sas, "unread").items()) {
        state.unread[stationKey(station)] =
            integerValue(n, "\"unread\" of station " + station, 0, static_cast<std::int64_t>(kSasTicketRecordsKept));
    }
    for (const auto& [station, last] : objectField(sas, "last_redemption").items()) {
        state.lastRedemption[stationKey(station)] = {stringField(last, "validation"),
                                                     integerField(last, "amount", 0, kMaxInt64)};
    }
    if (sas.contains("selected_game")) {
        for (const auto& [station, game] : objectField(sas, "selected_game").items()) {
            state.selectedGame[stationKey(station)] =
                integerValue(game, "\"selected_game\" of station " + station, 0, 9999);
        }
    }
    if (sas.contains("machine_numbers")) {
        for (const auto& [station, numbers] : objectField(sas, "machine_numbers").items()) {
            state.machineNumbers[stationKey(station)] = readBody<SasMachineNumbersRecord>(numbers);
        }
    }
    if (sas.contains("aft")) {
        for (const auto& [station, aft] : objectField(sas, "aft").items()) {
            state.aft[stationKey(station)] = aftStateFromJson(aft);
        }
    }
    if (sas.contains("legacy_bonus")) {
        for (const auto& [station, awarded] : objectField(sas, "legacy_bonus").items()) {
            state.legacyBonus[stationKey(station)] = readBody<SasExceptionRecord>(awarded);
        }
    }
    return state;
}

std::optional<CarriedSasState> carriedSasOf(const json& segmentCarried) {
    if (!segmentCarried.contains("sas")) {
        return std::nullopt;
    }
    return carriedSasFromJson(objectField(segmentCarried, "sas"));
}

}  // namespace pitlink::journal
