#pragma once
// The SAS stations' records (schema/README.md: sas.exception, sas.acked, sas.queue,
// sas.validation_id, sas.host_enabled, sas.ticket_setup, sas.record_read, sas.legacy_bonus_read,
// clock.set) and the
// "sas" part of segment.carried, typed (typed_record.h): daemon/sas fills these structs from its
// own state and reads them back at start; the bodies' field names are written here only.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "daemon/journal/records/aft_records.h"
#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/record_kinds.h"

namespace pitlink::journal {

// LP 4D's buffer of printed tickets (indexes 1-31): the most records a station keeps, so the most
// the carried state may say are unread.
inline constexpr std::size_t kSasTicketRecordsKept = 31;
// The largest clock offset a clock.set may carry: a hundred years either way, far beyond what the
// host's clock settings can add up to, so that the table clock's arithmetic cannot overflow.
inline constexpr std::int64_t kMaxClockOffsetMs = 100LL * 366 * 24 * 3600 * 1000;

// sas.exception: an exception raised at a station, journaled before the host can see it. Its
// body is also each entry of sas.queue and sas.acked.
struct SasExceptionRecord {
    static constexpr std::string_view kKind = kind::kSasException;
    std::uint8_t code = 0;
    std::uint64_t serial = 0;        // the station queue's running number
    std::vector<std::uint8_t> data;  // 7E / 7F event data: hex in the body, absent when empty
    friend bool operator==(const SasExceptionRecord&, const SasExceptionRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const SasExceptionRecord& record);
[[nodiscard]] SasExceptionRecord fromBody(const nlohmann::json& body, std::type_identity<SasExceptionRecord>);

// sas.acked: exceptions the host acknowledged (their event data is not journaled again).
struct SasAckedRecord {
    static constexpr std::string_view kKind = kind::kSasAcked;
    std::vector<SasExceptionRecord> acked;
    friend bool operator==(const SasAckedRecord&, const SasAckedRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const SasAckedRecord& record);
[[nodiscard]] SasAckedRecord fromBody(const nlohmann::json& body, std::type_identity<SasAckedRecord>);

// sas.queue: a station's whole queue, where a replay at start begins.
struct SasQueueRecord {
    static constexpr std::string_view kKind = kind::kSasQueue;
    std::vector<SasExceptionRecord> pending;  // oldest first
    friend bool operator==(const SasQueueRecord&, const SasQueueRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const SasQueueRecord& record);
[[nodiscard]] SasQueueRecord fromBody(const nlohmann::json& body, std::type_identity<SasQueueRecord>);

// sas.validation_id: the secure enhanced validation ID the host set with LP 4C.
struct SasValidationIdRecord {
    static constexpr std::string_view kKind = kind::kSasValidationId;
    std::uint32_t machineId = 0;
    std::uint32_t sequence = 0;  // the last one used
    friend bool operator==(const SasValidationIdRecord&, const SasValidationIdRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const SasValidationIdRecord& record);
[[nodiscard]] SasValidationIdRecord fromBody(const nlohmann::json& body, std::type_identity<SasValidationIdRecord>);

// sas.host_enabled: the host shut the station down (LP 01) or started it again (LP 02).
struct SasHostEnabledRecord {
    static constexpr std::string_view kKind = kind::kSasHostEnabled;
    bool enabled = false;
    friend bool operator==(const SasHostEnabledRecord&, const SasHostEnabledRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const SasHostEnabledRecord& record);
[[nodiscard]] SasHostEnabledRecord fromBody(const nlohmann::json& body, std::type_identity<SasHostEnabledRecord>);

// sas.machine_numbers: the host set the station's asset number (LP 7B's from then on) and floor
// location with LP B7; each as it stands after the poll.
struct SasMachineNumbersRecord {
    static constexpr std::string_view kKind = kind::kSasMachineNumbers;
    std::uint32_t asset = 0;
    std::string location;  // at most 40 characters
    friend bool operator==(const SasMachineNumbersRecord&, const SasMachineNumbersRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const SasMachineNumbersRecord& record);
[[nodiscard]] SasMachineNumbersRecord fromBody(const nlohmann::json& body, std::type_identity<SasMachineNumbersRecord>);

// sas.ticket_setup: what LP 7B/7C/7D set for the station's tickets. Every field is written; each
// may be absent in bodies of older versions, and stays absent when carried over to a new segment
// (the station then keeps its own value).
struct SasTicketSetupRecord {
    static constexpr std::string_view kKind = kind::kSasTicketSetup;
    std::optional<std::uint16_t> statusBits;  // LP 7B validation status bits
    std::optional<std::uint16_t> cashableExpirationDays;
    std::optional<std::uint16_t> restrictedExpirationDays;
    std::optional<std::uint16_t> hostId;
    std::optional<std::string> location;
    std::optional<std::string> address1;
    std::optional<std::string> address2;
    friend bool operator==(const SasTicketSetupRecord&, const SasTicketSetupRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const SasTicketSetupRecord& record);
[[nodiscard]] SasTicketSetupRecord fromBody(const nlohmann::json& body, std::type_identity<SasTicketSetupRecord>);

// sas.record_read: the host read this ticket's record with LP 4D 00. The resume counts these
// records without reading their body, so it has no reader.
struct SasRecordReadRecord {
    static constexpr std::string_view kKind = kind::kSasRecordRead;
    std::string validation;  // 16 digits
    friend bool operator==(const SasRecordReadRecord&, const SasRecordReadRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const SasRecordReadRecord& record);

// sas.legacy_bonus_read: the host acknowledged the LP 90 answer that reported the legacy bonus
// of the 7C with this serial (LP 90 reports zeros from then on, until the next bonus).
struct SasLegacyBonusReadRecord {
    static constexpr std::string_view kKind = kind::kSasLegacyBonusRead;
    std::uint64_t serial = 0;
    friend bool operator==(const SasLegacyBonusReadRecord&, const SasLegacyBonusReadRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const SasLegacyBonusReadRecord& record);
[[nodiscard]] SasLegacyBonusReadRecord fromBody(const nlohmann::json& body,
                                                std::type_identity<SasLegacyBonusReadRecord>);

// clock.set: LP 7F moved the journal's clock.
struct ClockSetRecord {
    static constexpr std::string_view kKind = kind::kClockSet;
    std::int64_t fromMs = 0;
    std::int64_t toMs = 0;
    std::int64_t offsetMs = 0;  // the table clock's offset from then on
    friend bool operator==(const ClockSetRecord&, const ClockSetRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const ClockSetRecord& record);
// Only `offset_ms` is required (the start-up reads nothing else); a missing from_ms or to_ms is 0.
[[nodiscard]] ClockSetRecord fromBody(const nlohmann::json& body, std::type_identity<ClockSetRecord>);

// The "sas" part of segment.carried: what the SAS stations resume that the new segment's own
// records do not hold (the queues are its sas.queue records), each by station. Not a record kind.
struct CarriedSasState {
    struct IssuedTicket {
        std::int64_t atMs = 0;  // when it was journaled (UTC ms)
        TicketIssuedRecord ticket;
        friend bool operator==(const IssuedTicket&, const IssuedTicket&) = default;
    };
    struct Redemption {  // the last ticket redeemed through the host
        std::string validation;
        std::int64_t amount = 0;
        friend bool operator==(const Redemption&, const Redemption&) = default;
    };
    std::map<std::int64_t, SasValidationIdRecord> validation;
    std::map<std::int64_t, bool> hostEnabled;
    std::map<std::int64_t, SasTicketSetupRecord> ticketSetup;  // the last sas.ticket_setup
    std::map<std::int64_t, std::vector<IssuedTicket>> issued;  // LP 4D's last tickets, oldest first
    std::map<std::int64_t, std::int64_t> unread;               // of those, the newest not read yet
    std::map<std::int64_t, Redemption> lastRedemption;
    // Each station's game of its last 8C (LP 55), and its LP B7 numbers: absent while none.
    std::map<std::int64_t, std::int64_t> selectedGame;
    std::map<std::int64_t, SasMachineNumbersRecord> machineNumbers;
    std::map<std::int64_t, AftState> aft;  // AFT registration, current transfer, history: absent while none
    // The 7C (legacy bonus awarded, its event data LP 90's) of each station whose bonus the host
    // has not read with LP 90 yet: absent while none.
    std::map<std::int64_t, SasExceptionRecord> legacyBonus;
    friend bool operator==(const CarriedSasState&, const CarriedSasState&) = default;
};
[[nodiscard]] nlohmann::json carriedSasJson(const CarriedSasState& state);
// A field that does not fit is refused with BodyError.
[[nodiscard]] CarriedSasState carriedSasFromJson(const nlohmann::json& sas);
// The "sas" part of a segment.carried body, or nullopt when it has none; BodyError when it does
// not fit.
[[nodiscard]] std::optional<CarriedSasState> carriedSasOf(const nlohmann::json& segmentCarried);

}  // namespace pitlink::journal
