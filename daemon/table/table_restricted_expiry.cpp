// Restricted promotional credits gone at their expiry (SAS AFT: daemon/sas/station_aft.cpp decides
// when, README "Credit types"): journaled as a credit of their own, and the station told.
#include "daemon/journal/records/record_kinds.h"
#include "daemon/table/table.h"

namespace pitlink::table {

void Table::expireRestricted(std::int64_t number, game::Money amount, const std::string& ref,
                             std::function<void(bool)> done) {
    journal::JournalTransaction tx = journal_.begin();
    tx.credit(number, -amount, journal::reason::kRestrictedExpired, std::nullopt,
              {.ref = ref, .promo = journal::PromoParts{-amount, 0}});
    const game::Money credits = tx.balance(number);
    commit(
        std::move(tx), [done = std::move(done)](const Reply& reply) { done(reply.ok); },
        Reply::accepted(CreditsAnswer{credits}),
        [this, number, credits] {
            publish(CreditsChanged{number, credits, std::nullopt, std::nullopt, {}});
        });
}

}  // namespace pitlink::table
