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

// Per station, the kind (and record) of the last record of either kind.
SqliteStatement lastPerStation(JournalStore& store, std::string_view first, std::string_view second) {
    auto query = store.connection().prepare(
        "SELECT r.station, r.kind, r.body, r.seq FROM record r JOIN (SELECT station, max(seq) AS seq FROM record "
        "WHERE kind IN (?, ?) AND station IS NOT NULL GROUP BY station) last ON r.seq = last.seq");
    query.bind(1, first).bind(2, second);
    return query;
}

}  // namespace

std::optional<std::uint32_t> lastShoeNumber(JournalStore& store) {
    const auto last = lastOfKind(store, kind::kShoeStarted);
    if (!last) {
        return std::nullopt;
    }
    return readRecordBody(last->first, kind::kShoeStarted, last->second, [](const json& body) {
        return static_cast<std::uint32_t>(integerField(body, "shoe", 0, std::numeric_limits<std::uint32_t>::max() - 1));
    });
}

std::int64_t ticketsIssued(JournalStore& store) {
    auto count = store.connection().prepare("SELECT count(*) FROM record WHERE kind = ?");
    count.bind(1, kind::kTicketIssued);
    count.step();
    return count.integer(0);
}

std::map<std::int64_t, HandpayFact> lockedHandpays(JournalStore& store) {
    std::map<std::int64_t, HandpayFact> locked;
    auto last = lastPerStation(store, kind::kHandpayPending, kind::kHandpayReset);
    while (last.step()) {
        if (last.text(1) == kind::kHandpayPending) {
            locked[last.integer(0)] = readRecordBody(last.integer(3), kind::kHandpayPending, last.text(2), handpayFact);
        }
    }
    return locked;
}

std::set<std::int64_t> openAttendantCalls(JournalStore& store) {
    std::set<std::int64_t> open;
    auto last = lastPerStation(store, kind::kAttendantCalled, kind::kAttendantCleared);
    while (last.step()) {
        if (last.text(1) == kind::kAttendantCalled) {
            open.insert(last.integer(0));
        }
    }
    return open;
}

std::int64_t lastClockOffsetMs(JournalStore& store) {
    // A hundred years either way: far beyond what the host's clock settings can add up to, and
    // the table clock's arithmetic cannot overflow.
    constexpr std::int64_t kMaxOffsetMs = 100LL * 366 * 24 * 3600 * 1000;
    const auto last = lastOfKind(store, kind::kClockSet);
    if (!last) {
        return 0;
    }
    return readRecordBody(last->first, kind::kClockSet, last->second, [](const json& body) {
        return integerField(body, "offset_ms", -kMaxOffsetMs, kMaxOffsetMs);
    });
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

std::vector<std::int64_t> roundsOfShoe(JournalStore& store, std::int64_t shoe) {
    std::vector<std::int64_t> rounds;
    auto query = store.connection().prepare(
        "SELECT round_id FROM record WHERE kind = ? AND json_extract(body, '$.shoe') = ? ORDER BY round_id");
    query.bind(1, kind::kRoundOpened).bind(2, shoe);
    while (query.step()) {
        rounds.push_back(query.integer(0));
    }
    return rounds;
}

}  // namespace pitlink::journal
