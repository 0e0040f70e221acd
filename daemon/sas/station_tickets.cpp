#include "daemon/sas/station_tickets.h"

#include <chrono>
#include <cstdio>

#include "daemon/sas/exception_events.h"
#include "protocols/sas/secure_enhanced_validation.h"

namespace pitlink::sas {

using nlohmann::json;

namespace {

constexpr std::uint32_t kMaxSequence = 0xFFFFFF;
constexpr std::chrono::milliseconds kTransferCompleteRepeat{15'000};

// A validation number as 18 digits (a shorter one is zero-filled on the left).
std::string digits18(const std::string& number) {
    return number.size() >= 18 ? number.substr(number.size() - 18) : std::string(18 - number.size(), '0') + number;
}

}  // namespace

StationTickets::StationTickets(std::int64_t station, const FloorSettings& settings, platform::Executor& timers,
                               const TableClock& clock, ValidationId id, Raise raise, JournalRecord journal)
    : station_(station),
      settings_(settings),
      timers_(timers),
      clock_(clock),
      id_(id),
      raise_(std::move(raise)),
      journal_(std::move(journal)) {
    setup_.location = settings.location;
    setup_.address1 = settings.address1;
    setup_.address2 = settings.address2;
}

StationTickets::~StationTickets() {
    if (cashout_) {
        timers_.cancel(cashout_->timer);
    }
    if (escrow_) {
        timers_.cancel(escrow_->readTimer);
        timers_.cancel(escrow_->redeemTimer);
    }
    if (transferRepeat_ != 0) {
        timers_.cancel(transferRepeat_);
    }
}

journal::TicketPrint StationTickets::ticketDetails() const {
    const SasDateTime t = clock_.localTime();
    char when[24];
    std::snprintf(when, sizeof when, "%04d-%02d-%02d %02d:%02d:%02d", t.year, t.month, t.day, t.hour, t.minute,
                  t.second);
    journal::TicketPrint print;
    print.printedAt = when;
    print.location = setup_.location;
    print.address1 = setup_.address1;
    print.address2 = setup_.address2;
    print.expiresDays = setup_.cashableExpirationDays;
    return print;
}

// --- cash-out ---

void StationTickets::validateCashout(game::Money amount,
                                     std::function<void(std::optional<table::ValidatedTicket>)> done) {
    if (settings_.validation == ValidationMode::SecureEnhanced) {
        if (id_.machineId == 0) {
            raise_(code::kValidationIdNotConfigured);
            done(std::nullopt);
            return;
        }
        // Incremented before each use; after FFFFFF it wraps to 000000, as SAS counts it.
        id_.sequence = id_.sequence >= kMaxSequence ? 0 : id_.sequence + 1;
        journal::TicketPrint details = ticketDetails();
        details.systemId = 0;  // the station's own number
        details.machineId = id_.machineId;
        details.sequence = id_.sequence;
        done(table::ValidatedTicket{secureEnhancedValidationNumber(id_.machineId, id_.sequence), details});
        return;
    }
    if (cashout_) {
        done(std::nullopt);  // cannot happen: the table locks the station while one is pending
        return;
    }
    const platform::Executor::TimerId timer = timers_.after(settings_.systemValidationTimeout, [this] {
        if (cashout_) {
            cashout_->timer = 0;
            finishCashout(std::nullopt);  // no LP 58 in time: validation denied
        }
    });
    cashout_ = Cashout{amount, std::move(done), timer};
    raise_(code::kSystemValidationRequest);
}

void StationTickets::finishCashout(std::optional<table::ValidatedTicket> ticket) {
    Cashout c = std::move(*cashout_);
    cashout_.reset();
    if (c.timer != 0) {
        timers_.cancel(c.timer);
    }
    c.done(std::move(ticket));
}

std::optional<PendingCashout> StationTickets::pendingCashout() const {
    if (!cashout_) {
        return std::nullopt;
    }
    return PendingCashout{0x00, static_cast<std::uint64_t>(cashout_->amount)};
}

ValidationReceipt StationTickets::receiveValidation(std::uint8_t systemId, const std::string& number16) {
    if (!cashout_) {
        return ValidationReceipt::NotInCashout;
    }
    if (systemId == 0) {
        finishCashout(std::nullopt);  // the host denied validation
        return ValidationReceipt::Acknowledged;
    }
    char prefix[4];
    std::snprintf(prefix, sizeof prefix, "%02u", static_cast<unsigned>(systemId % 100));
    journal::TicketPrint details = ticketDetails();
    details.systemId = systemId;
    finishCashout(table::ValidatedTicket{std::string(prefix) + number16, details});
    return ValidationReceipt::Acknowledged;
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> StationTickets::setValidationId(std::uint32_t machineId,
                                                                                       std::uint32_t sequence) {
    if (settingPending_) {
        return std::nullopt;
    }
    const std::pair requested{machineId, sequence};
    // The repeat of the last change (its answer lost, by a power cut too) and the ID as it
    // stands change nothing: tickets numbered since the change would be numbered again.
    if (machineId != 0 && requested != lastIdSet_ && requested != std::pair{id_.machineId, id_.sequence}) {
        id_ = ValidationId{machineId, sequence};  // incremented before its first use
        lastIdSet_ = requested;
        journalSetting(journal::SasValidationIdRecord{id_.machineId, id_.sequence});
        return std::nullopt;
    }
    return std::pair{id_.machineId, id_.sequence};  // a read, or the repeat of the last change
}

void StationTickets::journalSetting(const SasStationRecord& record) {
    settingPending_ = true;
    journal_(record, [this](bool committed) {
        if (committed) {
            settingPending_ = false;
        }
    });
}

void StationTickets::ticketIssued(const journal::TicketIssuedRecord& ticket) {
    addRecord(ticket, clock_.localTime());
}

void StationTickets::restoreRecords(const IssuedTickets& issued, std::size_t unread) {
    for (const auto& [ticket, atMs] : issued) {
        addRecord(ticket, TableClock::localTimeOf(atMs));
    }
    unread_ = std::min(unread, records_.size());
}

bool StationTickets::setTicketSetup(const TicketSetup& setup) {
    if (settingPending_) {
        return false;
    }
    if (setup == setup_) {
        return true;  // a read (LP 7B with no bits to change) or the same again
    }
    setup_ = setup;
    journalSetting(ticketSetupRecordOf(setup_));
    return false;
}

journal::SasTicketSetupRecord ticketSetupRecordOf(const TicketSetup& setup) {
    return journal::SasTicketSetupRecord{setup.statusBits,
                                         setup.cashableExpirationDays,
                                         setup.restrictedExpirationDays,
                                         setup.hostId,
                                         setup.location,
                                         setup.address1,
                                         setup.address2};
}

TicketSetup ticketSetupOf(const journal::SasTicketSetupRecord& record, TicketSetup base) {
    base.statusBits = record.statusBits.value_or(base.statusBits);
    base.cashableExpirationDays = record.cashableExpirationDays.value_or(base.cashableExpirationDays);
    base.restrictedExpirationDays = record.restrictedExpirationDays.value_or(base.restrictedExpirationDays);
    base.hostId = record.hostId.value_or(base.hostId);
    base.location = record.location.value_or(base.location);
    base.address1 = record.address1.value_or(base.address1);
    base.address2 = record.address2.value_or(base.address2);
    return base;
}

ValidationRecord validationRecordOf(const journal::TicketIssuedRecord& ticket) {
    ValidationRecord r;
    r.type = 0x00;
    r.number = digits18(ticket.validation).substr(2);
    r.systemId = static_cast<std::uint8_t>(ticket.print.systemId.value_or(0));
    r.amountCents = static_cast<std::uint64_t>(ticket.amount);
    r.ticketNumber = static_cast<std::uint16_t>(ticket.print.sequence.value_or(0) % 10'000);
    return r;
}

void StationTickets::addRecord(const journal::TicketIssuedRecord& ticket, const SasDateTime& when) {
    ValidationRecord r = validationRecordOf(ticket);
    r.index = nextIndex_;
    nextIndex_ = static_cast<std::uint8_t>(nextIndex_ % kRecordsKept + 1);
    r.time = when;
    records_.push_back(r);
    if (records_.size() > kRecordsKept) {
        records_.pop_front();
    }
    unread_ = std::min(unread_ + 1, records_.size());
}

std::optional<ValidationRecord> StationTickets::validationRecord(std::uint8_t functionCode) {
    if (functionCode == 0x00 || functionCode == 0xFF) {
        if (unread_ == 0) {
            return std::nullopt;
        }
        return records_[records_.size() - unread_];  // the oldest unread
    }
    for (const ValidationRecord& r : records_) {
        if (r.index == functionCode) {
            return r;
        }
    }
    return std::nullopt;
}

void StationTickets::recordAcknowledged() {
    if (unread_ == 0) {
        return;
    }
    const std::string number = records_[records_.size() - unread_].number;
    --unread_;
    // Journaled, so that a restart hands the host the records it has not read yet.
    journal_(journal::SasRecordReadRecord{number}, {});
    if (unread_ > 0) {
        // 3D is a flag: tickets printed before the host came round raised it once. Raised again
        // while records wait, so that a host reading one record per 3D reads them all.
        raise_(code::kTicketPrinted);
    }
}

std::uint32_t StationTickets::assetNumber() const {
    return hostAsset_.value_or(settings_.assetBase + static_cast<std::uint32_t>(station_));
}

// --- ticket in ---

void StationTickets::redeemTicket(const std::string& validation,
                                  std::function<table::RedeemCheck(const table::RedeemVerdict&)> verdict) {
    if (escrow_) {
        verdict(table::RedeemVerdict{false, 0, "a ticket is already in escrow"});
        return;
    }
    if (transferUnread_ || (redemption_ && redemption_->status == redemption::kPending)) {
        // LP 71 FF reports the last transfer only: the host must learn how this one ended first.
        verdict(table::RedeemVerdict{false, 0, "the host has not read the last ticket's transfer status yet"});
        return;
    }
    Escrow e;
    e.validation = digits18(validation);
    e.verdict = std::move(verdict);
    e.readTimer = timers_.after(settings_.ticketReadTimeout, [this] {
        if (escrow_ && !escrow_->read) {
            escrow_->readTimer = 0;
            endEscrow(table::RedeemVerdict{false, 0, "the accounting host did not read the ticket in time"},
                      redemption::kTimedOut);
        }
    });
    e.redeemTimer = timers_.after(settings_.ticketRedeemTimeout, [this] {
        if (escrow_) {
            escrow_->redeemTimer = 0;
            endEscrow(table::RedeemVerdict{false, 0, "the accounting host did not answer in time"},
                      redemption::kTimedOut);
        }
    });
    escrow_ = std::move(e);
    redemption_ = RedemptionStatus{redemption::kWaitingForLp71, 0, 0, escrow_->validation};
    raise_(code::kTicketInserted);
}

void StationTickets::endEscrow(const table::RedeemVerdict& verdict, std::uint8_t status) {
    Escrow e = std::move(*escrow_);
    escrow_.reset();
    timers_.cancel(e.readTimer);
    timers_.cancel(e.redeemTimer);
    redemption_ = RedemptionStatus{status, static_cast<std::uint64_t>(verdict.amount), 0, e.validation};
    e.verdict(verdict);
}

std::optional<EscrowedTicket> StationTickets::escrowedTicket() {
    if (!escrow_) {
        return std::nullopt;
    }
    escrow_->read = true;
    return EscrowedTicket{0, escrow_->validation};  // the amount is the host's to say
}

RedemptionStatus StationTickets::redeem(const RedeemRequest& request) {
    if (!escrow_) {
        return redemption_.value_or(RedemptionStatus{});  // not in a redemption: the last status, or none
    }
    if (request.validation != escrow_->validation) {
        const std::string validation = escrow_->validation;
        endEscrow(table::RedeemVerdict{false, 0, "the host answered for another ticket"},
                  redemption::kValidationMismatch);
        transferComplete(true);
        return RedemptionStatus{redemption::kValidationMismatch, request.amountCents, 0, validation};
    }
    if (request.transferCode != 0x00) {
        // >= 0x80: rejected; 01/02 (promotional credits): this table keeps cashable credits only.
        const std::uint8_t status =
            request.transferCode >= 0x80 ? redemption::kRejectedByHost : redemption::kNotValidFunction;
        char why[64];
        std::snprintf(why, sizeof why, "rejected by the accounting host (transfer code %02X)", request.transferCode);
        endEscrow(table::RedeemVerdict{false, 0, why}, status);
        transferComplete(true);
        return *redemption_;
    }
    Escrow& e = *escrow_;
    e.read = true;
    timers_.cancel(e.readTimer);
    timers_.cancel(e.redeemTimer);
    e.readTimer = e.redeemTimer = 0;
    const auto amount = static_cast<game::Money>(request.amountCents);
    const table::RedeemCheck check = e.verdict(table::RedeemVerdict{true, amount, {}});
    const std::string validation = e.validation;
    if (check == table::RedeemCheck::Accepted) {
        escrow_.reset();  // the table journals the credits; redemptionCommitted() ends it
        redemption_ = RedemptionStatus{redemption::kPending, request.amountCents, 0, validation};
        return *redemption_;
    }
    escrow_.reset();
    const std::uint8_t status = check == table::RedeemCheck::NotEvenMultiple ? redemption::kNotEvenMultiple
                                : check == table::RedeemCheck::AboveLimit    ? redemption::kAmountExceedsLimit
                                                                             : redemption::kUnableToAccept;
    redemption_ = RedemptionStatus{status, request.amountCents, 0, validation};
    transferComplete(true);
    return *redemption_;
}

void StationTickets::redemptionCommitted(bool committed) {
    if (!redemption_ || redemption_->status != redemption::kPending) {
        return;
    }
    // Committed: 68 was raised by the same transaction. Not: the ticket goes back.
    redemption_->status = committed ? redemption::kCashableRedeemed : redemption::kUnableToAccept;
    transferComplete(!committed);
}

void StationTickets::transferComplete(bool raise) {
    if (raise) {
        raise_(code::kTicketTransferComplete);
    }
    transferUnread_ = true;
    if (transferRepeat_ == 0) {
        repeatTransferComplete();
    }
}

void StationTickets::repeatTransferComplete() {
    transferRepeat_ = timers_.after(kTransferCompleteRepeat, [this] {
        transferRepeat_ = 0;
        if (transferUnread_) {
            raise_(code::kTicketTransferComplete);
            repeatTransferComplete();
        }
    });
}

void StationTickets::restoreRedemption(const std::string& validation, game::Money amount, bool unread) {
    redemption_ =
        RedemptionStatus{redemption::kCashableRedeemed, static_cast<std::uint64_t>(amount), 0, digits18(validation)};
    if (unread) {
        transferComplete(false);  // its 68 is back in the queue
    }
}

RedemptionStatus StationTickets::redemptionStatus() {
    transferUnread_ = false;
    if (transferRepeat_ != 0) {
        timers_.cancel(transferRepeat_);
        transferRepeat_ = 0;
    }
    return redemption_.value_or(RedemptionStatus{});
}

json StationTickets::statusJson() const {
    json j{{"validation", settings_.validation == ValidationMode::System ? "system" : "secure_enhanced"},
           {"cashout_pending", cashout_ ? json(cashout_->amount) : json(nullptr)},
           {"ticket_in_escrow", escrow_ ? json(escrow_->validation) : json(nullptr)},
           {"validation_records", records_.size()}};
    if (settings_.validation == ValidationMode::SecureEnhanced) {
        j["machine_id"] = id_.machineId;
        j["sequence"] = id_.sequence;
    }
    return j;
}

}  // namespace pitlink::sas
