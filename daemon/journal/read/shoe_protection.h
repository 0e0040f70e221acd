#pragma once
// A shoe's game protection as its journal holds it (issue 38; docs/protection.md), for
// `pitlinkctl protection --shoe N` and its picture: each shoe.edge of the shoe, the bets that stood
// in each of its rounds, and the stations reported. Read on the journal reader's worker.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "daemon/journal/records/protection_records.h"
#include "daemon/journal/segments/segmented_journal.h"

namespace pitlink::journal {

struct ShoeProtection {
    std::int64_t shoe = 0;
    std::string game;                   // its rounds' game (empty: the one game of the controller)
    std::vector<ShoeEdgeRecord> edges;  // in journal order (an edge computed again after a restart too)
    std::int64_t rounds = 0;            // rounds opened from it
    // station -> round in shoe -> side bet -> stake, of the bets that stood when the round ended
    std::map<std::int64_t, std::map<std::int64_t, std::map<std::string, std::int64_t>>> stakes;
    std::vector<std::pair<std::int64_t, ProtectionAlertRecord>> alerts;  // (station, alert)
};

// Throws std::runtime_error when the journal has no round and no edge of the shoe.
[[nodiscard]] ShoeProtection shoeProtection(SegmentedJournal& journal, std::int64_t shoe);

}  // namespace pitlink::journal
