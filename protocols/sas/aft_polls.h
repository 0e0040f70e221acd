#pragma once
// The layouts of SAS AFT's long polls, parsed and built: LP 72 (transfer funds), LP 73 (register
// gaming machine), LP 74 (game lock and status). SAS 6.02 chapter 8 as a production EGM
// (Aristocrat Monaco's SAS client) lays them out; docs/sas.md "AFT" has the facts and sources.
// Amounts are cents, BCD most significant byte first; asset numbers, POS IDs and pool IDs are
// binary, least significant byte first. The mapping only: what a station decides is elsewhere.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "protocols/sas/long_poll_machine.h"
#include "protocols/sas/poll_framer.h"

namespace pitlink::sas::aft {

// LP 72 transfer codes.
inline constexpr std::uint8_t kTransferFull = 0x00;
inline constexpr std::uint8_t kTransferPartial = 0x01;
inline constexpr std::uint8_t kCancel = 0x80;
inline constexpr std::uint8_t kInterrogateStatusOnly = 0xFE;
inline constexpr std::uint8_t kInterrogate = 0xFF;

// LP 72 transfer types.
namespace type {
inline constexpr std::uint8_t kInHouseToMachine = 0x00;
inline constexpr std::uint8_t kBonusCoinOut = 0x10;
inline constexpr std::uint8_t kBonusJackpot = 0x11;
inline constexpr std::uint8_t kInHouseToTicket = 0x20;
inline constexpr std::uint8_t kDebitToMachine = 0x40;
inline constexpr std::uint8_t kDebitToTicket = 0x60;
inline constexpr std::uint8_t kInHouseToHost = 0x80;
inline constexpr std::uint8_t kWinToHost = 0x90;
}  // namespace type

// LP 72 transfer status (SAS 6.02 Table 8.3e; Monaco's AftTransferStatusCode).
namespace status {
inline constexpr std::uint8_t kFullTransfer = 0x00;
inline constexpr std::uint8_t kPartialTransfer = 0x01;
inline constexpr std::uint8_t kPending = 0x40;
inline constexpr std::uint8_t kCancelledByHost = 0x80;
inline constexpr std::uint8_t kIdNotUnique = 0x81;
inline constexpr std::uint8_t kNotValidFunction = 0x82;
inline constexpr std::uint8_t kNotValidAmount = 0x83;
inline constexpr std::uint8_t kOverLimit = 0x84;
inline constexpr std::uint8_t kNotMultipleOfDenomination = 0x85;
inline constexpr std::uint8_t kNoPartialToHost = 0x86;
inline constexpr std::uint8_t kUnableNow = 0x87;
inline constexpr std::uint8_t kNotRegistered = 0x88;
inline constexpr std::uint8_t kKeyMismatch = 0x89;
inline constexpr std::uint8_t kNoPosId = 0x8A;
inline constexpr std::uint8_t kNoWonCredits = 0x8B;
inline constexpr std::uint8_t kNoDenomination = 0x8C;
inline constexpr std::uint8_t kExpirationNotValidForTicket = 0x8D;
inline constexpr std::uint8_t kTicketDeviceUnavailable = 0x8E;
inline constexpr std::uint8_t kOtherPool = 0x8F;
inline constexpr std::uint8_t kCannotPrintReceipt = 0x90;
inline constexpr std::uint8_t kInsufficientReceiptData = 0x91;
inline constexpr std::uint8_t kReceiptNotAllowed = 0x92;
inline constexpr std::uint8_t kAssetMismatch = 0x93;
inline constexpr std::uint8_t kNotLocked = 0x94;
inline constexpr std::uint8_t kBadTransactionId = 0x95;
inline constexpr std::uint8_t kUnexpectedError = 0x9F;
inline constexpr std::uint8_t kNotCompatible = 0xC0;
inline constexpr std::uint8_t kUnsupportedCode = 0xC1;
inline constexpr std::uint8_t kNoInformation = 0xFF;
}  // namespace status

inline constexpr std::uint8_t kReceiptNone = 0xFF;  // receipt status: no receipt requested
inline constexpr std::uint8_t kMaxHistoryIndex = 0x7F;
inline constexpr std::size_t kKeyBytes = 20;
using RegistrationKey = std::array<std::uint8_t, kKeyBytes>;

// Cents of each credit type.
struct Amounts {
    std::uint64_t cashable = 0;
    std::uint64_t restricted = 0;
    std::uint64_t nonrestricted = 0;
    [[nodiscard]] std::uint64_t total() const { return cashable + restricted + nonrestricted; }
    friend bool operator==(const Amounts&, const Amounts&) = default;
};

// LP 72 00/01: a transfer request.
struct TransferRequest {
    std::uint8_t code = kTransferFull;
    std::uint8_t type = type::kInHouseToMachine;
    Amounts amounts;
    std::uint8_t flags = 0;
    std::uint32_t asset = 0;
    RegistrationKey key{};
    std::string transactionId;     // 1-20 printable ASCII characters
    std::uint32_t expiration = 0;  // MMDDYYYY or 0000NNNN (days) as its 8 decimal digits; 0: the default
    std::uint16_t poolId = 0;
    std::vector<std::uint8_t> receiptData;
    std::uint16_t lockTimeout = 0;  // hundredths of a second (lock after transfer)
    friend bool operator==(const TransferRequest&, const TransferRequest&) = default;
};

// LP 72 80, FE, FF: a cancel or an interrogation of the history position `index` (00: the
// current transfer; 01-7F absolute; 80-FF relative, FF the newest).
struct TransferQuery {
    std::uint8_t code = kInterrogate;
    std::uint8_t index = 0;
};

// A request refused by its form alone, with the status its answer carries.
struct TransferRefusal {
    std::uint8_t status = status::kNotValidFunction;
};

using TransferPoll = std::variant<TransferRequest, TransferQuery, TransferRefusal>;
// nullopt: not an LP 72 this station can read at all (too short for its length byte).
[[nodiscard]] std::optional<TransferPoll> parseTransfer(const Poll& poll);

// What LP 72's long answer reports of a transfer.
struct TransferAnswer {
    std::uint8_t position = 0;  // its history position; 00 while it is the current one
    std::uint8_t status = status::kNoInformation;
    std::uint8_t receiptStatus = kReceiptNone;
    std::uint8_t type = type::kInHouseToMachine;
    Amounts amounts;
    std::uint8_t flags = 0;
    std::uint32_t asset = 0;
    std::string transactionId;
    std::optional<SasDateTime> at;  // absent while pending: zeros
    std::uint32_t expiration = 0;
    std::uint16_t poolId = 0;
    std::optional<Amounts> cumulative;  // the AFT meters of its direction, once it is done
};
// The long answer (00, 01, 40, 80-9F); the short one (C0, C1: position and status); FF's.
[[nodiscard]] std::vector<std::uint8_t> transferAnswer(std::uint8_t address, const TransferAnswer& answer);
[[nodiscard]] std::vector<std::uint8_t> transferShortAnswer(std::uint8_t address, std::uint8_t position,
                                                            std::uint8_t status);
[[nodiscard]] std::vector<std::uint8_t> transferNoInformation(std::uint8_t address, std::uint8_t position);

// What a station answers an LP 72: nothing yet (a request whose record is not durable: the host
// repeats it and gets its status then), the short answer (C0, C1), "no information" (FF) at a
// position, or a transfer.
struct NoAnswerYet {};
struct ShortTransferAnswer {
    std::uint8_t position = 0;
    std::uint8_t status = status::kNotCompatible;
};
struct NoTransferInformation {
    std::uint8_t position = 0;
};
using TransferReply = std::variant<NoAnswerYet, ShortTransferAnswer, NoTransferInformation, TransferAnswer>;
[[nodiscard]] std::optional<std::vector<std::uint8_t>> transferReplyBytes(std::uint8_t address,
                                                                          const TransferReply& reply);

// LP 73.
namespace registration {
inline constexpr std::uint8_t kInitialize = 0x00;
inline constexpr std::uint8_t kRegister = 0x01;
inline constexpr std::uint8_t kAcknowledge = 0x40;
inline constexpr std::uint8_t kUnregister = 0x80;
inline constexpr std::uint8_t kRead = 0xFF;
// Registration status.
inline constexpr std::uint8_t kReady = 0x00;
inline constexpr std::uint8_t kRegistered = 0x01;
inline constexpr std::uint8_t kPending = 0x40;
inline constexpr std::uint8_t kNotRegistered = 0x80;
inline constexpr std::uint32_t kPosIdUnchanged = 0xFFFFFFFF;
}  // namespace registration

struct RegistrationRequest {
    std::uint8_t code = registration::kRead;
    // Absent in the short form (length 01: read or unregister only).
    std::optional<std::uint32_t> asset;
    RegistrationKey key{};
    std::uint32_t posId = 0;
    friend bool operator==(const RegistrationRequest&, const RegistrationRequest&) = default;
};
// nullopt: malformed (not answered).
[[nodiscard]] std::optional<RegistrationRequest> parseRegistration(const Poll& poll);

struct RegistrationAnswer {
    std::uint8_t status = registration::kNotRegistered;
    std::uint32_t asset = 0;
    RegistrationKey key{};
    std::uint32_t posId = 0;
};
[[nodiscard]] std::vector<std::uint8_t> registrationAnswer(std::uint8_t address, const RegistrationAnswer& answer);

// LP 74.
namespace lock {
inline constexpr std::uint8_t kRequest = 0x00;
inline constexpr std::uint8_t kCancel = 0x80;
inline constexpr std::uint8_t kInterrogate = 0xFF;
// Lock status.
inline constexpr std::uint8_t kLocked = 0x00;
inline constexpr std::uint8_t kPending = 0x40;
inline constexpr std::uint8_t kNotLocked = 0xFF;
// Transfer conditions of a lock request. Beware: bonus is 0x08 here, 0x10 in the answer's
// available transfers (where 0x08 is a win pending cash-out to the host).
inline constexpr std::uint8_t kConditionToMachine = 0x01;
inline constexpr std::uint8_t kConditionFromMachine = 0x02;
inline constexpr std::uint8_t kConditionToPrinter = 0x04;
inline constexpr std::uint8_t kConditionBonusToMachine = 0x08;
// Available transfers of the answer.
inline constexpr std::uint8_t kAvailableToMachine = 0x01;
inline constexpr std::uint8_t kAvailableFromMachine = 0x02;
inline constexpr std::uint8_t kAvailableToPrinter = 0x04;
inline constexpr std::uint8_t kAvailableWinPendingToHost = 0x08;
inline constexpr std::uint8_t kAvailableBonusToMachine = 0x10;
// AFT status of the answer.
inline constexpr std::uint8_t kStatusReceiptPrinter = 0x01;
inline constexpr std::uint8_t kStatusPartialToHost = 0x02;
inline constexpr std::uint8_t kStatusCustomTicketData = 0x04;
inline constexpr std::uint8_t kStatusRegistered = 0x08;
inline constexpr std::uint8_t kStatusInHouseEnabled = 0x10;
inline constexpr std::uint8_t kStatusBonusEnabled = 0x20;
inline constexpr std::uint8_t kStatusDebitEnabled = 0x40;
inline constexpr std::uint8_t kStatusAnyEnabled = 0x80;
// Host cash-out status (and the same three bits of LP 72's flags).
inline constexpr std::uint8_t kCashoutControllable = 0x01;
inline constexpr std::uint8_t kCashoutEnabled = 0x02;
inline constexpr std::uint8_t kCashoutHard = 0x04;
}  // namespace lock

struct LockRequest {
    std::uint8_t code = lock::kInterrogate;
    std::uint8_t conditions = 0;
    std::uint16_t timeout = 0;  // hundredths of a second
};
// nullopt: malformed (a timeout not in BCD: not answered).
[[nodiscard]] std::optional<LockRequest> parseLock(const Poll& poll);

struct LockAnswer {
    std::uint32_t asset = 0;
    std::uint8_t lockStatus = lock::kNotLocked;
    std::uint8_t available = 0;
    std::uint8_t hostCashout = 0;
    std::uint8_t aftStatus = 0;
    std::uint8_t maxIndex = kMaxHistoryIndex;
    Amounts current;                  // cents of each type the station holds that can move
    std::uint64_t transferLimit = 0;  // cents
    std::uint32_t restrictedExpiration = 0;
    std::uint16_t restrictedPool = 0;
};
[[nodiscard]] std::vector<std::uint8_t> lockAnswer(std::uint8_t address, const LockAnswer& answer);

// What LP 72, 73 and 74 reach on the table side (the daemon implements it: it journals a
// transfer before its status is answered, and moves the credits).
class AftHost {
public:
    virtual ~AftHost() = default;
    virtual TransferReply transfer(const TransferRequest& request) = 0;  // LP 72 00/01
    virtual TransferReply interrogate(const TransferQuery& query) = 0;   // LP 72 80/FE/FF
    // The host implicitly acknowledged the last answer to a 72 FF of the current transfer.
    virtual void interrogationAcknowledged() = 0;
    // LP 73. nullopt: not answered (a change is answered once it is durable: the host repeats).
    virtual std::optional<RegistrationAnswer> registration(const RegistrationRequest& request) = 0;
    virtual LockAnswer lock(const LockRequest& request) = 0;  // LP 74
};

}  // namespace pitlink::sas::aft
