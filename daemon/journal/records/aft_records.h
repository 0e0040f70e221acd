#pragma once
// The records of a station's cashless transfers over SAS AFT (schema/README.md: aft.registration,
// aft.transfer, aft.acknowledged), typed (typed_record.h): daemon/sas fills them and reads them
// back at start. Amounts are cents (minor units).
#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "daemon/journal/records/record_kinds.h"

namespace pitlink::journal {

// aft.registration: the station's AFT registration as it stands after LP 73 changed it.
struct AftRegistrationRecord {
    static constexpr std::string_view kKind = kind::kAftRegistration;
    std::uint8_t status = 0x80;  // 00 ready, 01 registered, 80 not registered
    std::uint32_t asset = 0;
    std::array<std::uint8_t, 20> key{};  // hex in the body
    std::uint32_t posId = 0;
    friend bool operator==(const AftRegistrationRecord&, const AftRegistrationRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const AftRegistrationRecord& record);
[[nodiscard]] AftRegistrationRecord fromBody(const nlohmann::json& body, std::type_identity<AftRegistrationRecord>);

// Cents of each credit type.
struct AftAmounts {
    std::int64_t cashable = 0;
    std::int64_t restricted = 0;
    std::int64_t nonrestricted = 0;
    [[nodiscard]] std::int64_t total() const { return cashable + restricted + nonrestricted; }
    friend bool operator==(const AftAmounts&, const AftAmounts&) = default;
};

// aft.transfer: an LP 72 transfer request and where it stands: pending (status 40, journaled
// before the station says so), then its end (the same ID, its final status: 00/01 with the
// credit record that moved `moved`, in the same transaction; a refusal 80-9F, moving nothing).
struct AftTransferRecord {
    static constexpr std::string_view kKind = kind::kAftTransfer;
    std::string id;         // the host's transaction ID (1-20 printable ASCII)
    std::uint8_t code = 0;  // 00 full, 01 partial
    std::uint8_t type = 0;  // LP 72 transfer type
    AftAmounts asked;
    AftAmounts moved;
    std::uint8_t flags = 0;
    std::uint32_t asset = 0;
    std::uint32_t expiration = 0;  // MMDDYYYY or 0000NNNN days, as its 8 digits
    std::uint16_t pool = 0;
    std::uint8_t status = 0x40;
    std::optional<std::string> at;  // the station's local time at its end, "YYYY-MM-DD hh:mm:ss"
    // The end of a transfer in that moved restricted credits: the local date whose end the
    // restricted credits held expire at after it, "YYYY-MM-DD" (absent: none held, or they never
    // expire; and in records written before expiry was kept).
    std::optional<std::string> expires;
    friend bool operator==(const AftTransferRecord&, const AftTransferRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const AftTransferRecord& record);
[[nodiscard]] AftTransferRecord fromBody(const nlohmann::json& body, std::type_identity<AftTransferRecord>);

// aft.acknowledged: the host acknowledged the station's current transfer (interrogated it with
// 72 FF, then polled on): 69 stops, and a successful one is in the history from then on.
struct AftAcknowledgedRecord {
    static constexpr std::string_view kKind = kind::kAftAcknowledged;
    std::string id;
    friend bool operator==(const AftAcknowledgedRecord&, const AftAcknowledgedRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const AftAcknowledgedRecord& record);
[[nodiscard]] AftAcknowledgedRecord fromBody(const nlohmann::json& body, std::type_identity<AftAcknowledgedRecord>);

// The restricted credits a station's transfers in brought: their pool and the local date whose
// end they expire at ("YYYY-MM-DD"; nullopt: never), after the last transfer in that moved some.
// Whether the station still holds any is the ledger's (a start-up clears it when none are left).
struct AftRestricted {
    std::uint16_t pool = 0;
    std::optional<std::string> expires;
    friend bool operator==(const AftRestricted&, const AftRestricted&) = default;
};

// A station's AFT state as its records leave it: what a start-up resumes and segment.carried
// carries ("aft" of its "sas" part, by station).
struct AftState {
    std::optional<AftRegistrationRecord> registration;
    std::optional<AftTransferRecord> current;  // the last transfer (its last record)
    bool acknowledged = true;                  // the current transfer's (a refusal at once needs none)
    std::vector<AftTransferRecord> history;    // acknowledged successful transfers, oldest first (<= 127)
    // The host cash-out mode (LP 72 flags 02 enabled, 04 hard) the last transfer request taken
    // with flag 01 (enable control) set; 0: off.
    std::uint8_t hostCashout = 0;
    // From the end of each transfer in that moved restricted credits (its `expires`; a record
    // written before it had one resolves as before, from its `expiration` and `at`), so that it
    // survives the history's 127 entries.
    std::optional<AftRestricted> restricted;
    friend bool operator==(const AftState&, const AftState&) = default;
    // The state after one more aft.* record of the station.
    void apply(const AftRegistrationRecord& record) { registration = record; }
    void apply(const AftTransferRecord& record);
    void apply(const AftAcknowledgedRecord& record);
};
inline constexpr std::size_t kAftHistoryKept = 127;
[[nodiscard]] nlohmann::json aftStateJson(const AftState& state);
[[nodiscard]] AftState aftStateFromJson(const nlohmann::json& body);

}  // namespace pitlink::journal
