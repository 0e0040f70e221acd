#pragma once
// The table: round state machine, player stations, cashier and floor events, on the one logic
// thread. Driven by its own RNG shoe (it deals by itself) or by a game engine that reports the
// cards of a physical shoe. Its events (table_events.h, typed) go out through `Publish`.
//
// In-flight state (docs/design.md rule 6): every change is one journal transaction, applied to the
// table's memory when it is submitted and acknowledged (Respond) only after it has committed. So
// each request is decided against the state that includes every transaction already submitted,
// never against the last committed one: a card after the one that completed the coup finds the
// round already ended, a second void finds nothing to void. A refusal is journaled too
// (request.refused, or bet.refused with its rule) and answered after that commit, in its place.
// A commit that fails tilts the table; the journal then writes nothing more, and memory, which
// may be ahead of the disk, is rebuilt from the journal at the next start.
#include <nlohmann/json.hpp>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "daemon/game/coup_validator.h"
#include "daemon/game/paytable.h"
#include "daemon/game/random_source.h"
#include "daemon/game/scoreboard.h"
#include "daemon/game/shoe.h"
#include "daemon/game/side_bet_guard.h"
#include "daemon/journal/journal.h"
#include "daemon/journal/records/aft_records.h"
#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/start_records.h"
#include "daemon/journal/records/station_records.h"
#include "daemon/journal/shoe_in_play.h"
#include "daemon/platform/executor.h"
#include "daemon/platform/worker.h"
#include "daemon/table/controller.h"
#include "daemon/table/reply.h"
#include "daemon/table/round_phase.h"
#include "daemon/table/station.h"
#include "daemon/table/table_events.h"
#include "daemon/table/table_settings.h"
#include "daemon/table/table_start.h"
#include "daemon/table/ticket_system.h"

namespace pitlink::table {

class Table {
public:
    using Publish = table::Publish;
    // `random` deals the RNG shoe (CardSource::Rng); unused with a reader.
    // One game alone on its controller (its own wallets).
    Table(journal::Journal& journal, const game::Paytable& paytable, const TableSettings& settings,
          platform::Executor& timers, game::RandomSource& random, const TableStart& start, Publish publish);
    // One of the controller's games: the station wallets, round and ticket numbers are
    // `controller`'s (which outlives the game); `start`'s game part is read (shoe, station states
    // in this game, disputes).
    Table(journal::Journal& journal, Controller& controller, const game::Paytable& paytable, TableSettings settings,
          platform::Executor& timers, game::RandomSource& random, const TableStart& start, Publish publish);
    ~Table();
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;

    // RNG shoe: starts the endless cycle of rounds. Reader: nothing (the engine opens rounds).
    void start();
    void stop();  // no new round is opened; timers cancelled
    // The RNG shoe opens no round after `rounds` have ended (pitlinkd --rounds N); 0: no limit.
    void setRoundLimit(std::uint64_t rounds) { roundLimit_ = rounds; }
    // SIGTERM: no new round; a round still taking bets is voided (bets returned); a round being
    // dealt from the RNG shoe is finished; a reader's round being dealt is parked as it stands
    // (recovery at the next start settles it from its journaled cards, or voids it). `done` gets
    // what was done, once it has committed.
    void shutdown(std::function<void(const std::string& verdict)> done);

    // --- the round (engine, dealer buttons, pitlinkctl) ---
    void newShoe(Respond respond);
    void openRound(Respond respond);
    void closeBets(Respond respond);
    // A card from the reader for the next position; the round settles itself when complete.
    void dealCard(game::Card card, Respond respond);
    void cardUnreadable(const Respond& respond);  // re-scan, or void after the allowed attempts
    // A physical shoe (seeds 003/004), reported by the reader before the shoe's first round: the
    // cut (cards behind the cut card: when no more than that are left, the round in play is the
    // shoe's last) and the burn (the turned card, then as many as its burn value). Burned cards
    // leave the composition the coup validator checks against. Journaled (shoe.cut, shoe.burned).
    void reportCut(int cardsBehind, Respond respond);
    void reportBurn(const std::vector<game::Card>& cards, Respond respond);
    // The card reader reports a fault (`ok` false: tilt "reader", journaled: no bets, no round,
    // lamps, SAS general tilt) or that it works again (the tilt cleared). A reader that sends no
    // card for `table.reader_timeout_ms` while a round is dealt tilts the table the same way.
    void readerStatus(bool ok, const std::string& message, Respond respond);
    void voidRound(const std::string& reason, const std::string& who, Respond respond);

    // --- a station ---
    // Seed 000's multi-game station: the station joins this game (at most game::kMostGamesPerStation
    // games on its one credit meter), or leaves it (its X button: only with no bets of the
    // station in this game; its auto-repeat and Keep Bets On here end). Journaled as
    // station.games with the station's games after it.
    void join(std::int64_t station, Respond respond);
    void leave(std::int64_t station, Respond respond);
    void placeBet(std::int64_t station, game::BetType spot, game::Money stake, Respond respond);
    void clearBets(std::int64_t station, Respond respond);
    void undoBet(std::int64_t station, Respond respond);
    void repeatBets(std::int64_t station, Respond respond);
    // Seeds 000/001 "auto repeat": on, the last slip is placed again at every round's opening (at
    // once too, when betting is open and the station has no bets) until turned off, or until a
    // repeat is refused (the refusal journaled with its rule; the "auto_repeat" event says why).
    // Kept across a restart (station.state).
    void setAutoRepeat(std::int64_t station, bool on, Respond respond);
    // Seed 000 "Keep Bets On" (RNG tables, rng_only otherwise): as auto-repeat, but the bets it
    // places never start the round (with rounds.start: deal, the station's DEAL does).
    void setKeepBets(std::int64_t station, bool on, Respond respond);
    // rounds.start: deal (seed 003): the station's DEAL closes bets for every station and deals.
    void deal(std::int64_t station, Respond respond);
    // rounds.confirm_bets (seed 002's multiplayer mode): the station's bets as they stand will
    // play; a change after it needs a new confirmation. Unconfirmed bets are returned at the close.
    void confirmBets(std::int64_t station, Respond respond);
    void doubleBets(std::int64_t station, Respond respond);
    // Seed 000 "Raise bet": each spot of this round's slip raised by `chip`, in the order placed,
    // until the credits run out (game::planRaise); the reply's slip shows what was raised.
    void raiseBets(std::int64_t station, game::Money chip, Respond respond);
    // Seed 000's Denomination button: the value of one credit the station plays in, one the
    // table offers (table.denominations; not_offered), only with no bets on the layout. Stakes
    // and tips are whole credits of it; kept across restarts (station.state). Answers as limits.
    void selectDenomination(std::int64_t station, game::Money value, Respond respond);
    // The limit level the station's player plays at (1-based; between rounds or with no bets).
    // `who`: the operator who set it (pitlinkctl station level), journaled with the state.
    void selectLimitLevel(std::int64_t station, int level, Respond respond, const std::string& who = {});
    // An operator sets (or clears, both open) a player's own limits within the table's.
    void setPersonalLimits(std::int64_t station, game::PersonalLimits limits, const std::string& who, Respond respond);
    // What the station shows over its spots: limits at its level, max win and payout, and the
    // possible winnings of its slip (seed 000 "Show Bet Limits", "Show Winnings").
    [[nodiscard]] Reply limits(std::int64_t station) const;
    void cashOut(std::int64_t station, Respond respond);
    // SAS AFT (daemon/table/table_cashless.cpp): the end of a pending transfer journaled with the
    // credits it moves (`amount` and its promotional parts, by `reason` transfer_in, bonus or
    // transfer_out; 0: a transfer that ended moving nothing); `done(committed)`. `handpay`: a
    // bonus jackpot at the jackpot limit, credited and taken off again for an attendant's
    // hand-pay in the same transaction (bonus_handpay), the station locked as for a jackpot win.
    void aftTransfer(std::int64_t station, const journal::AftTransferRecord& record, game::Money amount,
                     journal::PromoParts parts, std::string_view reason, std::function<void(bool)> done,
                     bool handpay = false);
    // Restricted credits at their expiry (daemon/table/table_restricted_expiry.cpp;
    // daemon/sas/station_aft.cpp decides when): `amount` (> 0, all restricted, none of it staked)
    // leaves the station as a credit with reason restricted_expired (ref `ref`), and the station is
    // told (credits event); `done(committed)`.
    void expireRestricted(std::int64_t station, game::Money amount, const std::string& ref,
                          std::function<void(bool)> done);
    // LP 74's lock: while locked the station takes no bet, cash-out, tip or ticket.
    void setAftLocked(std::int64_t station, bool locked);
    // No stake of the station in play in any game, no hand-pay, cash-out or ticket in progress.
    [[nodiscard]] bool stationIdle(std::int64_t station) const;
    // SAS LP 8A (daemon/table/table_legacy_bonus.cpp): a legacy bonus of `amount` (whole credits
    // of the accounting denomination, in minor units; cashable) with its tax status, decided at
    // once on the state with everything in flight: SAS wants its ACK within 20 ms (docs/design.md
    // "Persistence before acknowledgement"). True: taken, journaled as a credit (reason
    // legacy_bonus) whose commit raises 7C; `done(committed)` then. False: the station cannot take
    // it now (a tilt, a hand-pay, a cash-out or ticket in progress, shut down, reserved, locked for
    // AFT, or a journal that cannot write): the refusal is journaled (request.refused, when the
    // journal can) and `done` is never called.
    bool legacyBonus(std::int64_t station, game::Money amount, journal::TaxStatus taxStatus,
                     std::function<void(bool committed)> done);
    void ticketIn(std::int64_t station, const std::string& validation, game::Money amount, Respond respond);
    void tip(std::int64_t station, game::Money amount, Respond respond);
    void callAttendant(std::int64_t station, Respond respond);
    // Seed 000 "Dispute" (live games: a reader table): the deal in progress or the last one. The
    // table opens no round while a dispute is open (dispute_open) until an operator resolves it.
    void dispute(std::int64_t station, std::int64_t roundId, const std::string& text, Respond respond);
    // Seed 000 "Reserve table": the station takes no bets, cash-out or tickets (station_reserved)
    // until released (with the same PIN, when it was reserved with one) or `table.reserve_minutes`
    // have passed. Journaled; kept across a restart.
    void reserve(std::int64_t station, bool on, const std::string& pin, Respond respond);

    // --- floor and operators ---
    void clearAttendant(std::int64_t station, const std::string& who, Respond respond);
    // An operator releases a reserved station (no PIN asked).
    void releaseReservation(std::int64_t station, const std::string& who, Respond respond);
    // An operator's decision on a station's open dispute; an upheld one may re-settle the disputed
    // round with corrected cards (`correction`, read from the journal as for resettle), in the
    // same transaction as the decision.
    struct DisputeDecision {
        std::int64_t station = 0;
        std::optional<std::int64_t> round;  // when given, must be the disputed round
        bool upheld = false;
        std::string reason;
        std::string who;
    };
    struct CorrectedRound {
        const journal::RoundHistory* round = nullptr;  // null: no re-settlement
        const game::Paytable* paytable = nullptr;
        std::vector<game::Card> cards;
    };
    void resolveDispute(const DisputeDecision& decision, const CorrectedRound& correction, Respond respond);
    void resetHandpay(std::int64_t station, const std::string& who, Respond respond);
    void doorOpened(const std::string& door, Respond respond = {});
    void doorClosed(const std::string& door, Respond respond = {});
    // A tilt from outside the table (card reader failed, ...); cleared by clearTilt.
    void raiseTilt(const std::string& cause, const std::string& message);
    void clearTilt(const std::string& cause, const std::string& who, Respond respond);
    // Re-settles a settled round with corrected cards (`round` as the journal holds it, read off
    // the logic thread; `paytable` the one it was settled with). Refused while it is in progress.
    void resettle(const journal::RoundHistory& round, const game::Paytable& paytable,
                  const std::vector<game::Card>& cards, const std::string& reason, const std::string& who,
                  Respond respond);

    // SIGHUP: of `fresh`, what can change while the table runs (betting windows, bet rules and
    // limits, cashier limits, re-scan attempts) applies from the next round; what cannot (name,
    // card source, shoe, stations, denomination, ticket-in policy) waits for a restart. Journaled
    // as config.loaded with `record` (file, sha256), what was applied and what needs a restart
    // (`restartNeeded` adds the daemon's own: paytable, journal, sockets). The reply says both.
    void reconfigure(const TableSettings& fresh, journal::ConfigLoadedRecord record,
                     std::vector<std::string> restartNeeded, Respond respond);

    // --- the accounting host (SAS) ---
    // Both outlive the table or are reset to null before they go.
    void setTicketSystem(TicketSystem* tickets) { controller_.setTicketSystem(tickets); }
    void setCommitObserver(CommitObserver* observer) { controller_.setCommitObserver(observer); }
    // Where the table's events go (the owner may set it once the table has its place).
    void setPublish(Publish publish) { publish_ = std::move(publish); }
    // LP 01/02: a station shut down by the host takes no bets and no cash until started again.
    void setHostEnabled(std::int64_t station, bool enabled);
    // LP 2E: the station takes no bets for `delay` (0 ends a delay). Not journaled: it lasts at
    // most 16 minutes and moves nothing; the bets it refuses are journaled with their rule.
    void delayStation(std::int64_t station, std::chrono::milliseconds delay);

    // --- game protection (table_protection.cpp; docs/protection.md) ---
    // With settings `protection.enabled`: each side bet's exact edge for the next round is computed
    // on `worker` whenever the shoe's known composition changes, journaled (shoe.edge), sent to
    // the control socket only, and its rules applied (side bets closed, stations reported).
    void enableProtection(std::unique_ptr<platform::Worker> worker);
    [[nodiscard]] const game::SideBetGuard* protection() const { return guard_ ? &*guard_ : nullptr; }
    // This shoe's edges so far, as published (the control socket's `protection`).
    [[nodiscard]] const std::vector<ShoeEdge>& shoeEdges() const { return shoeEdges_; }
    struct ProtectionStats {
        std::uint64_t edgesComputed = 0;  // taken while current
        std::uint64_t edgesStale = 0;     // the composition had changed again before they came
        std::uint64_t roundsOpenedBeforeEdge = 0;
        std::uint64_t betsWaited = 0;  // refused side_bet_edge_pending
        std::uint64_t betsClosed = 0;  // refused side_bet_closed
        std::string lastError;         // the computation's, when it failed
    };
    [[nodiscard]] const ProtectionStats& protectionStats() const { return protectionStats_; }
    // What a player could know is left in the shoe: the shoe less every card shown (dealt cards
    // and the burn's turned card; the cards burned face down are still unknown to the player).
    [[nodiscard]] game::ShoeComposition knownLeft() const;

    // --- state ---
    [[nodiscard]] const std::string& name() const { return settings_.name; }
    [[nodiscard]] RoundPhase phase() const { return phase_; }
    [[nodiscard]] game::Money denomination() const { return settings_.denomination; }  // SAS accounting
    [[nodiscard]] const std::vector<game::Money>& denominations() const { return settings_.denominations; }
    [[nodiscard]] game::Money ticketLimit() const { return settings_.ticketLimit; }  // a cash-out above: hand-pay
    // A win (or an AFT bonus jackpot) at or above it is paid by hand-pay; 0: none.
    [[nodiscard]] game::Money jackpotLimit() const { return settings_.jackpotLimit; }
    // The station's value of one credit (its choice, or the table's first).
    [[nodiscard]] game::Money denominationOf(std::int64_t station) const {
        return controller_.wallet(station).denomination.value_or(settings_.denomination);
    }
    [[nodiscard]] std::int64_t roundId() const { return roundId_; }   // the current or last round
    [[nodiscard]] const Station& station(std::int64_t number) const;  // in this game
    [[nodiscard]] const StationWallet& wallet(std::int64_t number) const { return controller_.wallet(number); }
    [[nodiscard]] const Controller& controller() const { return controller_; }
    [[nodiscard]] int stationCount() const { return static_cast<int>(stations_.size()); }
    [[nodiscard]] const std::map<std::string, std::string>& tilts() const { return tilts_; }  // cause -> message
    [[nodiscard]] bool tilted() const { return !tilts_.empty(); }
    [[nodiscard]] bool doorOpen() const { return !openDoors_.empty(); }
    [[nodiscard]] std::uint32_t shoeNumber() const { return shoeNumber_; }
    [[nodiscard]] int roundInShoe() const { return roundInShoe_; }
    // What the shoe in play still holds (a reader's: full decks less every card that left it;
    // during a round, less the round's cards so far). Empty when no shoe is in play.
    [[nodiscard]] game::ShoeComposition shoeLeft() const;
    // The shoe in play was resumed from the journal at this start (a reader's physical shoe).
    [[nodiscard]] bool shoeResumed() const { return shoeResumed_; }
    [[nodiscard]] std::uint64_t roundsFinished() const { return roundsFinished_; }
    [[nodiscard]] const game::Scoreboard& scoreboard() const { return scoreboard_; }  // this shoe's roads
    // The roads as a station shows them (engine op roads; the "roads" event after each result).
    [[nodiscard]] Reply roads() const {
        return Reply::accepted(RoadsAnswer{RoadsChanged{scoreboard_, settings_.naturalsOnBigRoad}});
    }
    [[nodiscard]] TableStatus status() const;

    // A refusal decided outside the table (the control socket's, before the table is asked):
    // journaled as request.refused like the table's own, and answered once that has committed.
    void refuseRequest(std::string_view op, std::optional<std::int64_t> station, const Respond& respond, Reply refusal,
                       const journal::RefusedRequest& detail = {}) {
        refuse(op, station, respond, std::move(refusal), detail);
    }

private:
    // Submits `tx` (whatever it changes in memory is already applied); `then` runs after it
    // committed (and the respond, if any, is called with `reply`). A failed commit tilts the table
    // and answers "journal_failed" (a refusal stays that refusal).
    void commit(journal::JournalTransaction tx, Respond respond, Reply reply, std::function<void()> then = {});
    // Journals that `op` was refused (request.refused, with the round in progress and the station)
    // and answers `refusal` once that has committed. Nothing is journaled when nobody asked.
    void refuse(std::string_view op, std::optional<std::int64_t> station, const Respond& respond, Reply refusal,
                const journal::RefusedRequest& detail = {});
    // Runs `publish` after every transaction submitted so far: events keep the journal's order.
    void publishInOrder(TableEvent event);
    [[nodiscard]] std::optional<Reply> stationProblem(std::int64_t station) const;
    // The station has stakes in a round not yet settled, in this game or another (the projected
    // ledger's, which every game's bets move): its wallet's settings wait until it has none.
    [[nodiscard]] bool stakesInPlay(std::int64_t station) const;
    // stationProblem, or the station has not joined this game (not_joined): what refuses a
    // request that plays this game (bets, its level, auto-repeat, DEAL, confirm).
    [[nodiscard]] std::optional<Reply> seatProblem(std::int64_t station) const;
    [[nodiscard]] std::optional<Reply> roundCanOpen() const;
    // The constructors': `own` the controller of a game alone, else `shared`.
    Table(journal::Journal& journal, std::unique_ptr<Controller> own, Controller* shared,
          const game::Paytable& paytable, TableSettings settings, platform::Executor& timers,
          game::RandomSource& random, const TableStart& start, Publish publish);
    void seat(const TableStart& start);  // the stations in this game, as the journal left them
    Station& stationAt(std::int64_t number);
    StationWallet& walletAt(std::int64_t number) { return controller_.wallet(number); }
    void publish(const TableEvent& event);
    void tiltNow(const std::string& cause, const std::string& message, bool journaled);

    // table_reader.cpp
    void armReaderWatchdog();
    void disarmReaderWatchdog();

    // table_floor.cpp
    void endReservation(std::int64_t station, const std::string& by, Respond respond);
    void scheduleReservationEnd(std::int64_t station);

    // table_resettle.cpp: the re-settlement added to `tx`, or why not.
    [[nodiscard]] std::variant<ResettleAnswer, Reply> addResettlement(
        journal::JournalTransaction& tx, const journal::RoundHistory& round, const game::Paytable& paytable,
        const std::vector<game::Card>& cards, const std::string& reason, const std::string& who) const;
    void publishResettledCredits(const ResettleAnswer& answer);

    // table_round.cpp
    // `reason`: why the shoe starts (round_records.h kShoeFirst...).
    void addShoe(journal::JournalTransaction& tx, std::string_view reason);
    void resumeShoe(const journal::ShoeInPlay& shoe);
    void enterLastBets();
    // `dealtBy`: the station whose DEAL closed the bets (rounds.start: deal).
    void closeNow(Respond respond, std::optional<std::int64_t> dealtBy = std::nullopt);
    void dealFromShoe();
    void acceptCard(game::Card card, Respond respond);
    void settleRound();
    // The round has ended (its settlement or void is submitted): the table is between rounds.
    void endRound();
    void scheduleNextRound();

    // table_protection.cpp
    // The known composition changed (round ended, new shoe, burn): a new edge is computed.
    void edgeNeeded();
    void edgeArrived(std::uint64_t key, const std::vector<game::BetEdge>& edges, std::int64_t cardsKnown);
    // A settled round's stakes join the counters' figures; the stations reported are added to `tx`.
    [[nodiscard]] std::vector<ProtectionAlert> watchCounters(journal::JournalTransaction& tx);
    // A side bet of `add` closed or waiting for its edge, counted.
    [[nodiscard]] std::optional<game::BetRefusal> protectionRefusal(const game::BetSlip& add);

    // table_cashier.cpp
    // A cash-out by ticket or hand-pay (after the host did not take it, when it was offered).
    void cashOutByTicket(std::int64_t station, Respond respond);
    void issueTicket(std::int64_t station, game::Money amount, const ValidatedTicket& ticket, Respond respond);
    void lockForHandpay(std::int64_t station, game::Money amount, const std::string& why, Respond respond);
    void redeemThroughHost(std::int64_t station, const std::string& validation, Respond respond);

    // table_bets.cpp
    void placeSlip(std::int64_t station, const game::BetSlip& add, const std::string& action, Respond respond);
    // `bets` by value: it is often the station's own list, which withdrawing changes.
    void withdraw(std::int64_t station, std::vector<journal::RoundBet> bets, const std::string& action,
                  Respond respond);
    void refuseBet(std::int64_t station, const std::string& action, const game::BetSlip& add,
                   const game::BetRefusal& refusal, Respond respond);
    // station.state with the station's kept state, added to `tx` (`by`: the operator who set limits).
    void addStationState(journal::JournalTransaction& tx, const Station& station, const std::string& by = {}) const;
    [[nodiscard]] game::StationBetContext betContext(const Station& station) const;
    // table_auto_repeat.cpp: at a round's opening, each auto-repeating (or Keep Bets On)
    // station's last slip.
    void autoRepeatBets();
    void setStandingBets(std::int64_t station, bool on, bool keep, Respond respond);
    void placeStandingBets(Station& station);
    void publishStanding(std::int64_t station, bool keep, bool on, const std::string& reason);
    // table_deal.cpp: with rounds.start: deal, an auto-repeating station's bets are dealt a
    // betting window after they were placed; with confirm_bets, unconfirmed bets go back at the
    // close (added to the close's transaction).
    void armAutoDeal();
    [[nodiscard]] std::vector<BetsUnconfirmed> returnUnconfirmed(journal::JournalTransaction& tx);

    journal::Journal& journal_;
    std::unique_ptr<Controller> ownController_;  // a game alone on its controller
    Controller& controller_;
    const game::Paytable& paytable_;
    std::string paytableSha_;
    TableSettings settings_;
    platform::Executor& timers_;
    game::RandomSource& random_;
    Publish publish_;

    RoundPhase phase_ = RoundPhase::Idle;
    std::int64_t roundId_ = 0;
    std::int64_t previousRoundId_ = 0;   // this game's round before roundId_ (0: none known)
    std::int64_t roundBeforeStart_ = 0;  // this game's last round before the restart (0: none known)
    std::int64_t nextBetIndex_ = 1;
    bool hadShoe_;  // this game started a shoe before this start
    std::uint32_t shoeNumber_ = 0;
    int roundInShoe_ = 0;
    bool shoeNeeded_ = true;            // no shoe yet, or its cut card came out
    std::string shoeReason_;            // why the shoe in play started (its shoe.started's reason)
    bool shoeResumed_ = false;          // this start resumed the shoe in play
    std::unique_ptr<game::Shoe> shoe_;  // RNG only
    game::Scoreboard scoreboard_;
    game::ShoeComposition seen_;               // cards left in the shoe (reader: from full decks)
    game::ShoeComposition burnHidden_;         // this shoe's cards burned face down (game protection)
    std::optional<game::CoupValidator> coup_;  // the round's cards so far
    std::vector<journal::DealtCard> cards_;
    std::vector<Station> stations_;
    std::map<std::string, std::string> tilts_;
    std::set<std::string> openDoors_;
    std::optional<platform::Executor::TimerId> timer_;
    std::map<std::int64_t, platform::Executor::TimerId> reservationTimers_;  // by station
    std::optional<platform::Executor::TimerId> readerTimer_;
    std::optional<platform::Executor::TimerId>
        holdTimer_;  // a held opening's bound (Controller::kMostHold)                 // a card is awaited
    std::uint64_t readerArmings_ = 0;    // which arming of the watchdog readerTimer_ belongs to
    bool burnReported_ = false;          // this shoe's
    std::optional<int> cutCardsBehind_;  // this shoe's reported cut
    bool running_ = false;
    bool shuttingDown_ = false;
    bool edgeBeforeClose_ = false;               // protection: the round's edge came before its close
    std::optional<TableSettings> nextSettings_;  // reconfigured, from the next round
    std::uint64_t roundsFinished_ = 0;
    std::uint64_t roundLimit_ = 0;

    // Game protection (table_protection.cpp).
    std::optional<game::SideBetGuard> guard_;
    std::vector<ShoeEdge> shoeEdges_;         // this shoe's, as published
    std::vector<game::BetType> closedShown_;  // the closed side bets the stations were last told
    ProtectionStats protectionStats_;
    std::shared_ptr<int> alive_ = std::make_shared<int>(0);  // the edge jobs' results find the table gone
    // The key of the edge asked for last: a job for an older one does not compute (its worker).
    std::shared_ptr<std::atomic<std::uint64_t>> latestEdgeKey_ = std::make_shared<std::atomic<std::uint64_t>>(0);
    std::unique_ptr<platform::Worker> edgeWorker_;  // last: stopped first
};

}  // namespace pitlink::table
