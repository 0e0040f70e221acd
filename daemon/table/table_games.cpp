// Seed 000's multi-game station: "The player can add up to four games ... By pressing the X
// button, the player can exit a game if there are no bets on the table." A station's games are
// its wallet's (controller.h); each game refuses play from a station that has not joined it.
#include "daemon/journal/records/station_records.h"
#include "daemon/table/table.h"

namespace pitlink::table {

std::optional<Reply> Table::seatProblem(std::int64_t number) const {
    if (auto problem = stationProblem(number)) {
        return problem;
    }
    if (!wallet(number).joined(settings_.name)) {
        return Reply::refused("not_joined", "station " + std::to_string(number) + " does not play " + settings_.name +
                                                " (join it first)");
    }
    return std::nullopt;
}

void Table::join(std::int64_t number, Respond respond) {
    if (!controller_.isStation(number)) {
        refuse("join", number, respond, *stationProblem(number));
        return;
    }
    StationWallet& w = walletAt(number);
    if (w.joined(settings_.name)) {
        respond(Reply::accepted(AlreadySo{}));
        return;
    }
    if (w.games.size() >= game::kMostGamesPerStation) {
        refuse("join", number, respond,
               Reply::refused("too_many_games", "station " + std::to_string(number) + " already plays " +
                                                    std::to_string(game::kMostGamesPerStation) +
                                                    " games: leave one first"));
        return;
    }
    w.games.push_back(settings_.name);
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::StationGamesRecord{"join", settings_.name, w.games}, std::nullopt, number);
    const std::vector<std::string> games = w.games;
    commit(std::move(tx), std::move(respond), Reply::accepted(GamesAnswer{games}), [this, number, games] {
        publish(StationGamesChanged{number, true, games});
    });
}

void Table::leave(std::int64_t number, Respond respond) {
    if (!controller_.isStation(number)) {
        refuse("leave", number, respond, *stationProblem(number));
        return;
    }
    StationWallet& w = walletAt(number);
    if (!w.joined(settings_.name)) {
        respond(Reply::accepted(AlreadySo{}));
        return;
    }
    Station& s = stationAt(number);
    if (!s.bets.empty()) {
        refuse("leave", number, respond,
               Reply::refused("bets_on_table", "station " + std::to_string(number) + " has bets in " + settings_.name +
                                                   ": a game is left with no bets on its table"));
        return;
    }
    std::erase(w.games, settings_.name);
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::StationGamesRecord{"leave", settings_.name, w.games}, std::nullopt, number);
    const bool standing = s.autoRepeat || s.keepBets;
    const bool keep = s.keepBets;
    if (standing) {
        s.autoRepeat = false;
        s.keepBets = false;
        addStationState(tx, s);
    }
    const std::vector<std::string> games = w.games;
    commit(std::move(tx), std::move(respond), Reply::accepted(GamesAnswer{games}),
           [this, number, games, standing, keep] {
               publish(StationGamesChanged{number, false, games});
               if (standing) {
                   publishStanding(number, keep, false, "left_game");
               }
           });
}

}  // namespace pitlink::table
