#include "daemon/sas/exception_events.h"

#include "daemon/journal/fact_views.h"
#include "daemon/journal/record_kinds.h"
#include "protocols/sas/bcd.h"

namespace pitlink::sas {

namespace kind = journal::kind;

namespace {

std::uint64_t credits(game::Money minor, game::Money denomination) {
    return static_cast<std::uint64_t>(journal::reportedMeter(minor / denomination));
}

std::int64_t coinIn(const journal::Ledger& ledger, std::int64_t station) {
    const auto it = ledger.stations().find(station);
    return it == ledger.stations().end() ? 0 : it->second.meters[journal::Meter::CoinIn];
}

}  // namespace

std::vector<RaisedException> exceptionsOf(const std::vector<journal::Fact>& facts, const journal::Ledger& before,
                                          game::Money denomination, const std::set<std::int64_t>& linked) {
    std::vector<RaisedException> out;
    const auto at = [&](std::optional<std::int64_t> station, std::uint8_t c, std::vector<std::uint8_t> data = {}) {
        if (station) {
            if (linked.contains(*station)) {
                out.push_back(RaisedException{*station, c, std::move(data)});
            }
            return;
        }
        for (const std::int64_t s : linked) {  // a table-wide fact: every station sees it
            out.push_back(RaisedException{s, c, data});
        }
    };
    std::map<std::int64_t, std::int64_t> wageredSoFar;  // coin-in added by earlier facts of this transaction
    for (const journal::Fact& f : facts) {
        const std::string_view k = f.kind;
        const std::optional<journal::CreditFact> credit =
            k == kind::kCredit && f.station ? std::optional(journal::creditFact(f.body)) : std::nullopt;
        if (credit && credit->reason == journal::reason::kSettlement) {
            const game::Money wagered = credit->wagered;
            const game::Money paid = credit->amount;
            std::int64_t& earlier = wageredSoFar[*f.station];
            earlier += wagered;
            // 7E: credits wagered (2 BCD), coin-in meter after the wager (4 BCD), wager type, progressive group.
            std::vector<std::uint8_t> started;
            appendBcd(started, credits(wagered, denomination) % 10'000, 2);
            appendBcd(started, credits(coinIn(before, *f.station) + earlier, denomination) % 100'000'000, 4);
            started.push_back(0x00);
            started.push_back(0x00);
            at(f.station, code::kGameStarted, std::move(started));
            std::vector<std::uint8_t> ended;  // 7F: what the round paid back (4 BCD)
            appendBcd(ended, credits(paid, denomination) % 100'000'000, 4);
            at(f.station, code::kGameEnded, std::move(ended));
        } else if (k == kind::kHandpayPending) {
            if (journal::handpayFact(f.body).kind == "cancelled_credit") {
                at(f.station, code::kCashoutPressed);
            }
            at(f.station, code::kHandpayPending);
        } else if (k == kind::kHandpayReset) {
            at(f.station, code::kHandpayReset);
        } else if (k == kind::kTicketIssued) {
            at(f.station, code::kCashoutPressed);
            at(f.station, code::kTicketPrinted);
        } else if (k == kind::kTicketRedeemed && journal::ticketRedeemedFact(f.body).host) {
            at(f.station, code::kTicketTransferComplete);
        } else if (k == kind::kAttendantCalled) {
            at(f.station, code::kChangeLampOn);
        } else if (k == kind::kAttendantCleared) {
            at(f.station, code::kChangeLampOff);
        } else if (k == kind::kDoorOpened) {
            at(f.station, code::kSlotDoorOpened);
        } else if (k == kind::kDoorClosed) {
            at(f.station, code::kSlotDoorClosed);
        }
    }
    return out;
}

}  // namespace pitlink::sas
