#include "daemon/sas/sas_resume.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <string_view>

#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/fact_views.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/resume_facts.h"
#include "daemon/sas/ticket_setup_json.h"

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
    e.code = static_cast<std::uint8_t>(journal::integerField(j, "code", 0, 0xFF));
    e.serial = static_cast<std::uint64_t>(journal::integerField(j, "serial", 0, journal::kMaxInt64));
    const std::string data = journal::optionalStringField(j, "data").value_or(std::string());
    const auto bytes = journal::fromHex(data);
    if (!bytes) {
        throw journal::BodyError("\"data\" must be bytes in hexadecimal, not \"" + data.substr(0, 40) + "\"");
    }
    e.eventData = *bytes;
    return e;
}

namespace {

ValidationId validationIdOf(const json& body) {
    constexpr std::int64_t kMax = std::numeric_limits<std::uint32_t>::max();
    return ValidationId{static_cast<std::uint32_t>(journal::integerField(body, "machine_id", 0, kMax)),
                        static_cast<std::uint32_t>(journal::integerField(body, "sequence", 0, kMax))};
}

json validationIdJson(const ValidationId& id) {
    return json{{"machine_id", id.machineId}, {"sequence", id.sequence}};
}

}  // namespace

json sasResumeJson(const SasResume& resume) {
    json validation = json::object();
    json hostEnabled = json::object();
    json ticketSetup = json::object();
    json issued = json::object();
    json unread = json::object();
    json redemption = json::object();
    for (const auto& [station, id] : resume.validation) {
        validation[std::to_string(station)] = validationIdJson(id);
    }
    for (const auto& [station, enabled] : resume.hostEnabled) {
        hostEnabled[std::to_string(station)] = enabled;
    }
    for (const auto& [station, setup] : resume.ticketSetup) {
        ticketSetup[std::to_string(station)] = setup;
    }
    for (const auto& [station, tickets] : resume.issued) {
        json list = json::array();
        for (const auto& [body, atMs] : tickets) {
            list.push_back(json{{"at_ms", atMs}, {"ticket", body}});
        }
        issued[std::to_string(station)] = std::move(list);
    }
    for (const auto& [station, n] : resume.unreadRecords) {
        unread[std::to_string(station)] = n;
    }
    for (const auto& [station, last] : resume.lastRedemption) {
        redemption[std::to_string(station)] = json{{"validation", last.first}, {"amount", last.second}};
    }
    return json{{"validation", std::move(validation)},
                {"host_enabled", std::move(hostEnabled)},
                {"ticket_setup", std::move(ticketSetup)},
                {"issued", std::move(issued)},
                {"unread", std::move(unread)},
                {"last_redemption", std::move(redemption)}};
}

SasResume sasResumeFromJson(const json& sas) {
    SasResume resume;
    for (const auto& [station, id] : journal::objectField(sas, "validation").items()) {
        resume.validation[journal::stationKey(station)] = validationIdOf(id);
    }
    for (const auto& [station, enabled] : journal::objectField(sas, "host_enabled").items()) {
        if (!enabled.is_boolean()) {
            throw journal::BodyError("\"host_enabled\" of station " + station + " must be true or false");
        }
        resume.hostEnabled[journal::stationKey(station)] = enabled.get<bool>();
    }
    for (const auto& [station, setup] : journal::objectField(sas, "ticket_setup").items()) {
        (void)ticketSetupFromJson(setup, {});  // refuses a field that does not fit
        resume.ticketSetup[journal::stationKey(station)] = setup;
    }
    for (const auto& [station, tickets] : journal::objectField(sas, "issued").items()) {
        IssuedTickets& list = resume.issued[journal::stationKey(station)];
        for (const json& entry : tickets) {
            const json& body = journal::objectField(entry, "ticket");
            (void)validationRecordOf(body);
            list.emplace_back(body, journal::integerField(entry, "at_ms", 0, journal::kMaxInt64));
        }
        while (list.size() > kRecordsKept) {
            list.pop_front();
        }
    }
    for (const auto& [station, n] : journal::objectField(sas, "unread").items()) {
        resume.unreadRecords[journal::stationKey(station)] = static_cast<std::size_t>(
            journal::integerValue(n, "\"unread\" of station " + station, 0, static_cast<std::int64_t>(kRecordsKept)));
    }
    for (const auto& [station, last] : journal::objectField(sas, "last_redemption").items()) {
        resume.lastRedemption[journal::stationKey(station)] = {
            journal::stringField(last, "validation"), journal::integerField(last, "amount", 0, journal::kMaxInt64)};
    }
    return resume;
}

SasResume resumeSas(journal::JournalStore& store) {
    SasResume resume;
    if (const auto carried = journal::carriedState(store); carried && carried->contains("sas")) {
        try {
            resume = sasResumeFromJson(journal::objectField(*carried, "sas"));
        } catch (const json::exception& error) {
            throw journal::BodyError(std::string("the segment's carried SAS state (segment.carried): ") + error.what());
        }
    }
    // Replayed through real queues, so that overflow and priority behave as they did live.
    std::map<std::int64_t, ExceptionQueue> queues;
    static constexpr std::array<std::string_view, 9> kKinds{
        kind::kSasException,   kind::kSasAcked,       kind::kSasQueue,      kind::kSasValidationId, kind::kTicketIssued,
        kind::kSasHostEnabled, kind::kSasTicketSetup, kind::kSasRecordRead, kind::kTicketRedeemed};
    journal::forEachStationRecord(store, kKinds, [&](const journal::StationRecord& record) {
        const std::string_view k = record.kind;
        const std::int64_t station = record.station;
        const json& body = record.body;
        if (!body.is_object()) {
            return;  // the integrity scan has checked every body; nothing to resume from this one
        }
        try {
            if (k == kind::kSasQueue) {
                ExceptionQueue fresh;
                std::vector<SasException> pending;
                for (const json& e : journal::arrayField(body, "pending")) {
                    pending.push_back(exceptionFromJson(e));
                }
                fresh.restore(pending);
                queues.insert_or_assign(station, std::move(fresh));
            } else if (k == kind::kSasException) {
                const SasException e = exceptionFromJson(body);
                queues[station].raise(e.code, e.eventData, e.serial);
            } else if (k == kind::kSasAcked) {
                ExceptionQueue& q = queues[station];
                for (const json& entry : journal::arrayField(body, "acked")) {
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
                resume.validation[station] = validationIdOf(body);
            } else if (k == kind::kSasHostEnabled) {
                resume.hostEnabled[station] = journal::booleanField(body, "enabled");
            } else if (k == kind::kSasTicketSetup) {
                (void)ticketSetupFromJson(body, {});  // refuses a field that does not fit
                resume.ticketSetup[station] = body;
            } else if (k == kind::kSasRecordRead) {
                std::size_t& unread = resume.unreadRecords[station];
                unread = unread > 0 ? unread - 1 : 0;
            } else if (k == kind::kTicketRedeemed) {
                const journal::TicketRedeemedFact redeemed = journal::ticketRedeemedFact(body);
                if (redeemed.host) {
                    resume.lastRedemption[station] = {redeemed.validation, redeemed.amount};
                }
            } else if (k == kind::kTicketIssued) {
                (void)validationRecordOf(body);  // refuses a field that does not fit
                auto& issued = resume.issued[station];
                issued.emplace_back(body, record.atMs);
                if (issued.size() > kRecordsKept) {
                    issued.pop_front();
                }
                std::size_t& unread = resume.unreadRecords[station];
                unread = std::min(unread + 1, kRecordsKept);
                if (body.contains("sequence") && body.contains("machine_id")) {
                    resume.validation[station] = validationIdOf(body);
                }
            }
        } catch (const json::exception&) {
            // a malformed SAS body, or one whose fields do not fit, loses that entry only
        }
    });
    for (const auto& [station, q] : queues) {
        resume.exceptions[station] = q.pending();
    }
    return resume;
}

}  // namespace pitlink::sas
