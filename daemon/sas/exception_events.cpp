#include "daemon/sas/exception_events.h"

#include <algorithm>

#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/round_records.h"
#include "daemon/journal/records/start_records.h"
#include "protocols/sas/bcd.h"
#include "protocols/sas/legacy_bonus_polls.h"

namespace pitlink::sas {

namespace kind = journal::kind;

namespace {

std::uint64_t credits(game::Money minor, game::Money denomination) {
    return static_cast<std::uint64_t>(journal::reportedMeter(minor / denomination));
}

// The coin in of game `number`'s plays at the station (every denomination).
std::int64_t gameCoinIn(const journal::Ledger& ledger, std::int64_t station, std::uint16_t number,
                        const GameSelection& selection) {
    const auto it = ledger.stations().find(station);
    if (it == ledger.stations().end()) {
        return 0;
    }
    std::int64_t coinIn = 0;
    for (const auto& [play, meters] : it->second.plays) {
        if (selection.numberOf(play.game) == number) {
            coinIn += meters[journal::Meter::CoinIn];
        }
    }
    return coinIn;
}

}  // namespace

std::uint16_t GameSelection::numberOf(const std::string& game) const {
    const auto it = std::find(games.begin(), games.end(), game);
    return it == games.end() ? 1 : static_cast<std::uint16_t>(it - games.begin() + 1);
}

std::uint16_t GameSelection::selectedAt(std::int64_t station) const {
    const auto it = selected.find(station);
    return it == selected.end() ? 1 : it->second;
}

std::vector<RaisedException> exceptionsOf(const std::vector<journal::Fact>& facts, const journal::Ledger& before,
                                          game::Money denomination, const std::set<std::int64_t>& linked,
                                          GameSelection& selection) {
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
    // 8C before a 7E or 7F of a game the host was not last told of.
    const auto select = [&](std::int64_t station, std::uint16_t number) {
        if (!linked.contains(station) || selection.selectedAt(station) == number) {
            return;
        }
        selection.selected[station] = number;
        std::vector<std::uint8_t> data;
        appendBcd(data, number, 2);
        at(station, code::kGameSelected, std::move(data));
    };
    const auto ended = [&](std::int64_t station, game::Money paid, const std::string& game) {
        select(station, selection.numberOf(game));
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
            const std::uint16_t number = selection.numberOf(journal::gameNamedIn(f));
            for (const auto& [station, wagered] : closed->wagered) {
                select(station, number);
                std::vector<std::uint8_t> started;
                appendBcd(started, credits(wagered, denomination) % 10'000, 2);
                appendBcd(started,
                          credits(gameCoinIn(before, station, number, selection) + wagered, denomination) % 100'000'000,
                          4);
                started.push_back(0x00);
                started.push_back(0x00);
                at(station, code::kGameStarted, std::move(started));
            }
        } else if (const auto voided = journal::recordOf<journal::RoundVoidedRecord>(f)) {
            voidedAfterClose = voided->afterClose.value_or(false);
        } else if (credit && credit->reason == journal::reason::kSettlement) {
            ended(*f.station, credit->amount, credit->game.value_or(std::string()));
        } else if (credit && credit->reason == journal::reason::kBetReturn && voidedAfterClose) {
            ended(*f.station, 0, credit->game.value_or(std::string()));  // voided: nothing won, the stakes come back
        } else if (credit && credit->reason == journal::reason::kLegacyBonus && credit->taxStatus) {
            // 7C, legacy bonus pay awarded: its credits and tax status, as LP 90 reports them.
            const legacy::BonusWin win{static_cast<legacy::TaxStatus>(*credit->taxStatus),
                                       static_cast<std::uint32_t>(credits(credit->amount, denomination) % 100'000'000)};
            at(f.station, code::kLegacyBonusAwarded, legacy::bonusWinData(win));
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
        } else if (k == kind::kAftTransfer) {
            // The table journals only the end of a pending transfer (daemon/sas/station_aft.h):
            // 69, AFT transfer complete, with it.
            at(f.station, code::kAftTransferComplete);
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
