#include "daemon/sas/sas_resume.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <set>
#include <string_view>

#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/sas_records.h"
#include "daemon/journal/resume_facts.h"
#include "daemon/sas/exception_events.h"

namespace pitlink::sas {

using nlohmann::json;
namespace kind = journal::kind;

journal::SasExceptionRecord exceptionRecordOf(const SasException& e) {
    return journal::SasExceptionRecord{e.code, e.serial, e.eventData};
}

SasException exceptionOf(const journal::SasExceptionRecord& record) {
    return SasException{record.code, record.data, record.serial};
}

journal::SasQueueRecord queueRecordOf(const std::vector<SasException>& pending) {
    journal::SasQueueRecord record;
    for (const SasException& e : pending) {
        record.pending.push_back(exceptionRecordOf(e));
    }
    return record;
}

json exceptionJson(const SasException& e) {
    return journal::toBody(exceptionRecordOf(e));
}

SasException exceptionFromJson(const json& j) {
    return exceptionOf(journal::readBody<journal::SasExceptionRecord>(j));
}

journal::CarriedSasState carriedSasState(const SasResume& resume) {
    journal::CarriedSasState carried;
    for (const auto& [station, id] : resume.validation) {
        carried.validation[station] = journal::SasValidationIdRecord{id.machineId, id.sequence};
    }
    carried.hostEnabled = resume.hostEnabled;
    carried.ticketSetup = resume.ticketSetup;
    for (const auto& [station, tickets] : resume.issued) {
        auto& list = carried.issued[station];
        for (const auto& [ticket, atMs] : tickets) {
            list.push_back(journal::CarriedSasState::IssuedTicket{atMs, ticket});
        }
    }
    for (const auto& [station, n] : resume.unreadRecords) {
        carried.unread[station] = static_cast<std::int64_t>(n);
    }
    for (const auto& [station, last] : resume.lastRedemption) {
        carried.lastRedemption[station] = journal::CarriedSasState::Redemption{last.first, last.second};
    }
    for (const auto& [station, game] : resume.selectedGame) {
        carried.selectedGame[station] = game;
    }
    carried.machineNumbers = resume.machineNumbers;
    carried.aft = resume.aft;
    carried.legacyBonus = resume.legacyBonus;
    return carried;
}

SasResume resumeOfCarried(const journal::CarriedSasState& carried) {
    SasResume resume;
    for (const auto& [station, id] : carried.validation) {
        resume.validation[station] = ValidationId{id.machineId, id.sequence};
    }
    resume.hostEnabled = carried.hostEnabled;
    resume.ticketSetup = carried.ticketSetup;
    for (const auto& [station, tickets] : carried.issued) {
        IssuedTickets& list = resume.issued[station];
        for (const journal::CarriedSasState::IssuedTicket& t : tickets) {
            list.emplace_back(t.ticket, t.atMs);
        }
        while (list.size() > kRecordsKept) {
            list.pop_front();
        }
    }
    for (const auto& [station, n] : carried.unread) {
        resume.unreadRecords[station] = static_cast<std::size_t>(n);
    }
    for (const auto& [station, last] : carried.lastRedemption) {
        resume.lastRedemption[station] = {last.validation, last.amount};
    }
    for (const auto& [station, game] : carried.selectedGame) {
        resume.selectedGame[station] = static_cast<std::uint16_t>(game);
    }
    resume.machineNumbers = carried.machineNumbers;
    resume.aft = carried.aft;
    resume.legacyBonus = carried.legacyBonus;
    return resume;
}

json sasResumeJson(const SasResume& resume) {
    return journal::carriedSasJson(carriedSasState(resume));
}

SasResume sasResumeFromJson(const json& sas) {
    return resumeOfCarried(journal::carriedSasFromJson(sas));
}

SasResume resumeSas(journal::JournalStore& store) {
    SasResume resume;
    if (const auto carried = journal::carriedState(store)) {
        try {
            if (const auto sas = journal::carriedSasOf(*carried)) {
                resume = resumeOfCarried(*sas);
            }
        } catch (const json::exception& error) {
            throw journal::BodyError(std::string("the segment's carried SAS state (segment.carried): ") + error.what());
        }
    }
    // Replayed through real queues, so that overflow and priority behave as they did live.
    std::map<std::int64_t, ExceptionQueue> queues;
    // 8Cs raised and not yet known to be acknowledged: station -> serial -> game. Once one leaves
    // its queue (an acknowledgement, or a sas.queue without it) its game is the host's.
    std::map<std::int64_t, std::map<std::uint64_t, std::uint16_t>> selections;
    const auto left = [&](std::int64_t station, const ExceptionQueue& q) {
        auto& raised = selections[station];
        std::set<std::uint64_t> queued;
        for (const SasException& e : q.pending()) {
            queued.insert(e.serial);
        }
        for (auto it = raised.begin(); it != raised.end();) {
            if (queued.contains(it->first)) {
                ++it;
                continue;
            }
            resume.selectedGame[station] = it->second;  // serials in the order raised: the last wins
            it = raised.erase(it);
        }
    };
    static constexpr std::array<std::string_view, 14> kKinds{
        kind::kSasException,    kind::kSasAcked,          kind::kSasQueue,        kind::kSasValidationId,
        kind::kTicketIssued,    kind::kSasHostEnabled,    kind::kSasTicketSetup,  kind::kSasRecordRead,
        kind::kTicketRedeemed,  kind::kSasMachineNumbers, kind::kAftRegistration, kind::kAftTransfer,
        kind::kAftAcknowledged, kind::kSasLegacyBonusRead};
    journal::forEachStationRecord(store, kKinds, [&](const journal::StationRecord& stored) {
        const std::string_view k = stored.kind;
        const std::int64_t station = stored.station;
        if (!stored.body.is_object()) {
            return;  // the integrity scan has checked every body; nothing to resume from this one
        }
        try {
            if (k == kind::kSasQueue) {
                ExceptionQueue fresh;
                std::vector<SasException> pending;
                for (const journal::SasExceptionRecord& e :
                     journal::readBody<journal::SasQueueRecord>(stored.body).pending) {
                    pending.push_back(exceptionOf(e));
                }
                fresh.restore(pending);
                left(station, fresh);
                queues.insert_or_assign(station, std::move(fresh));
            } else if (k == kind::kSasException) {
                const auto raised = journal::readBody<journal::SasExceptionRecord>(stored.body);
                const SasException e = exceptionOf(raised);
                queues[station].raise(e.code, e.eventData, e.serial);
                if (const auto game = gameSelectedBy(e)) {
                    selections[station][e.serial] = *game;
                }
                if (e.code == code::kLegacyBonusAwarded) {
                    resume.legacyBonus[station] = raised;  // LP 90 reports the last one
                }
            } else if (k == kind::kSasLegacyBonusRead) {
                const auto read = journal::readBody<journal::SasLegacyBonusReadRecord>(stored.body);
                // A read names its 7C: one journaled after a newer 7C committed reads the older.
                if (const auto it = resume.legacyBonus.find(station);
                    it != resume.legacyBonus.end() && it->second.serial == read.serial) {
                    resume.legacyBonus.erase(it);
                }
            } else if (k == kind::kSasAcked) {
                // The queue is made before the body is read, as it always was: a station with a
                // refused sas.acked still has one, and a segment rotation its sas.queue.
                ExceptionQueue& q = queues[station];
                for (const journal::SasExceptionRecord& entry :
                     journal::readBody<journal::SasAckedRecord>(stored.body).acked) {
                    const SasException acked = exceptionOf(entry);
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
                left(station, q);
            } else if (k == kind::kSasValidationId) {
                const auto id = journal::readBody<journal::SasValidationIdRecord>(stored.body);
                resume.validation[station] = ValidationId{id.machineId, id.sequence};
                resume.validationIdSet[station] = ValidationId{id.machineId, id.sequence};
            } else if (k == kind::kAftRegistration) {
                resume.aft[station].apply(journal::readBody<journal::AftRegistrationRecord>(stored.body));
            } else if (k == kind::kAftTransfer) {
                resume.aft[station].apply(journal::readBody<journal::AftTransferRecord>(stored.body));
            } else if (k == kind::kAftAcknowledged) {
                resume.aft[station].apply(journal::readBody<journal::AftAcknowledgedRecord>(stored.body));
            } else if (k == kind::kSasMachineNumbers) {
                resume.machineNumbers[station] = journal::readBody<journal::SasMachineNumbersRecord>(stored.body);
            } else if (k == kind::kSasHostEnabled) {
                resume.hostEnabled[station] = journal::readBody<journal::SasHostEnabledRecord>(stored.body).enabled;
            } else if (k == kind::kSasTicketSetup) {
                resume.ticketSetup[station] = journal::readBody<journal::SasTicketSetupRecord>(stored.body);
            } else if (k == kind::kSasRecordRead) {
                std::size_t& unread = resume.unreadRecords[station];
                unread = unread > 0 ? unread - 1 : 0;
            } else if (k == kind::kTicketRedeemed) {
                const auto redeemed = journal::readBody<journal::TicketRedeemedRecord>(stored.body);
                if (redeemed.host) {
                    resume.lastRedemption[station] = {redeemed.validation, redeemed.amount};
                }
            } else if (k == kind::kTicketIssued) {
                const auto ticket = journal::readBody<journal::TicketIssuedRecord>(stored.body);
                auto& issued = resume.issued[station];
                issued.emplace_back(ticket, stored.atMs);
                if (issued.size() > kRecordsKept) {
                    issued.pop_front();
                }
                std::size_t& unread = resume.unreadRecords[station];
                unread = std::min(unread + 1, kRecordsKept);
                if (ticket.print.machineId && ticket.print.sequence) {  // secure enhanced: its ID and sequence
                    resume.validation[station] = ValidationId{static_cast<std::uint32_t>(*ticket.print.machineId),
                                                              static_cast<std::uint32_t>(*ticket.print.sequence)};
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
