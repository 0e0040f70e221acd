#pragma once
// Where the table resumes after a start (from the journal): its games and the wallets they share.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "daemon/journal/records/fact_views.h"
#include "daemon/journal/records/station_state.h"
#include "daemon/journal/shoe_in_play.h"
#include "daemon/table/station.h"

namespace pitlink::table {

struct TableStart {
    std::int64_t nextRoundId = 1;
    std::uint32_t nextShoeNumber = 1;
    std::int64_t nextTicketNumber = 1;
    std::map<std::int64_t, PendingHandpay> handpays;              // stations still locked for a hand-pay
    std::set<std::int64_t> attendantCalls;                        // calls not yet cleared
    std::map<std::int64_t, journal::StationState> stationStates;  // last slip, streak, limits
    std::map<std::int64_t, journal::DisputeFact> disputes;        // open, held for an operator
    std::map<std::int64_t, journal::ReservationFact> reservations;
    // A reader's shoe in play when pitlinkd stopped: the table goes on with it (same number, cards
    // left, cut and burn, round in shoe, roads) when its decks are the configured ones.
    std::optional<journal::ShoeInPlay> shoe{};
    // The games each station has joined (station.games); a station absent plays the first game.
    std::map<std::int64_t, std::vector<std::string>> joinedGames{};
    // This game's last round before the restart (a controller of several games: the journal's
    // last round may be another game's): the "last deal" a dispute may name until it deals again.
    std::optional<std::int64_t> lastRound{};
    // Each station's last station.state in any game: the wallet's denomination and personal
    // limits (a station absent: stationStates').
    std::map<std::int64_t, journal::StationState> walletStates{};
};

}  // namespace pitlink::table
