#include "daemon/sas/sas_resume.h"

#include <nlohmann/json.hpp>

#include "daemon/journal/record_kinds.h"

namespace pitlink::sas {

using nlohmann::json;
namespace kind = journal::kind;

json exceptionJson(const SasException& e) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string data;
    for (const std::uint8_t b : e.eventData) {
        data.push_back(kHex[b >> 4U]);
        data.push_back(kHex[b & 0x0FU]);
    }
    json j{{"code", e.code}, {"serial", e.serial}};
    if (!data.empty()) {
        j["data"] = data;
    }
    return j;
}

SasException exceptionFromJson(const json& j) {
    SasException e;
    e.code = j.at("code").get<std::uint8_t>();
    e.serial = j.at("serial").get<std::uint64_t>();
    const std::string data = j.value("data", std::string());
    for (std::size_t i = 0; i + 1 < data.size(); i += 2) {
        e.eventData.push_back(static_cast<std::uint8_t>(std::stoul(data.substr(i, 2), nullptr, 16)));
    }
    return e;
}

SasResume resumeSas(journal::JournalStore& store) {
    SasResume resume;
    // Replayed through real queues, so that overflow and priority behave as they did live.
    std::map<std::int64_t, ExceptionQueue> queues;
    auto records = store.connection().prepare(
        "SELECT kind, station, body, at_ms FROM record WHERE station IS NOT NULL AND kind IN "
        "('sas.exception', 'sas.acked', 'sas.queue', 'sas.validation_id', 'ticket.issued', 'sas.host_enabled', "
        "'sas.ticket_setup', 'sas.record_read') ORDER BY seq");
    while (records.step()) {
        const std::string k(records.text(0));
        const std::int64_t station = records.integer(1);
        const json body = json::parse(records.text(2), nullptr, false);
        if (!body.is_object()) {
            continue;  // the integrity scan has checked every body; nothing to resume from this one
        }
        try {
            if (k == kind::kSasQueue) {
                ExceptionQueue fresh;
                std::vector<SasException> pending;
                for (const json& e : body.at("pending")) {
                    pending.push_back(exceptionFromJson(e));
                }
                fresh.restore(pending);
                queues.insert_or_assign(station, std::move(fresh));
            } else if (k == kind::kSasException) {
                const SasException e = exceptionFromJson(body);
                queues[station].raise(e.code, e.eventData, e.serial);
            } else if (k == kind::kSasAcked) {
                ExceptionQueue& q = queues[station];
                for (const json& entry : body.at("acked")) {
                    const SasException acked = exceptionFromJson(entry);
                    if (q.remove(acked.serial) || acked.code != kBufferOverflow) {
                        continue;
                    }
                    // An overflow (70) is raised by the queue itself, live and in the replay,
                    // each with a serial of its own: the one the host took is the one pending.
                    for (const SasException& e : q.pending()) {
                        if (e.code == kBufferOverflow) {
                            q.remove(e.serial);
                        }
                    }
                }
            } else if (k == kind::kSasValidationId) {
                resume.validation[station] =
                    ValidationId{body.at("machine_id").get<std::uint32_t>(), body.at("sequence").get<std::uint32_t>()};
            } else if (k == kind::kSasHostEnabled) {
                resume.hostEnabled[station] = body.at("enabled").get<bool>();
            } else if (k == kind::kSasTicketSetup) {
                resume.ticketSetup[station] = body;
            } else if (k == kind::kSasRecordRead) {
                std::size_t& unread = resume.unreadRecords[station];
                unread = unread > 0 ? unread - 1 : 0;
            } else if (k == kind::kTicketIssued) {
                auto& issued = resume.issued[station];
                issued.emplace_back(body, records.integer(3));
                if (issued.size() > kRecordsKept) {
                    issued.pop_front();
                }
                std::size_t& unread = resume.unreadRecords[station];
                unread = std::min(unread + 1, kRecordsKept);
                if (body.contains("sequence") && body.contains("machine_id")) {
                    resume.validation[station] =
                        ValidationId{body.at("machine_id").get<std::uint32_t>(), body.at("sequence").get<std::uint32_t>()};
                }
            }
        } catch (const json::exception&) {
            continue;  // a malformed SAS body loses that entry only
        }
    }
    for (const auto& [station, q] : queues) {
        resume.exceptions[station] = q.pending();
    }
    auto clock = store.connection().prepare(
        "SELECT json_extract(body, '$.offset_ms') FROM record WHERE kind = 'clock.set' ORDER BY seq DESC LIMIT 1");
    if (clock.step()) {
        resume.clockOffsetMs = clock.integer(0);
    }
    return resume;
}

}  // namespace pitlink::sas
