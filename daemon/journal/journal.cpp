#include "daemon/journal/journal.h"

#include <algorithm>

#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/store_sink.h"

namespace pitlink::journal {

namespace {

// A fact of this process moves the ledger from its typed record: what the table just did is not
// read back from JSON. Facts of other kinds go through the body, as at a replay.
void applyFact(Ledger& ledger, const Fact& fact) {
    if (const auto* credit = std::any_cast<CreditRecord>(&fact.record)) {
        ledger.applyCredit(fact.station, *credit, fact.roundId);
    } else {
        ledger.apply(fact.kind, fact.station, fact.body, fact.roundId);
    }
}

}  // namespace

std::string gameNamedIn(const Fact& fact) {
    const auto it = fact.body.find("game");
    return it != fact.body.end() && it->is_string() ? it->get<std::string>() : std::string();
}

JournalTransaction& JournalTransaction::add(std::string_view kind, std::optional<std::int64_t> roundId,
                                            std::optional<std::int64_t> station, nlohmann::json body) {
    facts_.push_back(Fact{std::string(kind), roundId, station, std::move(body)});
    return *this;
}

void JournalTransaction::nameGame(const std::string& game) {
    for (Fact& fact : facts_) {
        if (kind::namesItsGame(fact.kind, fact.roundId.has_value()) && fact.body.is_object() &&
            !fact.body.contains("game")) {
            fact.body["game"] = game;
            if (auto* credit = std::any_cast<CreditRecord>(&fact.record)) {
                credit->game = game;  // the ledger meters the game's play from the typed record
            }
        }
    }
}

Money JournalTransaction::balance(std::int64_t station) const {
    Money credits = journal_->projected().credits(station);
    for (const Fact& fact : facts_) {
        if (fact.station == station) {
            if (const auto credit = recordOf<CreditRecord>(fact)) {
                credits = credit->balance;
            }
        }
    }
    return credits;
}

PromoCredits JournalTransaction::promo(std::int64_t station) const {
    // Only the promotional parts and the credits are copied (every bet asks: the station's play
    // meters stay where they are).
    const auto& accounts = journal_->projected().stations();
    const auto it = accounts.find(station);
    PromoCredits promo = it == accounts.end() ? PromoCredits{} : it->second.promo;
    Money credits = it == accounts.end() ? 0 : it->second.credits;
    for (const Fact& fact : facts_) {
        if (fact.station == station) {
            if (const auto credit = recordOf<CreditRecord>(fact)) {
                promo.apply(*credit, fact.roundId, credits - promo.held.total());
                credits = credit->balance;
            }
        }
    }
    return promo;
}

JournalTransaction& JournalTransaction::credit(std::int64_t station, Money amount, std::string_view why,
                                               std::optional<std::int64_t> roundId, CreditDetail detail) {
    const Money before = balance(station);
    const Money after = before + amount;
    if (after < 0) {
        throw LedgerError("station " + std::to_string(station) + " has " + std::to_string(before) +
                          " credits, cannot move " + std::to_string(amount));
    }
    const PromoCredits held = promo(station);
    const PromoParts parts = detail.promo ? *detail.promo : held.partsOf(why, amount, roundId, detail.ref);
    const PromoParts wageredPromo = why == reason::kSettlement ? held.stakedIn(roundId.value_or(0)) : PromoParts{};
    return add(CreditRecord{amount, after, std::string(why), std::move(detail.ref), detail.wagered, detail.due,
                            detail.shortfall, detail.denomination, std::nullopt, parts, wageredPromo, detail.taxStatus},
               roundId, station);
}

Journal::Journal(JournalSink& sink, Ledger committed, Clock clock, std::int64_t snapshotEvery)
    : sink_(sink),
      committed_(committed),
      projected_(std::move(committed)),
      clock_(std::move(clock)),
      snapshotEvery_(snapshotEvery) {}

void Journal::submit(JournalTransaction transaction, JournalSink::Done done) {
    send(std::move(transaction), std::move(done), false);
}

void Journal::project(const std::vector<Fact>& facts) {
    try {
        for (const Fact& fact : facts) {
            applyFact(projected_, fact);
        }
    } catch (...) {
        // Applied in place rather than on a copy made for every transaction: a record the
        // ledger refuses is rare (the table checks first), so the projection is rebuilt only then.
        projected_ = committed_;
        for (const auto& pending : unconfirmed_) {
            for (const Fact& fact : *pending) {
                applyFact(projected_, fact);
            }
        }
        throw;
    }
}

void Journal::send(JournalTransaction transaction, JournalSink::Done done, bool rotate) {
    if (failure_) {
        ++submitted_;
        if (done) {
            done(CommitResult::failed(*failure_));
        }
        completed();
        return;
    }
    project(transaction.facts_);
    ++submitted_;
    sinceSnapshot_ += static_cast<std::int64_t>(transaction.facts_.size());
    if (!rotate && snapshotEvery_ > 0 && sinceSnapshot_ >= snapshotEvery_) {
        transaction.add(kind::kMetersSnapshot, std::nullopt, std::nullopt, projected_.toJson());
        sinceSnapshot_ = 0;
    }
    auto facts = std::make_shared<const std::vector<Fact>>(std::move(transaction.facts_));
    unconfirmed_.push_back(facts);

    const std::int64_t at = clock_();
    std::vector<PendingRecord> records;
    records.reserve(facts->size());
    std::int64_t bytes = 0;
    for (const Fact& fact : *facts) {
        records.push_back(PendingRecord{at, fact.kind, fact.roundId, fact.station, canonicalJson(fact.body)});
        // The row's text and link, its key and its share of the indexes' pages: about what the
        // record adds to the file.
        bytes += static_cast<std::int64_t>(records.back().body.size() + records.back().kind.size()) + 64;
    }
    // Records submitted after a rotation go to the new segment: it is counted from here.
    const SegmentStats before = segments_;
    if (rotate) {
        segments_.segmentStartMs = at;
        segments_.segmentBytes = 0;
    }
    segments_.segmentBytes += bytes;
    auto completion = [this, facts = std::move(facts), done = std::move(done), rotate,
                       before](const CommitResult& result) {
        std::erase(unconfirmed_, facts);
        if (rotate) {
            rotating_ = false;
            if (result.rotated) {
                ++segments_.rotations;
            } else if (result.ok) {
                // They went to the old segment after all, and so did everything since.
                ++segments_.postponed;
                segments_.lastPostponed = result.postponed;
                segments_.segmentStartMs = before.segmentStartMs;
                segments_.segmentBytes += before.segmentBytes;
                retryRotationAtMs_ = clock_() + 60'000;
            }
        }
        if (result.ok) {
            for (const Fact& fact : *facts) {
                applyFact(committed_, fact);
            }
            lastSeq_ = std::max(lastSeq_, result.seqs.lastSeq);
        } else if (!failure_) {
            // Nothing submitted after this commits either (the writer refuses once failed), so
            // the projection falls back to what the disk holds.
            failure_ = result.error;
            projected_ = committed_;
        }
        if (done) {
            done(result);
        }
        completed();
    };
    if (rotate) {
        sink_.rotate(std::move(records), std::move(completion));
    } else {
        sink_.commit(std::move(records), std::move(completion));
    }
}

void Journal::setSegmentPolicy(SegmentPolicy policy, std::int64_t segmentStartMs, std::int64_t segmentBytes) {
    segmentPolicy_ = policy;
    segments_.segmentStartMs = segmentStartMs;
    segments_.segmentBytes = segmentBytes;
}

bool Journal::rotationDue() const {
    if (!segmentPolicy_.enabled() || rotating_ || failure_) {
        return false;
    }
    const std::int64_t now = clock_();
    if (now < retryRotationAtMs_) {
        return false;
    }
    return (segmentPolicy_.maxAgeMs > 0 && now - segments_.segmentStartMs >= segmentPolicy_.maxAgeMs) ||
           (segmentPolicy_.maxBytes > 0 && segments_.segmentBytes >= segmentPolicy_.maxBytes);
}

void Journal::rotateIfDue() {
    if (!rotationDue()) {
        return;
    }
    rotating_ = true;
    JournalTransaction transaction = begin();
    transaction.add(kind::kMetersSnapshot, std::nullopt, std::nullopt, projected_.toJson());
    sinceSnapshot_ = -1;  // the snapshot record itself is counted by send
    send(std::move(transaction), {}, true);
}

void Journal::completed() {
    ++completed_;
    while (!waiting_.empty() && waiting_.front().first <= completed_) {
        auto then = std::move(waiting_.front().second);
        waiting_.pop_front();
        then();
    }
}

void Journal::afterPending(std::function<void()> then) {
    if (completed_ == submitted_ && waiting_.empty()) {
        then();
        return;
    }
    waiting_.emplace_back(submitted_, std::move(then));
}

void Journal::snapshot(JournalSink::Done done) {
    JournalTransaction transaction = begin();
    transaction.add(kind::kMetersSnapshot, std::nullopt, std::nullopt, projected_.toJson());
    sinceSnapshot_ = -1;  // the snapshot record itself is counted by submit
    submit(std::move(transaction), std::move(done));
}

std::optional<std::string> commitNow(JournalStore& store, Ledger& ledger, const Journal::Clock& clock,
                                     const std::function<void(JournalTransaction&)>& build) {
    StoreSink sink(store);
    Journal journal(sink, ledger, clock, 0);
    JournalTransaction tx = journal.begin();
    build(tx);
    std::optional<std::string> failure;
    journal.submit(std::move(tx), [&](const CommitResult& result) {
        if (!result.ok) {
            failure = result.error;
        }
    });
    ledger = journal.committed();
    return failure;
}

}  // namespace pitlink::journal
