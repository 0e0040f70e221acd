#pragma once
// What every game of one controller shares (seed 000's multi-game station, docs/design.md
// "Games and the wallet"): each station's wallet (joined games, denomination, hand-pay lock,
// reservation, attendant call, host state, personal limits), round numbers, unique in the
// journal, and cash-out ticket numbers, and the accounting host's ticket system and commit
// observer. Credits are the journal's ledger, one per station: a stake in any game is checked
// against the projected ledger, which holds every transaction submitted by every game, so two
// games closing bets in the same millisecond cannot stake the same credits.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "daemon/game/bet_rules.h"
#include "daemon/table/station.h"
#include "daemon/table/table_start.h"
#include "daemon/table/ticket_system.h"

namespace pitlink::table {

class Controller {
public:
    // `stations` numbered from 1; `denominations` the values of one credit a station may choose
    // (a kept choice no longer offered falls back to the first); `games` the controller's games,
    // the first being the one a station plays until it says otherwise (today's single game).
    Controller(int stations, const std::vector<game::Money>& denominations, const TableStart& start,
               std::vector<std::string> games);

    [[nodiscard]] int stationCount() const { return static_cast<int>(wallets_.size()); }
    [[nodiscard]] bool isStation(std::int64_t number) const { return number >= 1 && number <= stationCount(); }
    // The numbers are checked by the caller (isStation).
    [[nodiscard]] StationWallet& wallet(std::int64_t number);
    [[nodiscard]] const StationWallet& wallet(std::int64_t number) const;
    [[nodiscard]] const std::string& firstGame() const { return games_.front(); }
    [[nodiscard]] const std::vector<std::string>& games() const { return games_; }
    // Several games: each names itself in its records (journal::kind::namesItsGame).
    [[nodiscard]] bool severalGames() const { return games_.size() > 1; }

    [[nodiscard]] std::int64_t takeRoundId() { return nextRoundId_++; }
    [[nodiscard]] std::int64_t takeTicketNumber() { return nextTicket_++; }
    // Shoe numbers are the controller's too: a number names one shoe of one game in the journal.
    [[nodiscard]] std::uint32_t takeShoeNumber() { return nextShoe_++; }

    // Rounds in progress in any game: the journal's segment ends only where none is (journal.h
    // rotateIfDue: a round's records are never split).
    void roundOpened() { ++roundsInProgress_; }
    void roundEnded() { --roundsInProgress_; }
    [[nodiscard]] int roundsInProgress() const { return roundsInProgress_; }
    // A rotation due while another game is in a round holds a game's next opening (its open_round
    // answered, or its RNG cycle going on, once it runs): the segment then ends as soon as no game
    // is in a round, and games dealing without pause cannot put it off for ever. The game whose
    // round ends last runs the held openings (Table::scheduleNextRound), after its ending was
    // submitted, so that no round's records are split.
    // A round that does not end (a reader tilted mid-deal) must not stop the other games: a hold
    // lasts kMostHold at most (Table's timer, expireHolds), then the held openings run without the
    // rotation and none is held again until the journal next finds every game between rounds.
    static constexpr std::chrono::milliseconds kMostHold{3'000};
    // Returns the hold's episode, for expireHolds; the first opening held starts an episode.
    std::uint64_t holdOpening(std::function<void()> open) {
        heldOpenings_.push_back(std::move(open));
        ++openingsHeld_;
        return holdEpisode_;
    }
    [[nodiscard]] bool holding() const { return !heldOpenings_.empty(); }
    [[nodiscard]] bool holdsExpired() const { return holdsExpired_; }
    [[nodiscard]] std::vector<std::function<void()>> takeHeldOpenings() {
        ++holdEpisode_;
        return std::exchange(heldOpenings_, {});
    }
    // The episode's hold lasted kMostHold: its openings, and no hold until betweenAllRounds.
    [[nodiscard]] std::vector<std::function<void()>> expireHolds(std::uint64_t episode) {
        if (episode != holdEpisode_ || heldOpenings_.empty()) {
            return {};  // released already
        }
        holdsExpired_ = true;
        ++holdsExpiredCount_;
        return takeHeldOpenings();
    }
    void betweenAllRounds() { holdsExpired_ = false; }                         // an opening found no game in a round
    [[nodiscard]] std::int64_t openingsHeld() const { return openingsHeld_; }  // since start
    [[nodiscard]] std::int64_t holdsExpiredCount() const { return holdsExpiredCount_; }  // since start

    // Both outlive the games or are reset to null before they go.
    void setTicketSystem(TicketSystem* tickets) { tickets_ = tickets; }
    void setCommitObserver(CommitObserver* observer) { observer_ = observer; }
    [[nodiscard]] TicketSystem* tickets() const { return tickets_; }
    [[nodiscard]] CommitObserver* observer() const { return observer_; }

private:
    std::vector<StationWallet> wallets_;
    std::vector<std::string> games_;
    std::int64_t nextRoundId_;
    std::int64_t nextTicket_;
    std::uint32_t nextShoe_;
    int roundsInProgress_ = 0;
    std::vector<std::function<void()>> heldOpenings_;
    std::uint64_t holdEpisode_ = 0;
    bool holdsExpired_ = false;
    std::int64_t openingsHeld_ = 0;
    std::int64_t holdsExpiredCount_ = 0;
    TicketSystem* tickets_ = nullptr;
    CommitObserver* observer_ = nullptr;
};

}  // namespace pitlink::table
