// The controller's shared part: each station's wallet as the journal left it.
#include "daemon/table/controller.h"

#include <algorithm>
#include <stdexcept>

namespace pitlink::table {

Controller::Controller(int stations, const std::vector<game::Money>& denominations, const TableStart& start,
                       std::vector<std::string> games)
    : games_(std::move(games)),
      nextRoundId_(start.nextRoundId),
      nextTicket_(start.nextTicketNumber),
      nextShoe_(start.nextShoeNumber) {
    if (games_.empty()) {
        throw std::invalid_argument("a controller has at least one game");
    }
    for (int n = 1; n <= stations; ++n) {
        StationWallet w;
        w.number = n;
        if (const auto it = start.joinedGames.find(n); it != start.joinedGames.end()) {
            w.games = it->second;
        } else {
            w.games = {games_.front()};
        }
        if (const auto it = start.handpays.find(n); it != start.handpays.end()) {
            w.handpay = it->second;
        }
        w.attendantCalled = start.attendantCalls.contains(n);
        // The wallet's last change, whichever game it was made through (before games: the first's).
        const journal::StationState* kept = nullptr;
        if (const auto it = start.walletStates.find(n); it != start.walletStates.end()) {
            kept = &it->second;
        } else if (const auto first = start.stationStates.find(n); first != start.stationStates.end()) {
            kept = &first->second;
        }
        if (kept != nullptr) {
            w.personal = kept->personal;
            // A denomination the controller no longer offers falls back to its first.
            if (const auto chosen = kept->denomination;
                chosen && std::find(denominations.begin(), denominations.end(), *chosen) != denominations.end()) {
                w.denomination = chosen;
            }
        }
        if (const auto it = start.reservations.find(n); it != start.reservations.end()) {
            w.reservation = it->second;
        }
        wallets_.push_back(std::move(w));
    }
}

StationWallet& Controller::wallet(std::int64_t number) {
    return wallets_.at(static_cast<std::size_t>(number - 1));
}

const StationWallet& Controller::wallet(std::int64_t number) const {
    return wallets_.at(static_cast<std::size_t>(number - 1));
}

}  // namespace pitlink::table
