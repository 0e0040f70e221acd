// A physical shoe's card reader (seeds 003/004): what it reports of a new shoe (the cut, the
// burn) and of itself (a fault, or silence while a round is dealt: a tilt until it is well).
#include "daemon/journal/records/round_records.h"
#include "daemon/table/table.h"

namespace pitlink::table {

namespace {

// Only between a shoe's start and its first round: what the reader saw of the shoe's preparation.
std::optional<Reply> shoePreparationProblem(CardSource source, bool shoeNeeded, int roundInShoe) {
    if (source == CardSource::Rng) {
        return Reply::refused("rng_shoe", "this table cuts and burns its own RNG shoe");
    }
    if (shoeNeeded) {
        return Reply::refused("no_shoe", "no shoe has been started");
    }
    if (roundInShoe > 0) {
        return Reply::refused("shoe_in_play", "the shoe's first round has been opened: its cut and burn came before");
    }
    return std::nullopt;
}

}  // namespace

void Table::reportCut(int cardsBehind, Respond respond) {
    const journal::RefusedRequest detail{.cardsBehind = cardsBehind};
    if (auto problem = shoePreparationProblem(settings_.source, shoeNeeded_, roundInShoe_)) {
        refuse("cut", std::nullopt, respond, *problem, detail);
        return;
    }
    if (cutCardsBehind_) {
        refuse("cut", std::nullopt, respond,
               Reply::refused("already_reported", "this shoe's cut has been reported (" +
                                                      std::to_string(*cutCardsBehind_) + " cards behind it)"),
               detail);
        return;
    }
    // At least a round (6 cards) in front of the cut card, as an RNG shoe keeps (game::Shoe).
    if (cardsBehind < 1 || cardsBehind > seen_.total() - 6) {
        refuse("cut", std::nullopt, respond,
               Reply::refused("bad_cut",
                              "the cut card must have 1 to " + std::to_string(seen_.total() - 6) + " cards behind it"),
               detail);
        return;
    }
    cutCardsBehind_ = cardsBehind;
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::ShoeCutRecord{shoeNumber_, cardsBehind});
    commit(std::move(tx), std::move(respond), Reply::accepted(ShoeAnswer{shoeNumber_}));
}

void Table::reportBurn(const std::vector<game::Card>& cards, Respond respond) {
    std::vector<std::string> names;
    names.reserve(cards.size());
    for (const game::Card& card : cards) {
        names.push_back(card.toString());
    }
    const journal::RefusedRequest detail{.cards = names};
    if (auto problem = shoePreparationProblem(settings_.source, shoeNeeded_, roundInShoe_)) {
        refuse("burn", std::nullopt, respond, *problem, detail);
        return;
    }
    if (burnReported_) {
        refuse("burn", std::nullopt, respond, Reply::refused("already_reported", "this shoe's burn has been reported"),
               detail);
        return;
    }
    // The turned card says how many follow it: its point value, ten for a ten or a picture.
    const int expected = cards.empty() ? 0 : 1 + cards.front().burnCount();
    if (cards.empty() || static_cast<int>(cards.size()) != expected) {
        refuse("burn", std::nullopt, respond,
               Reply::refused("burn_count", cards.empty()
                                                ? "a burn starts with the turned card"
                                                : "the turned card " + cards.front().toString() + " burns " +
                                                      std::to_string(expected - 1) + " more; the reader reported " +
                                                      std::to_string(cards.size() - 1)),
               detail);
        return;
    }
    game::ShoeComposition after = seen_;
    for (const game::Card& card : cards) {
        if (!after.remove(card)) {
            refuse("burn", std::nullopt, respond,
                   Reply::refused("impossible_card", "the shoe has no " + card.toString() + " left to burn"), detail);
            return;
        }
    }
    seen_ = after;
    burnReported_ = true;
    for (std::size_t i = 1; i < cards.size(); ++i) {
        burnHidden_.add(cards[i]);  // face down: still unknown to a player
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::ShoeBurnedRecord{shoeNumber_, cards, seen_.total()});
    commit(std::move(tx), std::move(respond), Reply::accepted(ShoeAnswer{shoeNumber_}));
    edgeNeeded();  // the turned card is out of what a player could know
}

void Table::readerStatus(bool ok, const std::string& message, Respond respond) {
    if (!ok) {
        const std::string why = "the card reader reports a fault" + (message.empty() ? "" : ": " + message);
        if (tilts_.contains("reader")) {
            respond(Reply::accepted(AlreadySo{}));
            return;
        }
        tiltNow("reader", why, true);
        journal_.afterPending([respond] { respond(Reply::accepted()); });  // once the tilt is journaled
        return;
    }
    if (!tilts_.contains("reader")) {
        respond(Reply::accepted(AlreadySo{}));
        return;
    }
    clearTilt("reader", "reader", std::move(respond));
}

void Table::armReaderWatchdog() {
    disarmReaderWatchdog();
    if (settings_.source != CardSource::Reader || settings_.readerTimeout.count() == 0) {
        return;
    }
    const std::int64_t round = roundId_;
    const std::uint64_t armed = ++readerArmings_;
    readerTimer_ = timers_.after(settings_.readerTimeout, [this, round, armed] {
        if (armed != readerArmings_) {
            return;  // cancelled while already due: a later arming owns readerTimer_
        }
        readerTimer_.reset();
        if (roundId_ == round && (phase_ == RoundPhase::Closed || phase_ == RoundPhase::Dealing)) {
            tiltNow("reader",
                    "no card from the reader for " + std::to_string(settings_.readerTimeout.count() / 1000) +
                        " s while round " + std::to_string(round) + " is dealt",
                    true);
        }
    });
}

void Table::disarmReaderWatchdog() {
    ++readerArmings_;
    if (readerTimer_) {
        timers_.cancel(*readerTimer_);
        readerTimer_.reset();
    }
}

}  // namespace pitlink::table
