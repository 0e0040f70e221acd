#pragma once
// A station's credits are of three types (SAS AFT's, protocols/sas/README.md "Credit types"):
// cashable, restricted promotional (non-cashable: played, not cashed out) and non-restricted
// promotional (cashable once on the meter, metered apart). A credit record carries the
// promotional parts of its amount; the rest is cashable. Pure rules, shared by the writer
// (JournalTransaction::credit, the settlement) and the ledger that checks every record.
#include <cstdint>
#include <optional>
#include <string_view>

#include "daemon/game/settlement.h"

namespace pitlink::journal {

using game::Money;

// The promotional parts of an amount of credits (signed like the amount); the rest is cashable.
struct PromoParts {
    Money restricted = 0;
    Money nonrestricted = 0;
    [[nodiscard]] bool none() const { return restricted == 0 && nonrestricted == 0; }
    [[nodiscard]] Money total() const { return restricted + nonrestricted; }
    friend bool operator==(const PromoParts&, const PromoParts&) = default;
    PromoParts& operator+=(const PromoParts& other) {
        restricted += other.restricted;
        nonrestricted += other.nonrestricted;
        return *this;
    }
    [[nodiscard]] PromoParts negated() const { return {-restricted, -nonrestricted}; }
};

// What a stake of `stake` credits takes from credits holding `held` promotional parts:
// restricted credits first, then non-restricted, then cashable (the rest). Positive parts.
[[nodiscard]] constexpr PromoParts stakeTaken(const PromoParts& held, Money stake) {
    const Money restricted = held.restricted < stake ? held.restricted : stake;
    const Money left = stake - restricted;
    const Money nonrestricted = held.nonrestricted < left ? held.nonrestricted : left;
    return {restricted, nonrestricted};
}

// What comes back of a stake of `stakeTotal` that took `stake` when its bet pays back `returned`:
// up to the stake (a push, a void, a withdrawal, a partial loss) to the types it was taken
// from, restricted first; a bet that pays back more than its stake won, and all it pays is
// cashable.
[[nodiscard]] constexpr PromoParts stakeReturned(const PromoParts& stake, Money stakeTotal, Money returned) {
    return returned > stakeTotal ? PromoParts{} : stakeTaken(stake, returned);
}

// A legacy bonus's tax status (SAS LP 8A's 00, 01, 02): the legacy bonus meter that counts it.
// Its credits are cashable whatever it is.
enum class TaxStatus : std::uint8_t { Deductible = 0, NonDeductible = 1, WagerMatch = 2 };

// The name a credit record's body gives it ("tax_status"), and back (nullopt: not a tax status).
[[nodiscard]] constexpr std::string_view taxStatusName(TaxStatus status) {
    switch (status) {
        case TaxStatus::NonDeductible:
            return "non_deductible";
        case TaxStatus::WagerMatch:
            return "wager_match";
        case TaxStatus::Deductible:
            break;
    }
    return "deductible";
}
[[nodiscard]] constexpr std::optional<TaxStatus> taxStatusNamed(std::string_view name) {
    for (const TaxStatus status : {TaxStatus::Deductible, TaxStatus::NonDeductible, TaxStatus::WagerMatch}) {
        if (taxStatusName(status) == name) {
            return status;
        }
    }
    return std::nullopt;
}

}  // namespace pitlink::journal
