// The round state machine: shoe, opening, the two betting windows, closing, cards (from the RNG
// shoe or a reader, each checked and journaled), settlement, void. Each step changes the table's
// memory as it is submitted (table.h): a round is over for every later request as soon as its
// settlement or void is on its way to the journal.
#include <algorithm>
#include <utility>

#include "daemon/game/outcome.h"
#include "daemon/game/settlement.h"
#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/round_records.h"
#include "daemon/journal/records/settlement_records.h"
#include "daemon/table/table.h"

namespace pitlink::table {

namespace {
// Every round this version opens is settled by spot (game/round_settlement.h).
constexpr game::SettleRule kSettleRule = game::SettleRule::PerSpot;
}  // namespace

void Table::start() {
    running_ = true;
    scheduleNextRound();
}

std::optional<Reply> Table::roundCanOpen() const {
    if (phase_ != RoundPhase::Idle) {
        return Reply::refused("round_in_progress",
                              "round " + std::to_string(roundId_) + " is " + std::string(roundPhaseName(phase_)));
    }
    if (shuttingDown_) {
        return Reply::refused("stopping", "pitlinkd is stopping");
    }
    if (tilted()) {
        return Reply::refused("tilted", "the table is in tilt: " + tilts_.begin()->second);
    }
    if (settings_.source == CardSource::Reader && shoeNeeded_) {
        return Reply::refused("no_shoe", "no shoe has been started");
    }
    for (const Station& s : stations_) {
        if (s.dispute) {
            return Reply::refused("dispute_open", "station " + std::to_string(s.number) + "'s dispute of round " +
                                                      std::to_string(s.dispute->round) +
                                                      " is held until an operator resolves it");
        }
    }
    return std::nullopt;
}

void Table::addShoe(journal::JournalTransaction& tx, std::string_view reason) {
    if (shoeNumber_ != 0) {
        tx.add(journal::ShoeEndedRecord{shoeNumber_, roundInShoe_, shoe_ ? shoe_->remaining() : -1});
    }
    shoeNumber_ = controller_.takeShoeNumber();
    shoeReason_ = reason;
    shoeResumed_ = false;
    scoreboard_ = game::Scoreboard(shoeNumber_);  // roads reset at every new shoe
    roundInShoe_ = 0;
    shoeNeeded_ = false;
    burnReported_ = false;
    cutCardsBehind_.reset();
    seen_ = game::ShoeComposition::fullDecks(settings_.shoe.decks);
    journal::ShoeStartedRecord started{shoeNumber_, settings_.shoe.decks, std::nullopt, std::string(reason)};
    if (settings_.source == CardSource::Rng) {
        shoe_ = std::make_unique<game::Shoe>(settings_.shoe, random_, shoeNumber_);
        for (int i = 0; i < shoe_->burnedCount(); ++i) {
            seen_.remove(shoe_->order()[static_cast<std::size_t>(i)]);
        }
        started.rng =
            journal::RngShoe{shoe_->size(), settings_.shoe.cutCardFromEnd, shoe_->burnCard(), shoe_->burnedCount()};
    }
    tx.add(started);
    // Game protection: a new shoe's figures; the RNG burn's turned card is shown, those after it
    // are burned face down (a reader's burn is reported later).
    burnHidden_ = {};
    for (int i = 1; shoe_ && i < shoe_->burnedCount(); ++i) {
        burnHidden_.add(shoe_->order()[static_cast<std::size_t>(i)]);
    }
    shoeEdges_.clear();
    if (guard_) {
        guard_->newShoe();
    }
    edgeNeeded();
}

void Table::resumeShoe(const journal::ShoeInPlay& shoe) {
    shoeNumber_ = static_cast<std::uint32_t>(shoe.shoe);
    roundInShoe_ = static_cast<int>(shoe.roundInShoe);
    cutCardsBehind_ = shoe.cutCardsBehind ? std::optional(static_cast<int>(*shoe.cutCardsBehind)) : std::nullopt;
    burnReported_ = shoe.burned;
    seen_ = shoe.left;
    burnHidden_ = {};
    for (const game::Card& card : shoe.burnHidden) {
        burnHidden_.add(card);
    }
    scoreboard_ = game::Scoreboard(shoeNumber_);
    for (const game::RoundMarks& marks : shoe.results) {
        scoreboard_.add(marks);
    }
    shoeNeeded_ = shoe.cutCardOut();  // its last round was dealt before the stop: a new shoe is due
    shoeReason_.clear();              // the reason is in the journal, before this start
    shoeResumed_ = true;
}

game::ShoeComposition Table::shoeLeft() const {
    if (shoeNumber_ == 0) {
        return {};
    }
    if (shoe_) {
        // The RNG shoe's order: what is still to be drawn from it.
        game::ShoeComposition left;
        for (std::size_t i = static_cast<std::size_t>(shoe_->size() - shoe_->remaining()); i < shoe_->order().size();
             ++i) {
            left.add(shoe_->order()[i]);
        }
        return left;
    }
    return coup_ && phase_ != RoundPhase::Idle ? coup_->remaining() : seen_;
}

void Table::newShoe(Respond respond) {
    if (phase_ != RoundPhase::Idle) {
        refuse("new_shoe", std::nullopt, respond,
               Reply::refused("round_in_progress", "a new shoe starts between rounds"));
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    addShoe(tx, journal::kShoeReported);
    const std::uint32_t shoe = shoeNumber_;
    commit(std::move(tx), std::move(respond), Reply::accepted(ShoeAnswer{shoe}),
           [this, shoe, roads = RoadsChanged{scoreboard_, settings_.naturalsOnBigRoad}] {
               publish(ShoeStarted{shoe, std::string(journal::kShoeReported)});
               publish(roads);  // the new shoe's empty roads
           });
}

void Table::scheduleNextRound() {
    // The last round in progress has ended: the openings a due rotation held run now (the first
    // rotates the journal).
    if (controller_.roundsInProgress() == 0) {
        for (const auto& open : controller_.takeHeldOpenings()) {
            open();
        }
    }
    if (!running_ || settings_.source != CardSource::Rng || phase_ != RoundPhase::Idle || tilted() ||
        (roundLimit_ != 0 && roundsFinished_ >= roundLimit_)) {
        return;
    }
    openRound({});
}

void Table::openRound(Respond respond) {
    if (auto problem = roundCanOpen()) {
        refuse("open_round", std::nullopt, respond, *problem);
        return;
    }
    // Between two rounds: a segment due to end ends here, so that no round is split (journal.h).
    // With several games, only when none is in a round: while another is, a rotation due holds
    // this opening until the last round in progress ends (Controller::holdOpening).
    if (controller_.roundsInProgress() == 0) {
        journal_.rotateIfDue();
        controller_.betweenAllRounds();
    } else if (journal_.rotationDue() && !controller_.holdsExpired()) {
        const bool first = !controller_.holding();
        const std::uint64_t episode =
            controller_.holdOpening([this, respond = std::move(respond)] { openRound(respond); });
        if (first) {
            // The hold's bound (Controller::kMostHold): its openings then run without the rotation.
            if (holdTimer_) {
                timers_.cancel(*holdTimer_);  // an earlier episode's, released already
            }
            holdTimer_ = timers_.after(Controller::kMostHold, [this, episode] {
                holdTimer_.reset();
                for (const auto& open : controller_.expireHolds(episode)) {
                    open();
                }
            });
        }
        return;
    }
    if (nextSettings_) {
        settings_ = std::move(*nextSettings_);  // reconfigured (SIGHUP) since the last round opened
        nextSettings_.reset();
    }
    journal::JournalTransaction tx = journal_.begin();
    std::optional<RoadsChanged> newRoads;
    std::optional<ShoeStarted> newShoe;
    if (shoeNeeded_) {
        // Only the RNG shoe gets here (a reader's is reported: no_shoe): its cut card came out, or
        // this is the first round since pitlinkd started, whose shoe was never journaled.
        const std::string_view reason = shoeNumber_ != 0 ? journal::kShoeCutCardOut
                                        : hadShoe_       ? journal::kShoeRestart
                                                         : journal::kShoeFirst;
        addShoe(tx, reason);
        newShoe = ShoeStarted{shoeNumber_, std::string(reason)};
        newRoads = RoadsChanged{scoreboard_, settings_.naturalsOnBigRoad};
    }
    const std::int64_t opened = controller_.takeRoundId();
    // This game's round before it: on a controller of several games the journal's previous round
    // may be another game's (the game's first round after a restart follows the one the journal
    // says it dealt last); a game alone has every round (across restarts too).
    previousRoundId_ = !controller_.severalGames() ? opened - 1 : roundId_ != 0 ? roundId_ : roundBeforeStart_;
    roundId_ = opened;
    ++roundInShoe_;
    nextBetIndex_ = 1;
    cards_.clear();
    coup_.emplace(seen_, settings_.rescanAttempts);
    for (Station& s : stations_) {
        s.bets.clear();
        s.confirmed = false;
    }
    phase_ = RoundPhase::BetsOpen;
    controller_.roundOpened();
    if (guard_ && !guard_->known()) {
        ++protectionStats_.roundsOpenedBeforeEdge;  // its side bets under `close` wait for it
    }
    tx.add(journal::RoundOpenedRecord{shoeNumber_, roundInShoe_, paytable_.id, paytableSha_, kSettleRule}, roundId_);
    // The window runs from the submission: the round takes bets from then on (table.h). With
    // rounds.start: deal there is none: a station's DEAL closes the bets.
    if (!settings_.startOnDeal) {
        timer_ = timers_.after(settings_.betsOpen, [this] {
            timer_.reset();
            enterLastBets();
        });
    }
    commit(std::move(tx), std::move(respond), Reply::accepted(RoundAnswer{roundId_}),
           [this, opened = RoundOpened{roundId_, shoeNumber_, roundInShoe_}, newShoe = std::move(newShoe),
            newRoads = std::move(newRoads)] {
               if (newShoe) {
                   publish(*newShoe);
               }
               if (newRoads) {
                   publish(*newRoads);  // the new shoe's empty roads, for every station
               }
               publish(opened);
           });
    autoRepeatBets();
}

void Table::enterLastBets() {
    if (phase_ != RoundPhase::BetsOpen) {
        return;
    }
    phase_ = RoundPhase::LastBets;
    publishInOrder(LastBets{roundId_});
    timer_ = timers_.after(settings_.lastBets, [this] {
        timer_.reset();
        closeNow({});
    });
}

void Table::closeBets(Respond respond) {
    if (!bettingOpen(phase_)) {
        refuse("close_bets", std::nullopt, respond, Reply::refused("betting_closed", "no round is open for bets"));
        return;
    }
    closeNow(std::move(respond));
}

void Table::closeNow(Respond respond, std::optional<std::int64_t> dealtBy) {
    if (timer_) {
        timers_.cancel(*timer_);
        timer_.reset();
    }
    // Game protection: the round's stakes count for the counters only if its edge was in before
    // its bets closed (a guarded side bet could be bet).
    edgeBeforeClose_ = guard_ && guard_->known();
    for (Station& s : stations_) {
        s.standingWaitsForEdge = false;  // its edge came too late for this round
    }
    journal::JournalTransaction tx = journal_.begin();
    // Multiplayer confirmation: bets not confirmed are not played; they go back first.
    const std::vector<BetsUnconfirmed> unconfirmed = returnUnconfirmed(tx);
    phase_ = RoundPhase::Closed;
    // What each station wagers in this round: its game starts here (SAS 7E at bets closed).
    journal::RoundClosedRecord closed{{}, dealtBy};
    for (const Station& s : stations_) {
        if (const game::Money stake = s.slip().total(); stake > 0) {
            closed.wagered[s.number] = stake;
        }
    }
    tx.add(closed, roundId_);
    const std::int64_t round = roundId_;
    commit(std::move(tx), std::move(respond), Reply::accepted(RoundAnswer{round}), [this, round, unconfirmed] {
        for (const BetsUnconfirmed& back : unconfirmed) {
            publish(back);
            publish(CreditsChanged{back.station, back.credits, std::nullopt, std::nullopt, {}});
        }
        publish(BetsClosed{round});
    });
    if (settings_.source == CardSource::Rng) {
        dealFromShoe();
    } else {
        armReaderWatchdog();
    }
}

void Table::dealFromShoe() {
    // Each card is its own transaction, as a card from a reader is; the settlement follows them
    // and may already have opened the next round: the loop ends with its own round.
    const std::int64_t round = roundId_;
    while (roundId_ == round && (phase_ == RoundPhase::Closed || phase_ == RoundPhase::Dealing) && !coup_->complete()) {
        acceptCard(shoe_->draw(), {});
    }
}

void Table::dealCard(game::Card card, Respond respond) {
    if (settings_.source == CardSource::Rng) {
        refuse("card", std::nullopt, respond, Reply::refused("rng_shoe", "this table deals from its own RNG shoe"),
               journal::RefusedRequest{.card = card.toString()});
        return;
    }
    if (phase_ != RoundPhase::Closed && phase_ != RoundPhase::Dealing) {
        refuse("card", std::nullopt, respond,
               Reply::refused("not_dealing", phase_ == RoundPhase::Idle ? "no round is being dealt (round " +
                                                                              std::to_string(roundId_) + " has ended)"
                                                                        : "cards are dealt after the bets are closed"),
               journal::RefusedRequest{.card = card.toString()});
        return;
    }
    acceptCard(card, std::move(respond));
}

void Table::acceptCard(game::Card card, Respond respond) {
    const auto position = static_cast<std::int64_t>(cards_.size()) + 1;
    const int rescans = coup_->rescansUsed();
    if (const auto refusal = coup_->offer(card)) {
        // A card the rules or the shoe cannot have is a misdeal: the round is voided (seed 004).
        journal::JournalTransaction tx = journal_.begin();
        tx.add(journal::CardRefusedRecord{position, card, refusal->reason}, roundId_);
        commit(std::move(tx), std::move(respond), Reply::refused("card_refused", refusal->reason));
        voidRound("misdeal: " + refusal->reason, "table", {});
        return;
    }
    phase_ = RoundPhase::Dealing;
    armReaderWatchdog();  // the next card is awaited from now (ended with the round)
    cards_.push_back(journal::DealtCard{position, card});
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::CardDealtRecord{position, card, settings_.source == CardSource::Rng ? "rng" : "reader", rescans},
           roundId_);
    const std::int64_t round = roundId_;
    commit(std::move(tx), std::move(respond), Reply::accepted(CardAnswer{position}), [this, round, position, card] {
        publish(CardDealt{round, position, card});
    });
    if (coup_->complete()) {
        settleRound();
    }
}

void Table::cardUnreadable(const Respond& respond) {
    if (phase_ != RoundPhase::Closed && phase_ != RoundPhase::Dealing) {
        refuse("card_unreadable", std::nullopt, respond, Reply::refused("not_dealing", "no card is expected"));
        return;
    }
    if (coup_->unreadable() == game::RescanVerdict::Rescan) {
        // Nothing to journal yet: the re-scans are counted on the card that is read.
        respond(Reply::accepted(RescanAnswer{coup_->rescansUsed()}));
        return;
    }
    const std::string why = "card unreadable after " + std::to_string(coup_->rescansUsed()) + " re-scans";
    refuse(
        "card_unreadable", std::nullopt, respond,
        Reply::refused("card_unreadable", "the card could not be read after " + std::to_string(coup_->rescansUsed()) +
                                              " re-scans; the round is voided"));
    voidRound(why, "table", {});
}

void Table::settleRound() {
    std::vector<journal::RoundBet> bets;
    for (const Station& s : stations_) {
        bets.insert(bets.end(), s.bets.begin(), s.bets.end());
    }
    // In the order they were accepted, as recovery reads them from the journal.
    std::sort(bets.begin(), bets.end(),
              [](const journal::RoundBet& a, const journal::RoundBet& b) { return a.index < b.index; });
    const game::Coup coup = coup_->coup();
    const game::RoundSettlement settled = journal::settleBets(coup, bets, paytable_, kSettleRule);
    const game::Outcome& outcome = settled.outcome;
    journal::JournalTransaction tx = journal_.begin();
    journal::SettlementDetail detail;
    for (const auto& [number, r] : settled.stations) {
        detail.denominations[number] = denominationOf(number);  // it changes only with no bets in any game
    }
    journal::addSettlement(tx, roundId_, coup, bets, settled, paytable_, paytableSha_, std::move(detail));
    RoundSettled result{roundId_,
                        shoeNumber_,
                        roundInShoe_,
                        coup.player,
                        coup.banker,
                        outcome,
                        {},
                        shoe_ ? shoe_->cutCardOut() : cutCardsBehind_ && coup_->remaining().total() <= *cutCardsBehind_,
                        shoe_ ? shoe_->remaining() : coup_->remaining().total(),
                        std::nullopt};
    // A win at or above the jackpot limit locks the station for a hand-pay (docs/rules.md "Cash-out").
    for (const auto& [number, r] : settled.stations) {
        result.wins[number] = r.win;
        if (settings_.jackpotLimit > 0 && r.win >= settings_.jackpotLimit) {
            // The win never reaches the credit meter: it leaves it in the settlement's own
            // transaction (SAS meters a hand-paid jackpot in 0002, not in coin out).
            tx.add(journal::HandpayPendingRecord{r.win, "jackpot", std::nullopt, true}, roundId_, number);
            tx.credit(number, -r.win, journal::reason::kJackpot, roundId_,
                      journal::CreditDetail{.ref = "round " + std::to_string(roundId_),
                                            .denomination = denominationOf(number)});
            walletAt(number).handpay = PendingHandpay{r.win, "jackpot", true};
        }
    }
    // The anti-doubling streak follows each station's even-money (Player/Banker) result; it and
    // the slip to repeat are journaled (station.state) so that a restart keeps them.
    for (Station& s : stations_) {
        const auto it = settled.stations.find(s.number);
        if (it == settled.stations.end() || it->second.evenMoneyStake == 0) {
            s.streak.record(0, game::BetResult::Push);
        } else {
            s.streak.record(it->second.evenMoneyStake, it->second.evenMoney);
        }
        if (!s.bets.empty()) {
            s.lastSlip = s.slip();
            addStationState(tx, s);
        }
    }
    // Game protection: the round's side-bet stakes against its edge (stations reported as counters).
    std::vector<ProtectionAlert> alerts = watchCounters(tx);
    scoreboard_.add(outcome);
    if (result.cutCardOut) {
        // The shoe's statistics as they stand now: the next round, opened before this event
        // goes out, starts a new shoe and new roads.
        result.statistics = scoreboard_.statistics();
    }
    endRound();
    commit(std::move(tx), {}, Reply::accepted(),
           [this, result = std::move(result), roads = RoadsChanged{scoreboard_, settings_.naturalsOnBigRoad},
            alerts = std::move(alerts)] {
               publish(result);
               publish(roads);  // live roads and statistics for every station (seeds 002, 003)
               for (const ProtectionAlert& alert : alerts) {
                   publish(alert);
                   if (alert.attendantCalled) {
                       publish(AttendantChanged{alert.station, true});
                   }
               }
           });
    scheduleNextRound();
}

void Table::voidRound(const std::string& reason, const std::string& who, Respond respond) {
    if (phase_ == RoundPhase::Idle) {
        refuse("void_round", std::nullopt, respond,
               Reply::refused("no_round", "no round is in progress (round " + std::to_string(roundId_) + " has ended)"),
               journal::RefusedRequest{.by = who, .reason = reason});
        return;
    }
    if (timer_) {
        timers_.cancel(*timer_);
        timer_.reset();
    }
    std::vector<journal::RoundBet> bets;
    for (const Station& s : stations_) {
        bets.insert(bets.end(), s.bets.begin(), s.bets.end());
    }
    journal::JournalTransaction tx = journal_.begin();
    // After bets closed the stations' games had started (SAS 7E): the void ends them (7F).
    journal::addVoid(
        tx, roundId_, bets, reason,
        journal::VoidDetail{.by = who, .afterClose = phase_ == RoundPhase::Closed || phase_ == RoundPhase::Dealing});
    const std::int64_t round = roundId_;
    endRound();
    commit(std::move(tx), std::move(respond),
           Reply::accepted(RoundVoidedAnswer{round, static_cast<std::int64_t>(bets.size())}), [this, round, reason] {
               publish(RoundVoided{round, reason});
           });
    scheduleNextRound();
}

void Table::endRound() {
    if (coup_) {
        seen_ = coup_->remaining();
    }
    if ((shoe_ && shoe_->cutCardOut()) || (cutCardsBehind_ && seen_.total() <= *cutCardsBehind_)) {
        shoeNeeded_ = true;  // the cut card is out (a reader's: as many cards left as it had behind it)
    }
    disarmReaderWatchdog();
    for (Station& s : stations_) {
        s.bets.clear();
        s.placements.clear();
    }
    if (phase_ != RoundPhase::Idle) {
        controller_.roundEnded();
    }
    phase_ = RoundPhase::Idle;
    ++roundsFinished_;
    edgeNeeded();  // the next round's, from the shoe as this one left it
}

}  // namespace pitlink::table
