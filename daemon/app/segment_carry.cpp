#include "daemon/app/segment_carry.h"

#include <nlohmann/json.hpp>

#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/resume_facts.h"
#include "daemon/sas/sas_resume.h"

namespace pitlink::app {

using nlohmann::json;

std::vector<journal::PendingRecord> carryOver(journal::JournalStore& sealing, std::int64_t atMs) {
    const journal::ResumeFacts facts = journal::resumeFacts(sealing);
    const sas::SasResume sas = sas::resumeSas(sealing);
    std::vector<journal::PendingRecord> records;
    records.push_back(journal::PendingRecord{
        atMs, std::string(journal::kind::kSegmentCarried), std::nullopt, std::nullopt,
        journal::canonicalJson(json{{"table", journal::resumeFactsJson(facts)}, {"sas", sas::sasResumeJson(sas)}})});
    for (const auto& [station, pending] : sas.exceptions) {
        json list = json::array();
        for (const sas::SasException& e : pending) {
            list.push_back(sas::exceptionJson(e));
        }
        records.push_back(journal::PendingRecord{atMs, std::string(journal::kind::kSasQueue), std::nullopt, station,
                                                 journal::canonicalJson(json{{"pending", std::move(list)}})});
    }
    return records;
}

}  // namespace pitlink::app
