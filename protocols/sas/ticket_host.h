#pragma once
// What the ticketing long polls reach on the table side (the daemon implements it; it journals
// before anything changes hands). Amounts are cents; validation numbers are digit strings.
#include <cstdint>
#include <optional>
#include <string>

#include "protocols/sas/long_poll_machine.h"

namespace pitlink::sas {

// LP 57: a cash-out waiting for the host's validation number.
struct PendingCashout {
    std::uint8_t type = 0x00;  // 00 cashable ticket, 01 restricted promotional ticket
    std::uint64_t amountCents = 0;
};

enum class ValidationReceipt : std::uint8_t { Acknowledged = 0x00, NotInCashout = 0x80, OutOfRange = 0x81 };

// LP 4D: one validation record (a ticket printed, or a hand-pay validated).
struct ValidationRecord {
    std::uint8_t type = 0x00;  // 00 cashable ticket from a cash-out, 80 hand-pay from a cash-out, 81 from a win
    std::uint8_t index = 1;    // 1..31 in the station's buffer
    SasDateTime time;
    std::string number;  // 16 digits (without the 2-digit system ID)
    std::uint64_t amountCents = 0;
    std::uint16_t ticketNumber = 0;
    std::uint8_t systemId = 0;  // 00: secure enhanced validation by the station
};

// LP 70: the ticket in the station's escrow.
struct EscrowedTicket {
    std::uint64_t amountCents = 0;  // 0: the station cannot read an amount from the ticket
    std::string validation;         // 18 digits
};

// LP 71: the host's verdict on the escrowed ticket.
struct RedeemRequest {
    std::uint8_t transferCode = 0;  // 00 cashable, 01/02 promotional, >= 0x80 rejected
    std::uint64_t amountCents = 0;
    std::uint8_t parsingCode = 0;
    std::string validation;  // 18 digits
};

// Table 15.12d machine status codes (the ones a station gives).
namespace redemption {
inline constexpr std::uint8_t kCashableRedeemed = 0x00;
inline constexpr std::uint8_t kWaitingForLp71 = 0x20;
inline constexpr std::uint8_t kPending = 0x40;
inline constexpr std::uint8_t kRejectedByHost = 0x80;
inline constexpr std::uint8_t kValidationMismatch = 0x81;
inline constexpr std::uint8_t kNotValidFunction = 0x82;
inline constexpr std::uint8_t kNotValidAmount = 0x83;
inline constexpr std::uint8_t kAmountExceedsLimit = 0x84;
inline constexpr std::uint8_t kNotEvenMultiple = 0x85;
inline constexpr std::uint8_t kAmountMismatch = 0x86;
inline constexpr std::uint8_t kUnableToAccept = 0x87;
inline constexpr std::uint8_t kTimedOut = 0x88;
inline constexpr std::uint8_t kNoValidationInfo = 0xFF;
}  // namespace redemption

struct RedemptionStatus {
    std::uint8_t status = redemption::kNoValidationInfo;
    std::uint64_t amountCents = 0;
    std::uint8_t parsingCode = 0;
    std::string validation;  // 18 digits
};

// LP 7B / 7C / 7D: what tickets print and how validation behaves.
struct TicketSetup {
    std::uint16_t statusBits = 0;  // LP 7B validation status bits
    std::uint16_t cashableExpirationDays = 0;
    std::uint16_t restrictedExpirationDays = 0;
    std::uint16_t hostId = 0;
    std::string location;
    std::string address1;
    std::string address2;
    bool operator==(const TicketSetup&) const = default;
};

class TicketHost {
public:
    virtual ~TicketHost() = default;
    [[nodiscard]] virtual std::optional<PendingCashout> pendingCashout() const = 0;                       // LP 57
    virtual ValidationReceipt receiveValidation(std::uint8_t systemId, const std::string& number16) = 0;  // LP 58
    // The host's settings (LPs 4C, 7B, 7C, 7D and B7) are answered once what they set is durable:
    // nullopt (false) is no answer, and the host sends the poll again (docs/sas.md "Tickets").
    // LP 4C: ID 0 only reads the current values. Returns the ID and the last sequence used.
    virtual std::optional<std::pair<std::uint32_t, std::uint32_t>> setValidationId(std::uint32_t machineId,
                                                                                   std::uint32_t sequence) = 0;
    // LP 4D: 00 and FF the oldest unread record, 01-1F by index.
    virtual std::optional<ValidationRecord> validationRecord(std::uint8_t functionCode) = 0;
    // The host acknowledged (implied ACK) an LP 4D 00 answer that carried a record: it is read,
    // and the next 00 gives the one after it. A lost answer is therefore never skipped.
    virtual void recordAcknowledged() = 0;
    virtual std::optional<EscrowedTicket> escrowedTicket() = 0;         // LP 70 (the host has read it)
    virtual RedemptionStatus redeem(const RedeemRequest& request) = 0;  // LP 71
    virtual RedemptionStatus redemptionStatus() = 0;              // LP 71 FF: the host reads the last transfer's status
    [[nodiscard]] virtual std::uint32_t assetNumber() const = 0;  // LP 7B
    [[nodiscard]] virtual const TicketSetup& ticketSetup() const = 0;
    // LPs 7B 7C 7D (the setup as it stands, for a read). False: not answered (see LP 4C).
    [[nodiscard]] virtual bool setTicketSetup(const TicketSetup& setup) = 0;
};

}  // namespace pitlink::sas
