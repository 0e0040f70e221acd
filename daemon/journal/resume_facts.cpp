#include "daemon/journal/resume_facts.h"

#include <limits>

#include "daemon/journal/body_fields.h"
#include "daemon/journal/record_kinds.h"

namespace pitlink::journal {

using nlohmann::json;

namespace {

// "?, ?, ?" for an IN list of `n` bound values.
std::string placeholders(std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i) {
        out += i == 0 ? "?" : ", ?";
    }
    return out;
}

// The last record of `kind`: its sequence number and body.
std::optional<std::pair<std::int64_t, std::string>> lastOfKind(JournalStore& store, std::string_view kind) {
    auto last = store.connection().prepare("SELECT seq, body FROM record WHERE kind = ? ORDER BY seq DESC LIMIT 1");
    last.bind(1, kind);
    if (!last.step()) {
        return std::nullopt;
    }
    return std::pair{last.integer(0), std::string(last.text(1))};
}

// Per station, the kind (and record) of the last record of either kind (the same twice: of one):
// station, kind, body, seq, round_id.
SqliteStatement lastPerStation(JournalStore& store, std::string_view first, std::string_view second) {
    auto query = store.connection().prepare(
        "SELECT r.station, r.kind, r.body, r.seq, r.round_id FROM record r JOIN (SELECT station, max(seq) AS seq FROM "
        "record "
        "WHERE kind IN (?, ?) AND station IS NOT NULL GROUP BY station) last ON r.seq = last.seq");
    query.bind(1, first).bind(2, second);
    return query;
}

}  // namespace

std::optional<json> carriedState(JournalStore& store) {
    // The segment opens with it: the first few records, found by sequence number.
    const std::int64_t first = store.firstSeq();
    if (first <= 1) {
        return std::nullopt;  // the first segment, or a single-file journal
    }
    auto carried = store.connection().prepare(
        "SELECT seq, body FROM record WHERE seq BETWEEN ? AND ? AND kind = 'segment.carried' ORDER BY seq LIMIT 1");
    carried.bind(1, first).bind(2, first + 1);
    if (!carried.step()) {
        return std::nullopt;
    }
    return readRecordBody(carried.integer(0), kind::kSegmentCarried, carried.text(1), [](const json& body) {
        (void)objectField(body, "table");
        return body;
    });
}

namespace {

// A hundred years either way: far beyond what the host's clock settings can add up to, and the
// table clock's arithmetic cannot overflow.
constexpr std::int64_t kMaxOffsetMs = 100LL * 366 * 24 * 3600 * 1000;

}  // namespace

ResumeFacts resumeFactsFromJson(const json& table) {
    ResumeFacts facts;
    facts.lastRoundId = optionalIntegerField(table, "last_round", 0, kMaxInt64);
    if (const auto shoe = optionalIntegerField(table, "last_shoe", 0, std::numeric_limits<std::uint32_t>::max() - 1)) {
        facts.lastShoe = static_cast<std::uint32_t>(*shoe);
    }
    facts.ticketsIssued = integerField(table, "tickets_issued", 0, kMaxInt64);
    facts.clockOffsetMs = integerField(table, "clock_offset_ms", -kMaxOffsetMs, kMaxOffsetMs);
    for (const auto& [station, lock] : objectField(table, "handpays").items()) {
        facts.handpays[stationKey(station)] = handpayFact(lock);
    }
    for (const json& station : arrayField(table, "attendant_calls")) {
        facts.attendantCalls.insert(integerValue(station, "an attendant call's station", 1, kMaxInt64));
    }
    if (table.contains("paytable")) {
        facts.paytable = objectField(table, "paytable");
    }
    if (table.contains("stations")) {  // segments sealed before issue 20 have none
        for (const auto& [station, state] : objectField(table, "stations").items()) {
            facts.stations[stationKey(station)] = stationStateFact(state);
        }
    }
    if (table.contains("disputes")) {  // the same: absent when none is open
        for (const auto& [station, dispute] : objectField(table, "disputes").items()) {
            facts.disputes[stationKey(station)] =
                DisputeFact{integerField(dispute, "round", 1, kMaxInt64), stringField(dispute, "text")};
        }
    }
    if (table.contains("reserved")) {
        for (const auto& [station, reservation] : objectField(table, "reserved").items()) {
            if (ReservationFact fact = reservationFact(reservation); fact.reserved) {  // a release carries nothing
                facts.reservations[stationKey(station)] = std::move(fact);
            }
        }
    }
    return facts;
}

json resumeFactsJson(const ResumeFacts& facts) {
    json handpays = json::object();
    for (const auto& [station, lock] : facts.handpays) {
        json body{{"amount", lock.amount}, {"kind", lock.kind}};
        if (lock.offCredits) {
            body["off_credits"] = true;
        }
        handpays[std::to_string(station)] = std::move(body);
    }
    json table{{"tickets_issued", facts.ticketsIssued},
               {"clock_offset_ms", facts.clockOffsetMs},
               {"handpays", std::move(handpays)},
               {"attendant_calls", facts.attendantCalls}};
    if (facts.lastRoundId) {
        table["last_round"] = *facts.lastRoundId;
    }
    if (facts.lastShoe) {
        table["last_shoe"] = *facts.lastShoe;
    }
    if (facts.paytable) {
        table["paytable"] = *facts.paytable;
    }
    // Absent when empty, as in segments sealed before station states existed: the audit compares
    // what a segment carried with what it recomputes, byte for byte.
    if (!facts.stations.empty()) {
        json stations = json::object();
        for (const auto& [station, state] : facts.stations) {
            stations[std::to_string(station)] = stationStateJson(state);
        }
        table["stations"] = std::move(stations);
    }
    if (!facts.disputes.empty()) {
        json disputes = json::object();
        for (const auto& [station, dispute] : facts.disputes) {
            disputes[std::to_string(station)] = json{{"round", dispute.round}, {"text", dispute.text}};
        }
        table["disputes"] = std::move(disputes);
    }
    if (!facts.reservations.empty()) {
        json reserved = json::object();
        for (const auto& [station, reservation] : facts.reservations) {
            reserved[std::to_string(station)] = reservationJson(reservation);
        }
        table["reserved"] = std::move(reserved);
    }
    return table;
}

ResumeFacts resumeFacts(JournalStore& store) {
    ResumeFacts facts;
    if (const auto carried = carriedState(store)) {
        try {
            facts = resumeFactsFromJson(objectField(*carried, "table"));
        } catch (const json::exception& error) {
            throw BodyError(std::string("the segment's carried state (segment.carried): ") + error.what());
        }
    }
    if (const auto round = store.lastRoundId()) {
        facts.lastRoundId = round;
    }
    if (const auto last = lastOfKind(store, kind::kShoeStarted)) {
        facts.lastShoe = readRecordBody(last->first, kind::kShoeStarted, last->second, [](const json& body) {
            return static_cast<std::uint32_t>(
                integerField(body, "shoe", 0, std::numeric_limits<std::uint32_t>::max() - 1));
        });
    }
    {
        auto count = store.connection().prepare("SELECT count(*) FROM record WHERE kind = 'ticket.issued'");
        count.step();
        facts.ticketsIssued += count.integer(0);
    }
    if (const auto last = lastOfKind(store, kind::kClockSet)) {
        facts.clockOffsetMs = readRecordBody(last->first, kind::kClockSet, last->second, [](const json& body) {
            return integerField(body, "offset_ms", -kMaxOffsetMs, kMaxOffsetMs);
        });
    }
    {
        auto last = lastPerStation(store, kind::kHandpayPending, kind::kHandpayReset);
        while (last.step()) {
            if (last.text(1) == kind::kHandpayPending) {
                facts.handpays[last.integer(0)] =
                    readRecordBody(last.integer(3), kind::kHandpayPending, last.text(2), handpayFact);
            } else {
                facts.handpays.erase(last.integer(0));
            }
        }
    }
    {
        auto last = lastPerStation(store, kind::kAttendantCalled, kind::kAttendantCleared);
        while (last.step()) {
            if (last.text(1) == kind::kAttendantCalled) {
                facts.attendantCalls.insert(last.integer(0));
            } else {
                facts.attendantCalls.erase(last.integer(0));
            }
        }
    }
    {
        auto last = lastPerStation(store, kind::kStationState, kind::kStationState);
        while (last.step()) {
            facts.stations[last.integer(0)] =
                readRecordBody(last.integer(3), kind::kStationState, last.text(2), stationStateFact);
        }
    }
    {
        auto last = lastPerStation(store, kind::kDisputeRaised, kind::kDisputeResolved);
        while (last.step()) {
            // Journals before issue 20 noted disputes without holding the table (no "held").
            const auto held = last.text(1) == kind::kDisputeRaised && !last.isNull(4)
                                  ? readRecordBody(last.integer(3), kind::kDisputeRaised, last.text(2),
                                                   [](const json& body) {
                                                       return body.contains("held") && booleanField(body, "held")
                                                                  ? std::optional(stringField(body, "text"))
                                                                  : std::nullopt;
                                                   })
                                  : std::nullopt;
            if (held) {
                facts.disputes[last.integer(0)] = DisputeFact{last.integer(4), *held};
            } else {
                facts.disputes.erase(last.integer(0));
            }
        }
    }
    {
        auto last = lastPerStation(store, kind::kStationReserved, kind::kStationReserved);
        while (last.step()) {
            const ReservationFact reservation =
                readRecordBody(last.integer(3), kind::kStationReserved, last.text(2), reservationFact);
            if (reservation.reserved && reservation.untilMs > 0) {  // before issue 20 a reservation locked nothing
                facts.reservations[last.integer(0)] = reservation;
            } else {
                facts.reservations.erase(last.integer(0));
            }
        }
    }
    if (const auto last = lastOfKind(store, kind::kPaytableLoaded)) {
        facts.paytable = readRecordBody(last->first, kind::kPaytableLoaded, last->second, [](const json& body) {
            (void)objectField(body, "content");
            return body;
        });
    }
    return facts;
}

void forEachStationRecord(JournalStore& store, std::span<const std::string_view> kinds,
                          const std::function<void(const StationRecord&)>& visit) {
    auto records = store.connection().prepare(
        "SELECT kind, station, body, at_ms FROM record WHERE station IS NOT NULL "
        "AND kind IN (" +
        placeholders(kinds.size()) + ") ORDER BY seq");
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        records.bind(static_cast<int>(i) + 1, kinds[i]);
    }
    while (records.step()) {
        const json body = json::parse(records.text(2), nullptr, false);
        visit(StationRecord{records.text(0), records.integer(1), body, records.integer(3)});
    }
}

std::vector<std::int64_t> roundsOfShoe(SegmentedJournal& journal, std::int64_t shoe) {
    // The newest segment first; a shoe's rounds lie in one segment or a few consecutive ones.
    std::vector<std::int64_t> rounds;
    for (std::size_t i = journal.size(); i-- > 0;) {
        auto query = journal.segment(i).connection().prepare(
            "SELECT round_id FROM record WHERE kind = 'round.opened' AND json_extract(body, '$.shoe') = ? "
            "ORDER BY round_id");
        query.bind(1, shoe);
        std::vector<std::int64_t> part;
        while (query.step()) {
            part.push_back(query.integer(0));
        }
        if (part.empty() && !rounds.empty()) {
            break;
        }
        rounds.insert(rounds.begin(), part.begin(), part.end());
    }
    return rounds;
}

}  // namespace pitlink::journal
