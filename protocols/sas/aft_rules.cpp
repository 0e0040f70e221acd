#include "protocols/sas/aft_rules.h"

#include <algorithm>

namespace pitlink::sas::aft {

namespace {

bool allZero(const RegistrationKey& key) {
    return std::all_of(key.begin(), key.end(), [](std::uint8_t b) { return b == 0; });
}

Registration notRegistered(Registration r) {
    r.status = registration::kNotRegistered;
    return r;
}

}  // namespace

bool Registration::registered() const {
    return status == registration::kRegistered && !allZero(key);
}

RegistrationStep registrationStep(const Registration& now, const RegistrationRequest& request,
                                  std::uint32_t machineAsset) {
    using namespace registration;
    RegistrationStep step{now, 0};
    Registration& after = step.after;
    after.asset = machineAsset;
    const auto cancelled = [&] {
        after = notRegistered(after);
        step.exception = 0x6E;  // AFT registration cancelled
        return step;
    };
    if (request.code == kRead) {
        return step;
    }
    if (request.code == kUnregister) {
        if (now.status == kNotRegistered) {
            return step;
        }
        return cancelled();
    }
    // 00, 01, 40 name the machine: another asset number cancels (SAS: the host must know it).
    if (!request.asset || *request.asset == 0 || *request.asset != machineAsset) {
        return cancelled();
    }
    // Initialise and register take the request's key, and its POS ID unless "no change".
    const auto keep = [&](std::uint8_t status) {
        after.status = status;
        after.key = request.key;
        if (request.posId != kPosIdUnchanged) {
            after.posId = request.posId;
        }
        return step;
    };
    switch (request.code) {
        case kInitialize:
            return keep(kReady);
        case kRegister:
            if (now.registered() && now.asset == machineAsset && request.key == now.key &&
                (request.posId == kPosIdUnchanged || request.posId == now.posId)) {
                // The registration in force asked again: a repeat whose answer was lost (across a
                // restart too), not a register out of turn. Nothing changes.
                return step;
            }
            if (now.status != kReady || allZero(request.key)) {
                return cancelled();
            }
            return keep(kRegistered);
        case kAcknowledge:
            if (now.status != kReady) {
                return cancelled();
            }
            // Pending, then acknowledged at once (no operator at a table confirms it): ready.
            after.status = kReady;
            step.exception = 0x6D;
            return step;
        default:
            return step;
    }
}

bool toStation(std::uint8_t transferType) {
    return transferType == type::kInHouseToMachine || transferType == type::kBonusCoinOut ||
           transferType == type::kBonusJackpot || transferType == type::kDebitToMachine;
}

bool isBonus(std::uint8_t transferType) {
    return transferType == type::kBonusCoinOut || transferType == type::kBonusJackpot;
}

std::optional<std::uint8_t> refusalOf(const TransferRequest& r, const TransferContext& c) {
    if (c.lastHistoryId && *c.lastHistoryId == r.transactionId) {
        return status::kIdNotUnique;
    }
    if (r.asset == 0 || r.asset != c.asset) {
        return status::kAssetMismatch;
    }
    if ((r.flags & 0x40U) != 0 && !c.locked) {  // accept only if locked
        return status::kNotLocked;
    }
    if ((r.flags & 0x80U) != 0) {  // a receipt: none printed here (LP 75 is not supported)
        return isBonus(r.type) ? status::kReceiptNotAllowed : status::kCannotPrintReceipt;
    }
    if (!allZero(r.key)) {
        if (c.registration.status != registration::kRegistered) {
            return status::kNotRegistered;
        }
        if (r.key != c.registration.key) {
            return status::kKeyMismatch;
        }
    }
    switch (r.type) {
        case type::kInHouseToMachine:
        case type::kInHouseToHost:
        case type::kBonusCoinOut:
        case type::kBonusJackpot:
            break;
        case type::kWinToHost:
            return status::kNoWonCredits;  // no host cash-out of a win is pending
        case type::kInHouseToTicket:
        case type::kDebitToMachine:
        case type::kDebitToTicket:
            return status::kNotValidFunction;  // deferred: A0 and LP 74 do not offer them
        default:
            return status::kUnsupportedCode;
    }
    if (isBonus(r.type) && (r.amounts.restricted != 0 || r.code == kTransferPartial)) {
        return status::kNotValidFunction;  // a bonus is whole and never restricted
    }
    if (r.amounts.total() == 0) {
        return status::kNotValidAmount;
    }
    const std::uint64_t denom = std::max<std::uint64_t>(c.denominationCents, 1);
    if (r.amounts.cashable % denom != 0 || r.amounts.restricted % denom != 0 || r.amounts.nonrestricted % denom != 0) {
        return status::kNotMultipleOfDenomination;
    }
    if (r.type == type::kInHouseToMachine && r.amounts.restricted != 0 && !c.expirationValid) {
        return status::kNotValidAmount;  // an expiration that is no date, or one already past
    }
    if (r.type == type::kInHouseToMachine && r.amounts.restricted != 0 && c.available.restricted != 0 &&
        r.poolId != c.restrictedPool) {
        return status::kOtherPool;
    }
    const bool allowed = isBonus(r.type)     ? c.bonusAllowed
                         : toStation(r.type) ? c.transferInAllowed
                                             : c.transferOutAllowed;
    if (!allowed) {
        return status::kUnableNow;
    }
    return std::nullopt;
}

TransferAmounts amountsMoved(const TransferRequest& r, const TransferContext& c) {
    const bool partial = r.code == kTransferPartial;
    const std::uint64_t denom = std::max<std::uint64_t>(c.denominationCents, 1);
    const std::uint64_t limit = c.transferLimitCents / denom * denom;
    TransferAmounts out;
    // Up to `room` cents in whole credits, taken from `wanted` in the order given.
    const auto fill = [&](Amounts wanted, bool promotionalFirst) {
        std::uint64_t room = limit;
        const auto take = [&room](std::uint64_t asked) {
            const std::uint64_t n = std::min(asked, room);
            room -= n;
            return n;
        };
        Amounts moved;
        if (promotionalFirst) {
            moved.restricted = take(wanted.restricted);
            moved.nonrestricted = take(wanted.nonrestricted);
            moved.cashable = take(wanted.cashable);
        } else {
            moved.cashable = take(wanted.cashable);
            moved.nonrestricted = take(wanted.nonrestricted);
            moved.restricted = take(wanted.restricted);
        }
        return moved;
    };
    if (r.type == type::kBonusJackpot && c.jackpotLimitCents > 0 && r.amounts.total() >= c.jackpotLimitCents) {
        if (!c.idle) {
            return {{}, status::kUnableNow};
        }
        out.moved = r.amounts;
        out.handpay = true;
        return out;
    }
    if (toStation(r.type)) {
        if (r.amounts.total() <= limit) {
            out.moved = r.amounts;
            return out;
        }
        if (!partial) {
            return {{}, status::kOverLimit};
        }
        out.moved = fill(r.amounts, true);
    } else {
        const Amounts& have = c.available;
        const bool held = r.amounts.cashable <= have.cashable && r.amounts.restricted <= have.restricted &&
                          r.amounts.nonrestricted <= have.nonrestricted;
        if (held && r.amounts.total() <= limit) {
            out.moved = r.amounts;
            return out;
        }
        if (!partial) {
            return {{}, held ? status::kOverLimit : status::kNotValidFunction};
        }
        out.moved = fill({std::min(r.amounts.cashable, have.cashable), std::min(r.amounts.restricted, have.restricted),
                          std::min(r.amounts.nonrestricted, have.nonrestricted)},
                         false);
    }
    if (out.moved.total() == 0) {
        return {{}, status::kNotValidAmount};
    }
    out.status = out.moved == r.amounts ? status::kFullTransfer : status::kPartialTransfer;
    return out;
}

std::uint8_t TransferHistory::add(TransferAnswer entry) {
    const std::uint8_t position = next_;
    entry.position = position;
    if (!slots_[position]) {
        ++count_;
    }
    slots_[position] = std::move(entry);
    next_ = next_ == kMaxHistoryIndex ? 1 : static_cast<std::uint8_t>(next_ + 1);
    return position;
}

std::uint8_t TransferHistory::positionOf(std::uint8_t index) const {
    if (index < 0x80) {
        return index;
    }
    // FF: the newest (the position before next_), FE the one before it, ...
    const int back = 0xFF - index;
    int position = next_ - 1 - back;
    while (position < 1) {
        position += kMaxHistoryIndex;
    }
    return static_cast<std::uint8_t>(position);
}

const TransferAnswer* TransferHistory::at(std::uint8_t index) const {
    if (index == 0) {
        return nullptr;
    }
    const auto& slot = slots_[positionOf(index)];
    return slot ? &*slot : nullptr;
}

}  // namespace pitlink::sas::aft
