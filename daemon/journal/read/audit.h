#pragma once
// The inspector's audit: the whole chain verified (first bad record reported), every meter and
// credit recomputed from the records and compared with every stored snapshot, and every round
// checked for completeness (each bet settled or returned exactly once, credits matching).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/journal/ledger/ledger.h"
#include "daemon/journal/segments/segmented_journal.h"
#include "daemon/journal/store/chain_verifier.h"

namespace pitlink::journal {

struct AuditReport {
    ChainCheck chain;
    int snapshotsCompared = 0;
    std::int64_t roundsChecked = 0;
    // A controller of several games: the rounds checked of each game (those naming none are the
    // first game's and counted in roundsChecked only).
    std::map<std::string, std::int64_t> roundsByGame;
    std::vector<std::string> roundProblems;
    Ledger ledger;  // recomputed from every record
    // Segments read beside the others whose records had to be read again in order (auditJournal
    // with threads > 1): their opening snapshot was not where the records before left the meters.
    int segmentsReadAgain = 0;
    [[nodiscard]] bool ok() const { return chain.ok && roundProblems.empty(); }
};

// Across every segment: each segment's seal checked against the segment before it (its last record
// and link, the carried facts recomputed from it), the chain and the meters followed on.
// `threads` > 1: the segments are read beside each other on that many threads (each its own
// connection), each from its seal and opening snapshot, and joined in order to the same report.
[[nodiscard]] AuditReport auditJournal(SegmentedJournal& journal, unsigned threads = 1);

// The same audit of records that come one by one, in order, from wherever they are kept (the
// floor's server: pitlink-floor-audit): each link recomputed (HMAC with `key` when given), each
// seal naming the record before it, meters replayed against every snapshot (from the first
// snapshot on when the records do not start at 1), every round. What a stream cannot check is
// the facts a segment carried over (they need the segment before it as a journal).
class StreamAudit {
public:
    explicit StreamAudit(std::optional<std::vector<std::uint8_t>> key, std::int64_t firstSeq = 1,
                         const Digest& before = kGenesisDigest);
    ~StreamAudit();
    StreamAudit(const StreamAudit&) = delete;
    StreamAudit& operator=(const StreamAudit&) = delete;
    // False once the chain broke (report().chain says where): the records after it are not looked at.
    bool visit(const JournalRecord& record);
    // The report, with the last round of each game allowed to be still running.
    [[nodiscard]] AuditReport finish();

private:
    struct State;
    std::unique_ptr<State> state_;
};
[[nodiscard]] nlohmann::json auditReportJson(const AuditReport& report);

// What the seal of segment `index` (> 0) says of the segment before it, checked against that
// segment itself: its last record and link, and the facts it carried over, recomputed from it.
// Empty when sound, else the problem. `carried`, when given: segment index-1's segment.carried
// as the call for index-1 left it, replaced by segment index's (a walk over every seal then
// reads and parses each once).
// What a segment carried over (segment.carried's "table") is what the records before it leave
// (`facts`, resumeFactsJson), allowing for what older versions did not carry: the shoe in play
// (before issue 33), the burn's face-down cards (before issue 38).
[[nodiscard]] bool carriedMatches(const nlohmann::json& carriedTable, nlohmann::json facts);

[[nodiscard]] std::string checkSegmentSeal(SegmentedJournal& journal, std::size_t index,
                                           std::optional<nlohmann::json>* carried = nullptr);

}  // namespace pitlink::journal
