#pragma once
// A station's promotional credits (credit_types.h) as its credit records move them: held on its
// meter, and staked in rounds not yet settled (so that a stake coming back returns to its type).
// The ledger checks every credit record against these rules; the writer takes the parts a
// record must carry from the same state (JournalTransaction::credit).
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "daemon/journal/ledger/credit_types.h"

namespace pitlink::journal {

struct CreditRecord;  // records/cashier_records.h

// A bet's stake: its round and its number in the round ("bet N", the credit record's ref).
struct StakeKey {
    std::int64_t round = 0;
    std::int64_t bet = 0;
    friend bool operator==(const StakeKey&, const StakeKey&) = default;
    friend bool operator<(const StakeKey& a, const StakeKey& b) {
        return a.round != b.round ? a.round < b.round : a.bet < b.bet;
    }
};

// The bet a credit's ref names ("bet 3" -> 3), nullopt for any other ref.
[[nodiscard]] std::optional<std::int64_t> betOfRef(const std::optional<std::string>& ref);

struct PromoCredits {
    PromoParts held;                        // of the station's credits; the rest is cashable
    std::map<StakeKey, PromoParts> stakes;  // stakes in play with a promotional part (positive)
    friend bool operator==(const PromoCredits&, const PromoCredits&) = default;

    [[nodiscard]] bool empty() const { return held.none() && stakes.empty(); }
    // The promotional parts of every stake in play, or of one round's.
    [[nodiscard]] PromoParts staked() const;
    [[nodiscard]] PromoParts stakedIn(std::int64_t round) const;

    // The parts a credit must carry when its writer does not decide them: a bet takes restricted
    // credits first, then non-restricted (stakeTaken); a returned bet ("bet N") gives back what
    // it took, a returned round (a void, no bet named) every stake of the round; anything else
    // is cashable. A settlement's wagered parts are always its round's stakes (stakedIn).
    [[nodiscard]] PromoParts partsOf(std::string_view reason, Money amount, std::optional<std::int64_t> round,
                                     const std::optional<std::string>& ref) const;

    // Checks `credit`'s parts against the rules (LedgerError, nothing changed) and moves them.
    // `cashableBefore`: the station's cashable credits before it.
    void apply(const CreditRecord& credit, std::optional<std::int64_t> round, Money cashableBefore);
};

}  // namespace pitlink::journal
