#pragma once
// What the SAS stations resume from the journal at start: each station's unacknowledged
// exceptions (its last sas.queue, then the raises and acknowledgements after it, replayed in
// order), its secure enhanced validation ID and last sequence, whether the host has shut it down
// (LP 01 until an LP 02), its LP 4D records and what the host has read of them, its ticket setup
// (LP 7B/7C/7D), its last redemption through the host (LP 71 FF answers it after a restart, as
// an EGM keeps it in its non-volatile memory), the legacy bonus LP 90 reports. The table clock's offset is the
// journal's (journal::ResumeFacts).
#include <cstdint>
#include <map>
#include <vector>

#include "daemon/journal/records/sas_records.h"
#include "daemon/journal/store/journal_store.h"
#include "daemon/sas/station_tickets.h"
#include "protocols/sas/exception_queue.h"

namespace pitlink::sas {

struct SasResume {
    std::map<std::int64_t, std::vector<SasException>> exceptions;
    std::map<std::int64_t, ValidationId> validation;
    // The last LP 4C change of each station (its sas.validation_id record; tickets numbered since
    // do not move it): the host's repeat of it after a power cut is not taken afresh. Not in the
    // carried state: a segment that has none falls back to the ID in force.
    std::map<std::int64_t, ValidationId> validationIdSet;
    std::map<std::int64_t, bool> hostEnabled;  // the last LP 01 / 02 of each station
    // LP 4D: each station's last ticket.issued records with their time, and how many of the newest
    // the host has not read with LP 4D 00 yet.
    std::map<std::int64_t, IssuedTickets> issued;
    std::map<std::int64_t, std::size_t> unreadRecords;
    std::map<std::int64_t, journal::SasTicketSetupRecord> ticketSetup;  // the last sas.ticket_setup
    // The last ticket.redeemed with `host`: (validation, amount).
    std::map<std::int64_t, std::pair<std::string, game::Money>> lastRedemption;
    // The game of each station's last 8C the host acknowledged (LP 55 until the station reports
    // another), and its LP B7 numbers (sas.machine_numbers). The 8Cs still queued are in
    // `exceptions`.
    std::map<std::int64_t, std::uint16_t> selectedGame;
    std::map<std::int64_t, journal::SasMachineNumbersRecord> machineNumbers;
    // AFT: each station's registration, current transfer and history (aft.* records).
    std::map<std::int64_t, journal::AftState> aft;
    // Legacy bonusing: each station's last 7C (its event data is LP 90's) while no
    // sas.legacy_bonus_read with its serial came after it.
    std::map<std::int64_t, journal::SasExceptionRecord> legacyBonus;
};

// From the segment's carried state (segment.carried "sas"), then its records. The queues are
// not in the carried state: each segment opens with every station's sas.queue.
[[nodiscard]] SasResume resumeSas(journal::JournalStore& store);
// The carried state of a segment (all but the queues) and back.
[[nodiscard]] journal::CarriedSasState carriedSasState(const SasResume& resume);
[[nodiscard]] SasResume resumeOfCarried(const journal::CarriedSasState& carried);
// The same as segment.carried's "sas" JSON (a field that does not fit: journal::BodyError).
[[nodiscard]] nlohmann::json sasResumeJson(const SasResume& resume);
[[nodiscard]] SasResume sasResumeFromJson(const nlohmann::json& sas);

// An exception as its sas.exception record (and entry of sas.queue / sas.acked), and back.
[[nodiscard]] journal::SasExceptionRecord exceptionRecordOf(const SasException& e);
[[nodiscard]] SasException exceptionOf(const journal::SasExceptionRecord& record);
// A station's whole queue as its sas.queue record.
[[nodiscard]] journal::SasQueueRecord queueRecordOf(const std::vector<SasException>& pending);
// The body of sas.exception / sas.queue entries and back (tests and the fuzzer build bodies).
[[nodiscard]] nlohmann::json exceptionJson(const SasException& e);
[[nodiscard]] SasException exceptionFromJson(const nlohmann::json& j);

}  // namespace pitlink::sas
