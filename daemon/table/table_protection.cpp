// Game protection at the table (docs/protection.md): the exact edge of each watched side bet for
// the next round, computed on a worker from what a player could know of the shoe, journaled
// (shoe.edge) and sent to the control socket only; side bets closed by their rule; stations whose
// side-bet stakes follow the edge reported (protection.alert). The rules are game::SideBetGuard's.
#include <cmath>
#include <exception>
#include <utility>

#include "daemon/journal/records/protection_records.h"
#include "daemon/journal/records/station_records.h"
#include "daemon/table/table.h"

namespace pitlink::table {

void Table::enableProtection(std::unique_ptr<platform::Worker> worker) {
    if (!settings_.protection.enabled) {
        return;
    }
    guard_.emplace(settings_.protection, paytable_);
    edgeWorker_ = std::move(worker);
    edgeNeeded();  // a resumed shoe's next round
}

game::ShoeComposition Table::knownLeft() const {
    game::ShoeComposition known = seen_;
    for (int index = 0; index < game::kCardsPerDeck; ++index) {
        if (const int hidden = burnHidden_.count(index); hidden > 0) {
            known.add(game::Card::fromIndex(index), hidden);
        }
    }
    return known;
}

void Table::edgeNeeded() {
    if (!guard_) {
        return;
    }
    const std::uint64_t key = guard_->compositionChanged();
    latestEdgeKey_->store(key);  // a job for an older key still queued on the worker is skipped
    if (shoeNumber_ == 0 || shoeNeeded_ || guard_->watched().empty()) {
        return;  // the next round starts a new shoe, whose edge is asked for then
    }
    game::ShoeComposition known = knownLeft();
    if (known.total() < game::kMaxCardsPerCoup) {
        return;  // not a round's worth of cards: the shoe is done
    }
    const auto cards = static_cast<std::int64_t>(known.total());
    edgeWorker_->run([this, key, cards, known, paytable = &paytable_, &executor = timers_,
                      alive = std::weak_ptr<int>(alive_), latest = latestEdgeKey_] {
        // On the worker: only the composition (a copy), the paytable (read-only) and the latest
        // key (atomic) are touched. A composition that has changed again is not computed.
        if (latest->load() != key) {
            return;
        }
        std::vector<game::BetEdge> edges;
        std::string error;
        try {
            edges = game::sideBetEdges(*paytable, known);
        } catch (const std::exception& e) {
            error = e.what();
        }
        executor.post([this, key, cards, alive, edges = std::move(edges), error = std::move(error)] {
            if (alive.expired()) {
                return;
            }
            if (!error.empty()) {
                protectionStats_.lastError = error;  // its bets under `close` stay waiting
                return;
            }
            edgeArrived(key, edges, cards);
        });
    });
}

void Table::edgeArrived(std::uint64_t key, const std::vector<game::BetEdge>& edges, std::int64_t cardsKnown) {
    if (!guard_->take(key, edges)) {
        ++protectionStats_.edgesStale;  // the composition changed again: its own edge follows
        return;
    }
    ++protectionStats_.edgesComputed;
    // The edge is for the round the composition opens: the one taking bets now, or the next.
    const std::int64_t round = phase_ == RoundPhase::Idle ? roundInShoe_ + 1 : roundInShoe_;
    ShoeEdge event{shoeNumber_, round, cardsKnown, {}, {}};
    journal::ShoeEdgeRecord record{shoeNumber_, round, cardsKnown, {}, {}};
    for (const game::BetEdge& edge : guard_->edges()) {
        event.edgesPpm.emplace_back(edge.bet, edge.ppm());
        record.edges[std::string(game::betTypeName(edge.bet))] = edge.ppm();
    }
    for (const game::BetType bet : game::kAllBetTypes) {
        if (guard_->closed().contains(bet)) {
            event.closed.push_back(bet);
            record.closed.emplace_back(game::betTypeName(bet));
        }
    }
    shoeEdges_.push_back(event);
    journal::JournalTransaction tx = journal_.begin();
    tx.add(record);
    const bool closedChanged = event.closed != closedShown_;
    closedShown_ = event.closed;
    commit(std::move(tx), {}, Reply::accepted(), [this, event = std::move(event), closedChanged] {
        publish(event);
        if (closedChanged) {
            publish(SideBetsChanged{event.closed});
        }
    });
    // The standing slips that waited for this edge are placed now (after it, in the journal).
    // A tilt or a host delay that came during the wait would refuse the slip and turn the
    // standing bets off, which at the opening it would not have: such a slip waits on (until the
    // bets close).
    bool placed = false;
    for (Station& s : stations_) {
        if (!s.standingWaitsForEdge || tilted() || wallet(s.number).hostDelayUntilMs > timers_.nowMs()) {
            continue;
        }
        s.standingWaitsForEdge = false;
        if (bettingOpen(phase_) && (s.autoRepeat || s.keepBets) && s.bets.empty()) {
            placeStandingBets(s);
            placed = true;
        }
    }
    if (placed) {
        armAutoDeal();
    }
}

std::optional<game::BetRefusal> Table::protectionRefusal(const game::BetSlip& add) {
    if (!guard_ || !bettingOpen(phase_)) {
        return std::nullopt;
    }
    auto refusal = guard_->refusal(add);
    if (refusal) {
        ++(refusal->rule == game::BetRule::SideBetEdgePending ? protectionStats_.betsWaited
                                                              : protectionStats_.betsClosed);
    }
    return refusal;
}

std::vector<ProtectionAlert> Table::watchCounters(journal::JournalTransaction& tx) {
    std::vector<ProtectionAlert> reported;
    if (!guard_ || !edgeBeforeClose_) {
        return reported;  // nobody could bet the guarded side bets: the round counts for nothing
    }
    std::vector<std::int64_t> seated;
    std::map<std::int64_t, game::BetSlip> stakes;
    for (const Station& s : stations_) {
        if (wallet(s.number).joined(settings_.name)) {
            seated.push_back(s.number);
            if (!s.bets.empty()) {
                stakes[s.number] = s.slip();
            }
        }
    }
    for (const game::CounterAlert& alert : guard_->roundSettled(seated, stakes)) {
        const auto hundredths = [](double v) { return static_cast<std::int64_t>(std::llround(v * 100)); };
        const game::CounterScore& score = alert.score;
        ProtectionAlert event{alert.station,
                              shoeNumber_,
                              alert.bet,
                              score.rounds,
                              score.staked,
                              std::llround(score.meanEdgePpm),
                              std::llround(score.stakedEdgePpm),
                              hundredths(score.z)};
        tx.add(journal::ProtectionAlertRecord{shoeNumber_, std::string(game::betTypeName(alert.bet)), event.rounds,
                                              event.staked, event.meanEdgePpm, event.stakedEdgePpm, event.zHundredths},
               std::nullopt, alert.station);
        if (settings_.protection.counterCallsAttendant && !wallet(alert.station).attendantCalled) {
            walletAt(alert.station).attendantCalled = true;
            tx.add(journal::AttendantCalledRecord{"protection"}, std::nullopt, alert.station);
            event.attendantCalled = true;
        }
        reported.push_back(event);
    }
    return reported;
}

}  // namespace pitlink::table
