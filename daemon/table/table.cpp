// The table's core: construction, committing with acknowledgement, tilts, state for status.
#include "daemon/table/table.h"

#include <algorithm>
#include <stdexcept>

#include "daemon/journal/records/paytable_codec.h"
#include "daemon/journal/records/record_kinds.h"

namespace pitlink::table {

Table::Table(journal::Journal& journal, const game::Paytable& paytable, const TableSettings& settings,
             platform::Executor& timers, game::RandomSource& random, const TableStart& start, Publish publish)
    : Table(journal,
            std::make_unique<Controller>(settings.stations, settings.denominations, start,
                                         std::vector<std::string>{settings.name}),
            nullptr, paytable, settings, timers, random, start, std::move(publish)) {}

Table::Table(journal::Journal& journal, Controller& controller, const game::Paytable& paytable, TableSettings settings,
             platform::Executor& timers, game::RandomSource& random, const TableStart& start, Publish publish)
    : Table(journal, nullptr, &controller, paytable, std::move(settings), timers, random, start, std::move(publish)) {}

Table::Table(journal::Journal& journal, std::unique_ptr<Controller> own, Controller* shared,
             const game::Paytable& paytable, TableSettings settings, platform::Executor& timers,
             game::RandomSource& random, const TableStart& start, Publish publish)
    : journal_(journal),
      ownController_(std::move(own)),
      controller_(shared != nullptr ? *shared : *ownController_),
      paytable_(paytable),
      paytableSha_(journal::paytableSha256(paytable)),
      settings_(std::move(settings)),
      timers_(timers),
      random_(random),
      publish_(std::move(publish)),
      hadShoe_(start.nextShoeNumber > 1) {
    roundBeforeStart_ = start.lastRound.value_or(0);
    seat(start);
}

void Table::seat(const TableStart& start) {
    for (int n = 1; n <= controller_.stationCount(); ++n) {
        Station s;
        s.number = n;
        if (const auto it = start.stationStates.find(n); it != start.stationStates.end()) {
            s.lastSlip = it->second.lastSlip;
            s.streak = it->second.streak;
            // A level the table no longer offers (fewer levels configured) falls to its last.
            s.limitLevel = std::min(it->second.limitLevel, static_cast<int>(settings_.bets.limits.levels.size()));
            s.autoRepeat = it->second.autoRepeat;
            s.keepBets = it->second.keepBets && settings_.source == CardSource::Rng;
        }
        if (const auto it = start.disputes.find(n); it != start.disputes.end()) {
            s.dispute = it->second;
        }
        stations_.push_back(std::move(s));
    }
    // A reader's physical shoe stayed in the shoe box: the table goes on with it. An RNG table
    // shuffles a new shoe at its first round (its order is never journaled), and a shoe of other
    // decks than the configuration's is not this table's any more: the dealer reports a new one.
    if (start.shoe && settings_.source == CardSource::Reader && start.shoe->decks == settings_.shoe.decks) {
        resumeShoe(*start.shoe);
    }
    // A reservation's time-out runs on (it may have passed while pitlinkd was down). The first
    // game keeps the controller's reservation timers.
    if (settings_.name == controller_.firstGame()) {
        for (int n = 1; n <= controller_.stationCount(); ++n) {
            if (controller_.wallet(n).reservation) {
                scheduleReservationEnd(n);
            }
        }
    }
}

Table::~Table() {
    stop();
}

void Table::stop() {
    running_ = false;
    if (timer_) {
        timers_.cancel(*timer_);
        timer_.reset();
    }
    disarmReaderWatchdog();
    if (holdTimer_) {
        timers_.cancel(*holdTimer_);
        holdTimer_.reset();
    }
    for (const auto& [station, timer] : reservationTimers_) {
        timers_.cancel(timer);
    }
    reservationTimers_.clear();
}

void Table::commit(journal::JournalTransaction tx, Respond respond, Reply reply, std::function<void()> then) {
    if (controller_.severalGames()) {
        tx.nameGame(settings_.name);
    }
    CommitObserver* observer = controller_.observer();
    std::function<void()> observed = observer != nullptr ? observer->submitting(tx) : std::function<void()>{};
    journal_.submit(std::move(tx),
                    [this, respond = std::move(respond), reply = std::move(reply), then = std::move(then),
                     observed = std::move(observed)](const journal::CommitResult& result) {
                        if (!result.ok) {
                            tiltNow("journal", "the journal cannot be written: " + result.error, false);
                            if (respond) {
                                respond(reply.ok ? Reply::refused("journal_failed", result.error) : reply);
                            }
                            return;
                        }
                        if (observed) {
                            observed();
                        }
                        if (respond) {
                            respond(reply);
                        }
                        if (then) {
                            then();
                        }
                    });
}

void Table::refuse(std::string_view op, std::optional<std::int64_t> station, const Respond& respond, Reply refusal,
                   const journal::RefusedRequest& detail) {
    if (!respond) {
        return;
    }
    journal::RequestRefusedRecord record{std::string(op), refusal.error, refusal.message, detail, std::nullopt};
    std::optional<std::int64_t> column;
    if (station && *station >= 1 && *station <= stationCount()) {
        column = station;
    } else if (station) {
        record.station = *station;  // not a station of this table: no account to file it under
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(record, phase_ != RoundPhase::Idle ? std::optional<std::int64_t>(roundId_) : std::nullopt, column);
    commit(std::move(tx), respond, std::move(refusal));
}

void Table::publishInOrder(TableEvent event) {
    journal_.afterPending([this, event = std::move(event)] { publish(event); });
}

void Table::shutdown(std::function<void(const std::string& verdict)> done) {
    stop();
    shuttingDown_ = true;
    const std::int64_t round = roundId_;
    std::string verdict;
    switch (phase_) {
        case RoundPhase::Idle:
            verdict = "no round in progress";
            break;
        case RoundPhase::BetsOpen:
        case RoundPhase::LastBets:
            voidRound("pitlinkd stopping before the deal: bets returned", "pitlinkd", {});
            verdict = "round " + std::to_string(round) + " voided before the deal, bets returned";
            break;
        case RoundPhase::Closed:
        case RoundPhase::Dealing:
            if (settings_.source == CardSource::Rng) {
                dealFromShoe();  // the RNG shoe deals the whole coup at once; this only finishes one left half-dealt
                verdict = "round " + std::to_string(round) + " finished";
                break;
            }
            verdict = "round " + std::to_string(round) + " parked with " + std::to_string(cards_.size()) +
                      " cards: at the next start it is settled from its journaled cards if complete, otherwise voided";
            break;
    }
    // Answered once everything submitted, the void or settlement included, has committed.
    journal_.afterPending([this, done = std::move(done), verdict = std::move(verdict)] {
        done(journal_.failed() ? verdict + " (not journaled: the journal failed; the next start recovers the round)"
                               : verdict);
    });
}

Station& Table::stationAt(std::int64_t number) {
    return stations_.at(static_cast<std::size_t>(number - 1));  // callers check the number first
}

const Station& Table::station(std::int64_t number) const {
    return stations_.at(static_cast<std::size_t>(number - 1));
}

std::optional<Reply> Table::stationProblem(std::int64_t number) const {
    if (number < 1 || number > stationCount()) {
        return Reply::refused("no_such_station", "there is no station " + std::to_string(number) + " (1.." +
                                                     std::to_string(stationCount()) + ")");
    }
    const StationWallet& s = wallet(number);
    if (const auto& handpay = s.handpay) {
        return Reply::refused("handpay_pending", "station " + std::to_string(number) + " is locked for a hand-pay of " +
                                                     std::to_string(handpay->amount) + " until an attendant resets it");
    }
    if (s.hostDisabled) {
        return Reply::refused("host_disabled",
                              "station " + std::to_string(number) + " is shut down by the accounting host");
    }
    if (s.reservation) {
        return Reply::refused("station_reserved", "station " + std::to_string(number) +
                                                      " is reserved for its player until released or timed out");
    }
    if (s.aftLocked) {
        return Reply::refused("aft_locked",
                              "station " + std::to_string(number) +
                                  " is locked for a cashless transfer by the accounting host (SAS LP 74)");
    }
    if (s.cashingOut || s.redeeming || s.hostCashingOut) {
        return Reply::refused("host_busy", "station " + std::to_string(number) +
                                               " is waiting for the accounting host (" +
                                               (s.redeeming ? "ticket in" : "cash-out") + ")");
    }
    return std::nullopt;
}

bool Table::stakesInPlay(std::int64_t number) const {
    if (!station(number).bets.empty()) {
        return true;
    }
    const auto& accounts = journal_.projected().stations();
    const auto it = accounts.find(number);
    return it != accounts.end() && it->second.inPlay > 0;
}

void Table::delayStation(std::int64_t number, std::chrono::milliseconds delay) {
    if (number >= 1 && number <= stationCount()) {
        walletAt(number).hostDelayUntilMs = delay.count() > 0 ? timers_.nowMs() + delay.count() : 0;
    }
}

void Table::setHostEnabled(std::int64_t number, bool enabled) {
    if (number >= 1 && number <= stationCount()) {
        walletAt(number).hostDisabled = !enabled;
        publish(HostEnabledChanged{number, enabled});
    }
}

void Table::publish(const TableEvent& event) {
    if (!publish_) {
        return;
    }
    if (const auto* credits = std::get_if<CreditsChanged>(&event)) {
        // The credits' promotional parts, as committed now (the front end shows them apart).
        CreditsChanged typed = *credits;
        typed.promo = journal_.committed().station(credits->station).promo.held;
        publish_(typed);
        return;
    }
    publish_(event);
}

void Table::tiltNow(const std::string& cause, const std::string& message, bool journaled) {
    if (const auto it = tilts_.find(cause); it != tilts_.end() && it->second == message) {
        return;  // every commit after a failed one fails the same way: one tilt
    }
    tilts_[cause] = message;
    if (journaled) {
        journal::JournalTransaction tx = journal_.begin();
        tx.add(journal::TiltRaisedRecord{cause, message});
        commit(std::move(tx), {}, Reply::accepted());
    }
    publish(TiltChanged{true, cause, message});
}

TableStatus Table::status() const {
    TableStatus out{settings_.name,
                    settings_.source == CardSource::Rng,
                    phase_,
                    roundId_,
                    shoeNumber_,
                    roundInShoe_,
                    shoeLeft().total(),
                    shoeReason_,
                    shoeResumed_,
                    roundsFinished_,
                    paytable_.id,
                    tilts_,
                    {},
                    settings_.denominations,
                    static_cast<int>(settings_.bets.limits.levels.size()),
                    std::nullopt};
    for (const Station& s : stations_) {
        const StationWallet& w = wallet(s.number);
        out.stations.push_back(
            StationStatus{s.number, journal_.committed().credits(s.number), s.bets, w.handpay, w.attendantCalled,
                          w.reservation ? std::optional(w.reservation->untilMs) : std::nullopt, s.dispute,
                          w.hostDisabled, s.limitLevel, w.personal, s.autoRepeat, s.keepBets, s.confirmed,
                          denominationOf(s.number), controller_.severalGames() ? w.games : std::vector<std::string>{},
                          journal_.committed().station(s.number).promo.held, w.aftLocked});
    }
    if (guard_) {
        TableStatus::SideBets sideBets;
        for (const game::SideBetRule& rule : guard_->watched()) {
            if (const auto refusal = guard_->refusal(rule.bet)) {
                (refusal->rule == game::BetRule::SideBetClosed ? sideBets.closed : sideBets.waiting)
                    .push_back(rule.bet);
            }
        }
        out.sideBets = std::move(sideBets);
    }
    return out;
}

}  // namespace pitlink::table
