#include "daemon/app/segment_carry.h"

#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/sas_records.h"
#include "daemon/journal/resume_facts.h"
#include "daemon/sas/sas_resume.h"

namespace pitlink::app {

std::vector<journal::PendingRecord> carryOver(journal::JournalStore& sealing, std::int64_t atMs) {
    return carryOverFor(sealing, atMs, {});
}

std::vector<journal::PendingRecord> carryOverFor(journal::JournalStore& sealing, std::int64_t atMs,
                                                 const std::string& firstGame) {
    const journal::ResumeFacts facts = journal::resumeFacts(sealing, firstGame);
    const sas::SasResume sas = sas::resumeSas(sealing);
    std::vector<journal::PendingRecord> records;
    records.push_back(
        journal::PendingRecord{atMs, std::string(journal::kind::kSegmentCarried), std::nullopt, std::nullopt,
                               journal::canonicalJson(journal::segmentCarriedBody(facts, sas::carriedSasState(sas)))});
    for (const auto& [station, pending] : sas.exceptions) {
        const journal::SasQueueRecord queue = sas::queueRecordOf(pending);
        records.push_back(journal::PendingRecord{atMs, std::string(journal::SasQueueRecord::kKind), std::nullopt,
                                                 station, journal::canonicalJson(journal::toBody(queue))});
    }
    return records;
}

}  // namespace pitlink::app
