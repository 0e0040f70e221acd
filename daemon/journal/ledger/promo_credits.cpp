#include "daemon/journal/ledger/promo_credits.h"

#include <charconv>

#include "daemon/journal/ledger/ledger.h"
#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/record_kinds.h"

namespace pitlink::journal {

namespace {

std::string partsText(const PromoParts& parts) {
    return "restricted " + std::to_string(parts.restricted) + ", non-restricted " + std::to_string(parts.nonrestricted);
}

}  // namespace

std::optional<std::int64_t> betOfRef(const std::optional<std::string>& ref) {
    constexpr std::string_view kPrefix = "bet ";
    if (!ref || !ref->starts_with(kPrefix)) {
        return std::nullopt;
    }
    std::int64_t bet = 0;
    const char* first = ref->data() + kPrefix.size();
    const char* last = ref->data() + ref->size();
    const auto [end, error] = std::from_chars(first, last, bet);
    if (error != std::errc{} || end != last || first == last || bet < 0) {
        return std::nullopt;
    }
    return bet;
}

PromoParts PromoCredits::staked() const {
    PromoParts sum;
    for (const auto& [key, parts] : stakes) {
        sum += parts;
    }
    return sum;
}

PromoParts PromoCredits::stakedIn(std::int64_t round) const {
    PromoParts sum;
    for (auto it = stakes.lower_bound(StakeKey{round, 0}); it != stakes.end() && it->first.round == round; ++it) {
        sum += it->second;
    }
    return sum;
}

PromoParts PromoCredits::partsOf(std::string_view why, Money amount, std::optional<std::int64_t> round,
                                 const std::optional<std::string>& ref) const {
    if (why == reason::kBet) {
        return amount < 0 ? stakeTaken(held, -amount).negated() : PromoParts{};
    }
    if (why == reason::kBetReturn) {
        const std::int64_t r = round.value_or(0);
        if (const auto bet = betOfRef(ref)) {
            const auto it = stakes.find(StakeKey{r, *bet});
            return it == stakes.end() ? PromoParts{} : it->second;
        }
        return stakedIn(r);
    }
    return {};
}

void PromoCredits::apply(const CreditRecord& credit, std::optional<std::int64_t> round, Money cashableBefore) {
    const PromoParts& parts = credit.promo;
    const std::string& why = credit.reason;
    const std::int64_t r = round.value_or(0);
    const auto refuse = [&why](const std::string& what) {
        throw LedgerError("credit record with reason " + why + ": " + what);
    };
    if (!credit.wageredPromo.none() && why != reason::kSettlement) {
        refuse("wagered parts on a credit that is not a settlement");
    }
    const PromoParts after{held.restricted + parts.restricted, held.nonrestricted + parts.nonrestricted};
    if (after.restricted < 0 || after.nonrestricted < 0 || cashableBefore + credit.amount - parts.total() < 0) {
        refuse("moves " + partsText(parts) + " of " + std::to_string(credit.amount) +
               " credits, more than the station holds of a type");
    }
    // Every check is made before anything changes.
    std::map<StakeKey, PromoParts> stakesAfter = stakes;
    if (why == reason::kBet) {
        if (parts != partsOf(why, credit.amount, round, credit.ref)) {
            refuse("a stake takes restricted credits first, then non-restricted: not " + partsText(parts));
        }
        if (!parts.none()) {
            const auto bet = betOfRef(credit.ref);
            if (!bet || !stakesAfter.emplace(StakeKey{r, *bet}, parts.negated()).second) {
                refuse("a promotional stake without a bet of its own");
            }
        }
    } else if (why == reason::kBetReturn) {
        if (parts != partsOf(why, credit.amount, round, credit.ref)) {
            refuse("a stake returns to the types it was taken from: not " + partsText(parts));
        }
        if (const auto bet = betOfRef(credit.ref)) {
            stakesAfter.erase(StakeKey{r, *bet});
        } else {
            std::erase_if(stakesAfter, [r](const auto& entry) { return entry.first.round == r; });
        }
    } else if (why == reason::kSettlement) {
        const PromoParts wagered = stakedIn(r);
        if (credit.wageredPromo != wagered) {
            refuse("wagered " + partsText(credit.wageredPromo) + " but the round's stakes took " + partsText(wagered));
        }
        if (parts.restricted < 0 || parts.nonrestricted < 0 || parts.restricted > wagered.restricted ||
            parts.nonrestricted > wagered.nonrestricted) {
            refuse("returns " + partsText(parts) + " of stakes that took " + partsText(wagered));
        }
        std::erase_if(stakesAfter, [r](const auto& entry) { return entry.first.round == r; });
    } else if (why == reason::kTicketOut || why == reason::kBonusHandpay) {
        // Non-restricted credits leave on a cashable ticket with the cashable ones; a hand-paid
        // bonus jackpot leaves as it came (a bonus is cashable or non-restricted).
        if (parts.restricted != 0 || parts.nonrestricted > 0) {
            refuse("a ticket printed or a bonus hand-paid takes cashable and non-restricted credits only");
        }
    } else if (why == reason::kTransferIn || why == reason::kBonus) {
        const Money cashable = credit.amount - parts.total();
        if (parts.restricted < 0 || parts.nonrestricted < 0 || cashable < 0 ||
            (why == reason::kBonus && parts.restricted != 0)) {
            refuse("brings " + partsText(parts) + " of " + std::to_string(credit.amount) +
                   (why == reason::kBonus ? " (a bonus is cashable or non-restricted)" : ""));
        }
    } else if (why == reason::kTransferOut) {
        if (parts.restricted > 0 || parts.nonrestricted > 0 || credit.amount - parts.total() > 0) {
            refuse("takes " + partsText(parts) + " of " + std::to_string(credit.amount));
        }
    } else if (why == reason::kResettlement) {
        // A correction moves each type by the difference in what the round's stakes got back
        // (resettlement.cpp); the types' balances are checked above.
    } else if (why == reason::kRestrictedExpired) {
        if (parts.restricted != credit.amount || parts.nonrestricted != 0) {
            refuse("expires restricted credits only");
        }
    } else if (!parts.none()) {
        refuse("moves cashable credits only, not " + partsText(parts));
    }
    held = after;
    stakes = std::move(stakesAfter);
}

}  // namespace pitlink::journal
