// Bet limits at a station: the limit level its player chose (seed 002), the player's own limits
// set by an operator (seed 004), and what the station shows over its spots (seed 000 "Show Bet
// Limits", "Show Winnings"). A change is journaled as the station's whole kept state
// (station.state), which a restart restores. And the value of one credit the station plays in
// (seed 000's Denomination button).
#include <algorithm>

#include "daemon/game/wide_int.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/table/table.h"

namespace pitlink::table {

void Table::addStationState(journal::JournalTransaction& tx, const Station& s, const std::string& by) const {
    const StationWallet& w = wallet(s.number);
    tx.add(journal::StationStateRecord{journal::StationState{s.lastSlip, s.streak, s.limitLevel, w.personal,
                                                             s.autoRepeat, s.keepBets, w.denomination},
                                       by},
           std::nullopt, s.number);
}

void Table::selectLimitLevel(std::int64_t number, int level, Respond respond, const std::string& who) {
    if (auto problem = seatProblem(number)) {
        refuse("limit_level", number, respond, *problem, journal::RefusedRequest{.level = level});
        return;
    }
    const int levels = static_cast<int>(settings_.bets.limits.levels.size());
    if (level < 1 || level > levels) {
        refuse("limit_level", number, respond,
               Reply::refused("no_such_level", "the table offers limit levels 1.." + std::to_string(levels)),
               journal::RefusedRequest{.level = level});
        return;
    }
    Station& s = stationAt(number);
    if (!s.bets.empty()) {
        refuse("limit_level", number, respond,
               Reply::refused("bets_on_layout", "the level changes only with no bets on the layout (clear them first)"),
               journal::RefusedRequest{.level = level});
        return;
    }
    s.limitLevel = level;
    journal::JournalTransaction tx = journal_.begin();
    addStationState(tx, s, who);
    commit(std::move(tx), std::move(respond), limits(number));
}

void Table::selectDenomination(std::int64_t number, game::Money value, Respond respond) {
    if (auto problem = stationProblem(number)) {
        refuse("denomination", number, respond, *problem, journal::RefusedRequest{.denomination = value});
        return;
    }
    const auto& offered = settings_.denominations;
    if (std::find(offered.begin(), offered.end(), value) == offered.end()) {
        std::string list;
        for (const game::Money d : offered) {
            list += (list.empty() ? "" : ", ") + std::to_string(d);
        }
        refuse(
            "denomination", number, respond,
            Reply::refused("not_offered", "the table offers the denominations " + list + " (minor units per credit)"),
            journal::RefusedRequest{.denomination = value});
        return;
    }
    Station& s = stationAt(number);
    if (stakesInPlay(number)) {
        refuse("denomination", number, respond,
               Reply::refused("bets_on_layout",
                              "the denomination changes only with no bets on the layout (clear them first)"),
               journal::RefusedRequest{.denomination = value});
        return;
    }
    walletAt(number).denomination = value;
    journal::JournalTransaction tx = journal_.begin();
    addStationState(tx, s);
    commit(std::move(tx), std::move(respond), limits(number));
}

void Table::setPersonalLimits(std::int64_t number, game::PersonalLimits personal, const std::string& who,
                              Respond respond) {
    const journal::RefusedRequest detail{.by = who, .min = personal.min, .max = personal.max};
    if (number < 1 || number > stationCount()) {
        refuse("station_limits", number, respond,
               Reply::refused("no_such_station", "there is no station " + std::to_string(number)), detail);
        return;
    }
    if ((personal.min && *personal.min < 1) || (personal.max && *personal.max < 1) ||
        (personal.min && personal.max && *personal.max < *personal.min)) {
        refuse("station_limits", number, respond, Reply::refused("bad_limits", "personal limits need 1 <= min <= max"),
               detail);
        return;
    }
    Station& s = stationAt(number);
    if (stakesInPlay(number)) {
        refuse("station_limits", number, respond,
               Reply::refused("bets_on_layout", "a player's limits change only with no bets on the layout"), detail);
        return;
    }
    walletAt(number).personal = personal;
    journal::JournalTransaction tx = journal_.begin();
    addStationState(tx, s, who);
    commit(std::move(tx), std::move(respond), limits(number));
}

Reply Table::limits(std::int64_t number) const {
    if (number < 1 || number > stationCount()) {
        return Reply::refused("no_such_station", "there is no station " + std::to_string(number) + " (1.." +
                                                     std::to_string(stationCount()) + ")");
    }
    const Station& s = station(number);
    const game::BetRulesConfig& rules = settings_.bets;
    LimitsAnswer answer;
    answer.station = number;
    answer.level = s.limitLevel;
    answer.levels = static_cast<int>(rules.limits.levels.size());
    answer.personal = wallet(number).personal;
    answer.denomination = denominationOf(number);
    answer.denominations = settings_.denominations;
    for (const game::BetType spot : game::kAllBetTypes) {
        if (!paytable_.offers(spot)) {
            continue;
        }
        SpotLimitsView view{spot, game::spotRange(rules.limits, s.limitLevel, spot, answer.personal), 0};
        // Stakes are whole credits of the station's denomination.
        const game::Money unit = denominationOf(number);
        view.range.min = (view.range.min + unit - 1) / unit * unit;
        view.range.max -= view.range.max % unit;
        // The payout limit lowers the max to the largest whole-credit stake it lets win.
        if (game::mostWon(paytable_, spot, view.range.max) > rules.maxPayout) {
            const game::Fraction top = paytable_.highestRatio(spot);
            const auto fits = static_cast<game::Money>(static_cast<game::Int128>(rules.maxPayout) * top.den / top.num);
            view.range.max = fits - fits % denominationOf(number);
        }
        view.maxWin = view.range.max >= view.range.min ? game::mostWon(paytable_, spot, view.range.max) : 0;
        answer.spots.push_back(view);
    }
    const game::BetSlip slip = s.slip();
    for (const game::BetType spot : game::kAllBetTypes) {
        if (slip.has(spot)) {
            answer.winnings[spot] = game::mostWon(paytable_, spot, slip[spot]);
        }
    }
    return Reply::accepted(std::move(answer));
}

}  // namespace pitlink::table
