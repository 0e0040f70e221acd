// SAS legacy bonusing as the table sees it (daemon/sas/station_legacy_bonus.cpp asks): the host
// awards a station a bonus in credits with its tax status; the table takes it when the station can
// take credits now, journals it as a cashable credit, and says so at once.
#include "daemon/journal/records/record_kinds.h"
#include "daemon/table/table.h"

namespace pitlink::table {

bool Table::legacyBonus(std::int64_t number, game::Money amount, journal::TaxStatus taxStatus,
                        std::function<void(bool)> done) {
    if (journal_.failed()) {
        return false;  // the journal takes nothing more, not even the refusal
    }
    // What holds a station's credits still holds a bonus off too: a hand-pay being paid, a cash-out
    // or a ticket waiting for the host, a station the host shut down, a reserved one, an AFT lock.
    std::optional<Reply> problem = stationProblem(number);
    if (!problem && tilted()) {
        problem = Reply::refused("tilted", "the table is in tilt: " + tilts_.begin()->second);
    }
    if (problem) {
        // Journaled like an acceptance (docs/design.md rule 1); the host hears busy at once.
        refuse("legacy_bonus", number, [](const Reply&) {}, std::move(*problem),
               {.amount = amount, .taxStatus = std::string(journal::taxStatusName(taxStatus))});
        return false;
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.credit(number, amount, journal::reason::kLegacyBonus, std::nullopt,
              {.ref = "sas legacy bonus", .taxStatus = taxStatus});
    const game::Money credits = tx.balance(number);
    commit(
        std::move(tx), [done = std::move(done)](const Reply& reply) { done(reply.ok); },
        Reply::accepted(CreditsAnswer{credits}),
        [this, number, credits] {
            publish(CreditsChanged{number, credits, std::nullopt, std::nullopt, {}});
        });
    return true;
}

}  // namespace pitlink::table
