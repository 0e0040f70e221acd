#pragma once
// SAS AFT's decisions that depend on nothing but their inputs: the registration's state machine
// (LP 73), which status a transfer request gets before anything moves (LP 72), how much a full or
// partial transfer moves, and the history buffer's positions. docs/sas.md "AFT" has the rules
// and their sources (SAS 6.02 chapter 8, Aristocrat Monaco's AFT handlers).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocols/sas/aft_polls.h"

namespace pitlink::sas::aft {

// LP 73's state: status, and the key and POS ID registered.
struct Registration {
    std::uint8_t status = registration::kNotRegistered;
    std::uint32_t asset = 0;
    RegistrationKey key{};
    std::uint32_t posId = 0;
    friend bool operator==(const Registration&, const Registration&) = default;
    // Registered for transfers: status 01 with a key that is not all zeros.
    [[nodiscard]] bool registered() const;
};

// A registration request's effect: the state after it and the exception it raises (6D when
// the registration is acknowledged, 6E when it is cancelled; 0 none). An acknowledgement
// request (40) enters pending and, with no operator at a table to confirm it, is acknowledged
// at once (6D, ready), as Monaco does. A register (01) that names the registration in force
// (asset, key, POS ID or "no change") changes nothing: it is a repeat whose answer was lost,
// where Monaco would take it as out of turn and cancel.
struct RegistrationStep {
    Registration after;
    std::uint8_t exception = 0;
};
[[nodiscard]] RegistrationStep registrationStep(const Registration& now, const RegistrationRequest& request,
                                                std::uint32_t machineAsset);

// What a transfer request is checked against before it is taken (and again when it moves).
struct TransferContext {
    std::uint32_t asset = 0;  // LP 7B's asset number
    Registration registration;
    bool locked = false;                   // LP 74 lock effective
    Amounts available;                     // cents of each type the station holds that can move (no stake in play)
    std::uint64_t transferLimitCents = 0;  // the most one transfer to the station may bring
    std::uint64_t denominationCents = 1;   // the accounting denomination: amounts are whole credits of it
    std::uint64_t jackpotLimitCents = 0;   // a bonus jackpot (11) at or above is hand-paid (0: never)
    bool idle = true;  // no stake in play, no hand-pay, cash-out or ticket: a hand-paid bonus jackpot needs it
    bool transferInAllowed = false;            // not tilted, not in a hand-pay, a cash-out or a ticket
    bool transferOutAllowed = false;           // the same for a transfer to the host
    bool bonusAllowed = false;                 // not tilted, not in a hand-pay
    std::uint16_t restrictedPool = 0;          // of the restricted credits held (with restricted > 0)
    bool expirationValid = true;               // a restricted transfer in's expiration: a date, not past (83)
    std::optional<std::string> lastHistoryId;  // the newest history entry's transaction ID
};

// The status a request is refused with (nullopt: taken). Checked in SAS's order: the ID of the
// last transfer (81), the asset (93), a lock required (94), receipts (90: none printed here),
// registration (88/89), the type (82 deferred types, C1 unknown), the amounts (83/85/8F/84) and
// whether the station can now (87).
[[nodiscard]] std::optional<std::uint8_t> refusalOf(const TransferRequest& request, const TransferContext& context);

// What a taken request moves, in cents (to the station, or to the host for 80), and its status:
// 00 all it asked, 01 a partial transfer's part, or why it moves nothing: 84 over the transfer
// limit, 82 more than the station holds of a type (a full transfer to the host), 83 nothing to
// move (a partial one with none of what it asked). A bonus jackpot (11) at or above the jackpot
// limit is hand-paid (`handpay`): it never stays on the credit meter, so the transfer limit does
// not bound it (Monaco pays every bonus jackpot by hand-pay; pitlink as a jackpot win: by hand
// from the jackpot limit, to the credit meter below it); one while the station is not idle is
// 87 (its lock would stop a round the station has stakes in, or meet another hand-pay). A partial transfer to the
// station fills restricted first, then non-restricted, then cashable up to the limit; one to the host takes cashable
// first, then non-restricted, then restricted, up to what is held and the limit (as Monaco's AftOnTransferProvider /
// AftOffTransferProvider).
struct TransferAmounts {
    Amounts moved;
    std::uint8_t status = status::kFullTransfer;
    bool handpay = false;  // a bonus jackpot paid by an attendant, not to the credit meter
    [[nodiscard]] bool done() const { return status == status::kFullTransfer || status == status::kPartialTransfer; }
};
[[nodiscard]] TransferAmounts amountsMoved(const TransferRequest& request, const TransferContext& context);

// Does the request move credits to the station (in-house or bonus) or from it?
[[nodiscard]] bool toStation(std::uint8_t transferType);
[[nodiscard]] bool isBonus(std::uint8_t transferType);

// The history: 127 positions (01-7F) written in turn, only successful transfers the host has
// acknowledged. An interrogation's index: 01-7F absolute, 80-FF relative to the newest (FF the
// newest, FE the one before...).
class TransferHistory {
public:
    // Adds `entry` at the next position (01 after 7F), its `position` set; returns it.
    std::uint8_t add(TransferAnswer entry);
    // The entry an interrogation's index (01-FF) names; nullptr when none was written there.
    [[nodiscard]] const TransferAnswer* at(std::uint8_t index) const;
    // The position an index names (a relative index counted back from the newest).
    [[nodiscard]] std::uint8_t positionOf(std::uint8_t index) const;
    [[nodiscard]] bool empty() const { return count_ == 0; }
    [[nodiscard]] std::size_t size() const { return count_; }

private:
    std::array<std::optional<TransferAnswer>, 128> slots_{};  // slot 0 unused
    std::uint8_t next_ = 1;
    std::size_t count_ = 0;
};

}  // namespace pitlink::sas::aft
