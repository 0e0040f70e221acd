// Cashless transfers over SAS AFT as the table sees them (daemon/sas/station_aft.cpp decides
// them): the end of a transfer journaled with the credits it moves, the lock that holds a
// station still for one, and whether a station is idle for it.
#include "daemon/journal/records/record_kinds.h"
#include "daemon/table/table.h"

namespace pitlink::table {

void Table::aftTransfer(std::int64_t number, const journal::AftTransferRecord& record, game::Money amount,
                        journal::PromoParts parts, std::string_view reason, std::function<void(bool)> done,
                        bool handpay) {
    journal::JournalTransaction tx = journal_.begin();
    tx.add(record, std::nullopt, number);
    if (amount != 0) {
        tx.credit(number, amount, reason, std::nullopt, {.ref = "aft " + record.id, .promo = parts});
    }
    if (handpay) {
        // A bonus jackpot at the jackpot limit is paid by an attendant, as a jackpot win is: it
        // leaves the credit meter in the transaction that brought it, and the station locks.
        tx.add(journal::HandpayPendingRecord{amount, std::string(kBonusJackpotHandpay), std::nullopt, true},
               std::nullopt, number);
        tx.credit(number, -amount, journal::reason::kBonusHandpay, std::nullopt,
                  {.ref = "aft " + record.id, .promo = parts.negated()});
        walletAt(number).handpay = PendingHandpay{amount, std::string(kBonusJackpotHandpay), true};
    }
    const game::Money credits = tx.balance(number);
    commit(
        std::move(tx), [done = std::move(done)](const Reply& reply) { done(reply.ok); },
        Reply::accepted(CreditsAnswer{credits}),
        [this, number, credits, moved = amount != 0 && !handpay, handpay, amount, id = record.id,
         why = std::string(reason)] {
            if (moved) {
                publish(CreditsChanged{number, credits, std::nullopt, std::pair(id, why), {}});
            }
            if (handpay) {
                publish(HandpayLocked{number, amount, std::string(kBonusJackpotHandpay)});
            }
        });
}

void Table::setAftLocked(std::int64_t number, bool locked) {
    if (controller_.isStation(number) && walletAt(number).aftLocked != locked) {
        walletAt(number).aftLocked = locked;
        publish(AftLockChanged{number, locked});
    }
}

bool Table::stationIdle(std::int64_t number) const {
    if (!controller_.isStation(number)) {
        return false;
    }
    const StationWallet& w = wallet(number);
    if (w.handpay || w.cashingOut || w.hostCashingOut || w.redeeming) {
        return false;
    }
    // Stakes of every game are in the station's account until their round settles.
    const auto& accounts = journal_.projected().stations();
    const auto it = accounts.find(number);
    return it == accounts.end() || it->second.inPlay == 0;
}

}  // namespace pitlink::table
