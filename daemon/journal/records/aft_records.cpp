#include "daemon/journal/records/aft_records.h"

#include <algorithm>
#include <cstdio>
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

// A local date as the records write it, "YYYY-MM-DD" (years 1-9999, leap years Gregorian).
struct Ymd {
    int year = 0;
    int month = 0;
    int day = 0;
};

bool realDate(const Ymd& d) {
    constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (d.year < 1 || d.year > 9999 || d.month < 1 || d.month > 12 || d.day < 1) {
        return false;
    }
    const bool leap = (d.year % 4 == 0 && d.year % 100 != 0) || d.year % 400 == 0;
    return d.day <= (d.month == 2 && leap ? 29 : kDays[d.month - 1]);
}

std::optional<Ymd> ymdOf(std::string_view text) {
    const auto digits = [&text](std::size_t from, std::size_t n) {
        int value = 0;
        for (std::size_t i = from; i < from + n; ++i) {
            if (text[i] < '0' || text[i] > '9') {
                return -1;
            }
            value = value * 10 + (text[i] - '0');
        }
        return value;
    };
    if (text.size() < 10 || text[4] != '-' || text[7] != '-') {
        return std::nullopt;
    }
    const Ymd d{digits(0, 4), digits(5, 2), digits(8, 2)};
    return realDate(d) ? std::optional<Ymd>(d) : std::nullopt;
}

std::string textOf(const Ymd& d) {
    char text[16];
    std::snprintf(text, sizeof text, "%04d-%02d-%02d", d.year, d.month, d.day);
    return text;
}

// `d` + `days` (H. Hinnant's days_from_civil and civil_from_days, as protocols/sas/aft_expiration.cpp).
Ymd daysAfter(const Ymd& d, std::int64_t days) {
    const std::int64_t y = d.year - (d.month <= 2 ? 1 : 0);
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const std::int64_t yoe = y - era * 400;
    const std::int64_t doy = (153 * (d.month + (d.month > 2 ? -3 : 9)) + 2) / 5 + d.day - 1;
    std::int64_t z = era * 146'097 + yoe * 365 + yoe / 4 - yoe / 100 + doy + days;
    const std::int64_t era2 = (z >= 0 ? z : z - 146'096) / 146'097;
    z -= era2 * 146'097;
    const std::int64_t yoe2 = (z - z / 1460 + z / 36'524 - z / 146'096) / 365;
    const std::int64_t doy2 = z - (365 * yoe2 + yoe2 / 4 - yoe2 / 100);
    const std::int64_t mp = (5 * doy2 + 2) / 153;
    const auto month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    return Ymd{static_cast<int>(yoe2 + era2 * 400 + (month <= 2 ? 1 : 0)), month,
               static_cast<int>(doy2 - (153 * mp + 2) / 5 + 1)};
}

bool restrictedIn(const AftTransferRecord& r) {
    return (r.status == 0x00 || r.status == 0x01) && r.type == 0x00 && r.moved.restricted > 0;
}

// The expiry a transfer in written before `expires` was kept resolves to, as it was read then:
// MMDDYYYY that date, 0000NNNN N days after its `at`; 0 (LP 7B's days then, not in the record), or
// no date: never.
std::optional<std::string> expiresBefore(const AftTransferRecord& r) {
    if (r.expiration == 0) {
        return std::nullopt;
    }
    if (r.expiration <= 9999) {
        const std::optional<Ymd> at = r.at ? ymdOf(*r.at) : std::nullopt;
        return at ? std::optional<std::string>(textOf(daysAfter(*at, r.expiration))) : std::nullopt;
    }
    const Ymd d{static_cast<int>(r.expiration % 10'000), static_cast<int>(r.expiration / 1'000'000),
                static_cast<int>(r.expiration / 10'000 % 100)};
    return realDate(d) ? std::optional<std::string>(textOf(d)) : std::nullopt;
}

// The restricted credits after a transfer in that moved some: its `expires` is the expiry after
// it; a record without one keeps the later of the held one and its own (never the latest), since
// the later one stays.
void takeRestricted(std::optional<AftRestricted>& held, const AftTransferRecord& r) {
    if (r.expires) {
        held = AftRestricted{r.pool, r.expires};
        return;
    }
    std::optional<std::string> expires = expiresBefore(r);
    if (held) {
        expires = !held->expires || !expires ? std::nullopt : std::optional(std::max(*held->expires, *expires));
    }
    held = AftRestricted{r.pool, expires};
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
    putIfSet(body, "expires", record.expires);
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
    if (body.contains("expires")) {
        r.expires = stringField(body, "expires");
        if (r.expires->size() != 10 || !ymdOf(*r.expires)) {
            throw BodyError("\"expires\" is not a date YYYY-MM-DD");
        }
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
    if (restrictedIn(record)) {
        takeRestricted(restricted, record);
    }
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
    if (state.restricted) {
        json restricted{{"pool", state.restricted->pool}};
        putIfSet(restricted, "expires", state.restricted->expires);
        body["restricted"] = std::move(restricted);
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
    if (body.contains("restricted")) {
        const json& restricted = objectField(body, "restricted");
        AftRestricted held{static_cast<std::uint16_t>(integerField(restricted, "pool", 0, 0xFFFF)), std::nullopt};
        if (restricted.contains("expires")) {
            held.expires = stringField(restricted, "expires");
            if (held.expires->size() != 10 || !ymdOf(*held.expires)) {
                throw BodyError("restricted \"expires\" is not a date YYYY-MM-DD");
            }
        }
        state.restricted = std::move(held);
    } else {
        // Carried before it was kept: from the transfers as they were read then (the history, then
        // the current one, ended but perhaps not acknowledged).
        for (const AftTransferRecord& entry : state.history) {
            if (restrictedIn(entry)) {
                takeRestricted(state.restricted, entry);
            }
        }
        if (state.current && restrictedIn(*state.current)) {
            takeRestricted(state.restricted, *state.current);
        }
    }
    return state;
}

}  // namespace pitlink::journal
