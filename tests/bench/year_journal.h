#pragma once
// A journal as a table makes it over months (issue 19's benchmark): rounds 30 s apart with two to
// four of eight stations betting, each bet with its credit, round.closed with the wagers, SAS 7E
// at the close and 7F at the settlement for every betting station and the host's
// acknowledgements, cards one by one, settlements; tickets out and in with their SAS events, a
// jackpot hand-pay now and then, attendant calls, a daily restart (daemon.started, journal.checked,
// config, paytable, every station's sas.queue) and the host's daily clock.set; a meters snapshot
// every 2000 records. With `segmentBytes`, the journal is rotated into segments by the daemon's
// own rotation (SegmentRotation, app::carryOver) as pitlinkd would between two rounds.
#include <cstdint>
#include <string>

namespace pitlink::bench {

struct YearJournalStats {
    std::int64_t rounds = 0;
    std::int64_t records = 0;
    std::int64_t segments = 1;
    std::int64_t ticketsOut = 0;
    std::int64_t ticketsIn = 0;
    double rotationMaxMs = 0;  // the longest rotation (the writer commits nothing meanwhile)
    double rotationMeanMs = 0;
};

YearJournalStats makeYearJournal(const std::string& path, std::int64_t rounds, std::int64_t segmentBytes,
                                 std::uint64_t seed = 11);

}  // namespace pitlink::bench
