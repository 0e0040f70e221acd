#pragma once
// What the daemon resumes at start that is not in the ledger's snapshots, read from the journal
// with one query each (the journal owns its SQL: no other folder writes a statement). Each reader
// gives typed facts; a body whose fields do not fit stops the start-up with journal::BodyError
// naming the record, as everywhere else.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/journal/fact_views.h"
#include "daemon/journal/journal_store.h"

namespace pitlink::journal {

// The number of the last shoe started, if any.
[[nodiscard]] std::optional<std::uint32_t> lastShoeNumber(JournalStore& store);
// How many tickets were ever issued (the next ticket's number is one more).
[[nodiscard]] std::int64_t ticketsIssued(JournalStore& store);

// Stations whose last hand-pay record is a pending one: they stay locked across a restart.
[[nodiscard]] std::map<std::int64_t, HandpayFact> lockedHandpays(JournalStore& store);
// Stations whose last attendant record is a call not yet cleared.
[[nodiscard]] std::set<std::int64_t> openAttendantCalls(JournalStore& store);

// The table clock's offset from the last clock.set (0 when there is none).
[[nodiscard]] std::int64_t lastClockOffsetMs(JournalStore& store);

// One record about a station, for a resume that replays them in journal order.
struct StationRecord {
    std::string_view kind;
    std::int64_t station = 0;
    const nlohmann::json& body;  // discarded (not an object) when it did not parse
    std::int64_t atMs = 0;
};
// Every record of these kinds that names a station, in journal order.
void forEachStationRecord(JournalStore& store, std::span<const std::string_view> kinds,
                          const std::function<void(const StationRecord&)>& visit);

// The rounds of one shoe, in order.
[[nodiscard]] std::vector<std::int64_t> roundsOfShoe(JournalStore& store, std::int64_t shoe);

}  // namespace pitlink::journal
