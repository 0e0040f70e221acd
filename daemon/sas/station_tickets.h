#pragma once
// One station's ticketing with the accounting host (docs/sas.md "Tickets"):
// - cash-out by system validation: 57 raised, the host reads the amount (LP 57) and gives the
//   number (LP 58) within the time-out, else the table locks for a hand-pay; or by secure
//   enhanced validation: the station numbers the ticket itself from the ID and sequence the host
//   set with LP 4C (3F raised while none is set, and the cash-out becomes a hand-pay);
// - the records of printed tickets for LP 4D;
// - ticket in: 67 raised, the host reads the ticket (LP 70) and accepts or rejects it (LP 71);
//   credits are added by the table after it journaled them, then 68 (raised by that transaction)
//   and the final status for LP 71 FF. No answer in time: the ticket is returned.
// - the host's settings (LP 4C's validation ID, LP 7B/7C/7D's ticket setup, and LP B7's numbers
//   through the port) are in force once submitted and answered once durable: a power cut never
//   undoes a setting the host was told of. Until then none of these polls is answered (the host
//   sends it again); the repeat of the last LP 4C is answered with the ID as it stands, not
//   taken afresh (tickets numbered meanwhile would be numbered again).
// Exceptions are raised through `Raise`, which journals them first.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "daemon/config/sas_settings.h"
#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/sas_records.h"
#include "daemon/platform/executor.h"
#include "daemon/sas/table_clock.h"
#include "daemon/table/ticket_system.h"
#include "protocols/sas/ticket_host.h"

namespace pitlink::sas {

inline constexpr std::size_t kRecordsKept = journal::kSasTicketRecordsKept;  // LP 4D's buffer (indexes 1-31)
// ticket.issued records with the time they were journaled (UTC ms), oldest first.
using IssuedTickets = std::deque<std::pair<journal::TicketIssuedRecord, std::int64_t>>;

// What a station journals on its own (its exceptions go through the floor's raise): the floor
// adds each to a transaction of its own, under the station's number.
using SasStationRecord =
    std::variant<journal::SasValidationIdRecord, journal::SasTicketSetupRecord, journal::SasRecordReadRecord,
                 journal::SasHostEnabledRecord, journal::ClockSetRecord, journal::SasMachineNumbersRecord,
                 journal::SasLegacyBonusReadRecord>;

struct ValidationId {
    std::uint32_t machineId = 0;  // 0: not configured
    std::uint32_t sequence = 0;   // the last one used
};

// The LP 4D record of a ticket.issued record, without its index and time.
[[nodiscard]] ValidationRecord validationRecordOf(const journal::TicketIssuedRecord& ticket);
// A station's ticket setup as its sas.ticket_setup record, and back: fields the record does not
// have (one of an older version) keep their value in `base`.
[[nodiscard]] journal::SasTicketSetupRecord ticketSetupRecordOf(const TicketSetup& setup);
[[nodiscard]] TicketSetup ticketSetupOf(const journal::SasTicketSetupRecord& record, TicketSetup base);

class StationTickets final : public TicketHost {
public:
    using Raise = std::function<void(std::uint8_t code)>;
    // `done(committed)` may be empty.
    using JournalRecord = std::function<void(const SasStationRecord& record, std::function<void(bool)> done)>;

    StationTickets(std::int64_t station, const FloorSettings& settings, platform::Executor& timers,
                   const TableClock& clock, ValidationId id, Raise raise, JournalRecord journal);
    ~StationTickets() override;
    StationTickets(const StationTickets&) = delete;
    StationTickets& operator=(const StationTickets&) = delete;

    // --- the table's side ---
    void validateCashout(game::Money amountCents, std::function<void(std::optional<table::ValidatedTicket>)> done);
    void redeemTicket(const std::string& validation,
                      std::function<table::RedeemCheck(const table::RedeemVerdict&)> verdict);
    void redemptionCommitted(bool committed);
    // A ticket.issued record of this station committed: kept for LP 4D.
    void ticketIssued(const journal::TicketIssuedRecord& ticket);
    // At start, from the journal: the last ticket.issued records (`atMs`: when) of which the
    // newest `unread` were not yet read with LP 4D 00, and the last LP 7B/7C/7D setup.
    void restoreRecords(const IssuedTickets& issued, std::size_t unread);
    // After a restart: the last ticket redeemed through the host, which LP 71 FF reports until
    // another redemption starts; `unread` when its 68 is still queued (the replay raised it).
    void restoreRedemption(const std::string& validation, game::Money amount, bool unread);
    // A transfer ended (68) and the host has not asked its final status (LP 71 FF) yet: no
    // other ticket is taken meanwhile, since LP 71 FF reports the last transfer only.
    [[nodiscard]] bool transferStatusUnread() const { return transferUnread_; }
    [[nodiscard]] std::size_t unreadRecords() const { return unread_; }
    // At start: the last LP 4C change (sas.validation_id), whose repeat changes nothing.
    void restoreValidationIdSet(const ValidationId& set) { lastIdSet_ = std::pair{set.machineId, set.sequence}; }
    // At start: the last sas.ticket_setup; what it does not say keeps the configured value.
    void restoreSetup(const journal::SasTicketSetupRecord& record) { setup_ = ticketSetupOf(record, setup_); }

    // --- TicketHost (the host's long polls) ---
    [[nodiscard]] std::optional<PendingCashout> pendingCashout() const override;
    ValidationReceipt receiveValidation(std::uint8_t systemId, const std::string& number16) override;
    std::optional<std::pair<std::uint32_t, std::uint32_t>> setValidationId(std::uint32_t machineId,
                                                                           std::uint32_t sequence) override;
    std::optional<ValidationRecord> validationRecord(std::uint8_t functionCode) override;
    void recordAcknowledged() override;                       // journaled (sas.record_read)
    std::optional<EscrowedTicket> escrowedTicket() override;  // marks it read
    RedemptionStatus redeem(const RedeemRequest& request) override;
    RedemptionStatus redemptionStatus() override;  // the host has read it: 68 stops repeating
    [[nodiscard]] std::uint32_t assetNumber() const override;
    // LP B7's asset number, which stands over sas.asset_base + station from then on.
    void setAssetNumber(std::uint32_t asset) { hostAsset_ = asset; }
    [[nodiscard]] const TicketSetup& ticketSetup() const override { return setup_; }
    bool setTicketSetup(const TicketSetup& setup) override;  // journaled when it changes

    // A host's setting is being made durable: no LP 4C, 7B, 7C, 7D or B7 is answered meanwhile.
    [[nodiscard]] bool settingPending() const { return settingPending_; }
    // Journals a host's setting (in force already) and holds those polls' answers until it is
    // durable. A commit that fails holds them for good: the journal takes nothing more.
    void journalSetting(const SasStationRecord& record);

    [[nodiscard]] nlohmann::json statusJson() const;

private:
    struct Cashout {
        game::Money amount = 0;
        std::function<void(std::optional<table::ValidatedTicket>)> done;
        platform::Executor::TimerId timer = 0;
    };
    struct Escrow {
        std::string validation;  // 18 digits
        std::function<table::RedeemCheck(const table::RedeemVerdict&)> verdict;
        bool read = false;  // LP 70 seen
        platform::Executor::TimerId readTimer = 0;
        platform::Executor::TimerId redeemTimer = 0;
    };
    [[nodiscard]] journal::TicketPrint ticketDetails() const;
    void finishCashout(std::optional<table::ValidatedTicket> ticket);
    void addRecord(const journal::TicketIssuedRecord& ticket, const SasDateTime& when);
    void endEscrow(const table::RedeemVerdict& verdict, std::uint8_t status);
    // 68 raised (here, or by the transaction that credited the ticket): unread until LP 71 FF,
    // and raised again every 15 s until then (docs/sas.md).
    void transferComplete(bool raise);
    void repeatTransferComplete();

    std::int64_t station_;
    const FloorSettings& settings_;
    platform::Executor& timers_;
    const TableClock& clock_;
    ValidationId id_;
    Raise raise_;
    JournalRecord journal_;
    TicketSetup setup_;
    std::optional<Cashout> cashout_;
    std::optional<Escrow> escrow_;
    std::optional<RedemptionStatus> redemption_;  // the last redemption, for LP 71 FF
    bool transferUnread_ = false;
    platform::Executor::TimerId transferRepeat_ = 0;
    std::deque<ValidationRecord> records_;  // newest last, at most kRecordsKept
    std::uint8_t nextIndex_ = 1;
    std::size_t unread_ = 0;                  // records not yet read with LP 4D 00 (the newest ones)
    std::optional<std::uint32_t> hostAsset_;  // LP B7's
    bool settingPending_ = false;
    std::optional<std::pair<std::uint32_t, std::uint32_t>> lastIdSet_;  // the last LP 4C change
};

}  // namespace pitlink::sas
