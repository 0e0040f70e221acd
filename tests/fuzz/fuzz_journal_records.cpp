// Fuzz target: journal records as a damaged or hostile journal file could hold them, through
// everything that reads records: the ledger replay (credits, meters, snapshots), the round
// reconstruction used by recovery and recall, the recall JSON, and the journaled paytable
// decoder; and the audit's record checks, once over every record and once split in two halves
// joined as the audit joins segments read beside each other (RecordAuditor::absorb): when the join
// is taken, the report must be the one pass's. Input: lines "kind<TAB>round<TAB>station<TAB>body".
// Anything may be refused with an error; nothing may crash, hang or read out of bounds.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "daemon/journal/ledger/ledger_replay.h"
#include "daemon/journal/read/audit.h"
#include "daemon/journal/read/recall.h"
#include "daemon/journal/read/record_audit.h"
#include "daemon/journal/read/round_history.h"
#include "daemon/journal/records/paytable_codec.h"

namespace {

std::optional<std::int64_t> optionalNumber(const std::string& text) {
    if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos) {
        return std::nullopt;
    }
    return std::stoll(text);
}

// Visits records[from, to) until the first problem; whether one was found.
bool visitAll(pitlink::journal::RecordAuditor& auditor, const std::vector<pitlink::journal::JournalRecord>& records,
              std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
        if (!auditor.visit(records[i]).empty()) {
            return true;
        }
    }
    return false;
}

std::string reportOf(pitlink::journal::RecordAuditor& auditor) {
    pitlink::journal::AuditReport report;
    auditor.finish(report);
    return pitlink::journal::auditReportJson(report).dump();
}

// One pass against the two halves joined.
void checkJoin(const std::vector<pitlink::journal::JournalRecord>& records) {
    using pitlink::journal::RecordAuditor;
    RecordAuditor whole(RecordAuditor::Start::FromFirst);
    (void)visitAll(whole, records, 0, records.size());
    const std::size_t half = records.size() / 2;
    RecordAuditor first(RecordAuditor::Start::FromFirst);
    if (visitAll(first, records, 0, half)) {
        return;  // the audit stops in the first half: the second is never joined
    }
    RecordAuditor second(RecordAuditor::Start::Unknown);
    (void)visitAll(second, records, half, records.size());
    if (first.absorb(std::move(second)) && reportOf(first) != reportOf(whole)) {
        std::abort();  // joined, yet not what one pass reports
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace pitlink::journal;
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    std::vector<JournalRecord> records;
    std::string line;
    std::int64_t seq = 0;
    while (std::getline(in, line) && records.size() < 64) {
        std::vector<std::string> fields;
        std::size_t start = 0;
        for (int i = 0; i < 3; ++i) {
            const std::size_t tab = line.find('\t', start);
            if (tab == std::string::npos) {
                break;
            }
            fields.push_back(line.substr(start, tab - start));
            start = tab + 1;
        }
        if (fields.size() != 3) {
            continue;
        }
        records.push_back(JournalRecord{
            ++seq, 0, fields[0], optionalNumber(fields[1]), optionalNumber(fields[2]), line.substr(start), {}});
    }
    LedgerReplay replay;
    for (const JournalRecord& record : records) {
        if (!replay.visit(record).empty()) {
            break;
        }
        const auto body = nlohmann::json::parse(record.body, nullptr, false);
        if (record.kind == "paytable.loaded" && body.is_object() && body.contains("content")) {
            try {
                (void)paytableFromJson(body["content"]);
            } catch (const std::invalid_argument&) {
            }
        }
    }
    (void)replay.ledger().toJson();
    checkJoin(records);
    try {
        RecalledRound recalled{reconstructRound(records), {}};
        (void)recalledRoundJson(recalled);
        std::string problem;
        (void)completeCoup(recalled.round.cards, problem);
    } catch (const std::invalid_argument&) {
    }
    return 0;
}
