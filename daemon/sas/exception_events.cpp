#include "daemon/sas/exception_events.h"

#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/round_records.h"
#include "daemon/journal/records/start_records.h"
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
    const auto ended = [&](std::int64_t station, game::Money paid) {
        std::vector<std::uint8_t> data;  // 7F: what the game paid back (4 BCD)
        appendBcd(data, credits(paid, denomination) % 100'000'000, 4);
        at(station, code::kGameEnded, std::move(data));
    };
    bool voidedAfterClose = false;  // a void of games that had started: their stakes back end them
    for (const journal::Fact& f : facts) {
        const std::string_view k = f.kind;
        const std::optional<journal::CreditRecord> credit =
            f.station ? journal::recordOf<journal::CreditRecord>(f) : std::nullopt;
        if (const auto closed = journal::recordOf<journal::RoundClosedRecord>(f)) {
            // Bets closed: each station with a bet starts its game. 7E: credits wagered (2 BCD),
            // the coin-in meter once this wager is in it (4 BCD; it is metered when the round
            // settles), wager type, progressive group.
            for (const auto& [station, wagered] : closed->wagered) {
                std::vector<std::uint8_t> started;
                appendBcd(started, credits(wagered, denomination) % 10'000, 2);
                appendBcd(started, credits(coinIn(before, station) + wagered, denomination) % 100'000'000, 4);
                started.push_back(0x00);
                started.push_back(0x00);
                at(station, code::kGameStarted, std::move(started));
            }
        } else if (const auto voided = journal::recordOf<journal::RoundVoidedRecord>(f)) {
            voidedAfterClose = voided->afterClose.value_or(false);
        } else if (credit && credit->reason == journal::reason::kSettlement) {
            ended(*f.station, credit->amount);
        } else if (credit && credit->reason == journal::reason::kBetReturn && voidedAfterClose) {
            ended(*f.station, 0);  // voided: nothing won, the stakes come back
        } else if (const auto handpay = journal::recordOf<journal::HandpayPendingRecord>(f)) {
            if (handpay->kind == "cancelled_credit") {
                at(f.station, code::kCashoutPressed);
            }
            at(f.station, code::kHandpayPending);
        } else if (k == kind::kHandpayReset) {
            at(f.station, code::kHandpayReset);
        } else if (k == kind::kTicketIssued) {
            at(f.station, code::kCashoutPressed);
            at(f.station, code::kTicketPrinted);
        } else if (const auto redeemed = journal::recordOf<journal::TicketRedeemedRecord>(f)) {
            if (redeemed->host) {
                at(f.station, code::kTicketTransferComplete);
            }
        } else if (k == kind::kAttendantCalled) {
            at(f.station, code::kChangeLampOn);
        } else if (k == kind::kAttendantCleared) {
            at(f.station, code::kChangeLampOff);
        } else if (k == kind::kTiltRaised) {
            at(std::nullopt, code::kGeneralTilt);  // the table takes no bets: every station is tilted
        } else if (const auto config = journal::recordOf<journal::ConfigLoadedRecord>(f)) {
            if (config->applied && !config->applied->empty()) {
                at(std::nullopt, code::kOperatorChangedOptions);  // a SIGHUP changed what the table plays by
            }
        } else if (k == kind::kTip) {
            at(f.station, code::kTipAwarded);
        } else if (k == kind::kDoorOpened) {
            at(f.station, code::kSlotDoorOpened);
        } else if (k == kind::kDoorClosed) {
            at(f.station, code::kSlotDoorClosed);
        }
    }
    return out;
}

}  // namespace pitlink::sas
