#include "daemon/ship/shipper.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "daemon/journal/store/journal_error.h"

namespace pitlink::ship {

namespace {

using std::chrono::milliseconds;

constexpr milliseconds kRefusedRetry{60'000};
constexpr milliseconds kStoppedPoll{5'000};

// The UTC month of a time (year * 12 + month - 1): partitions are UTC months.
std::int64_t monthOf(std::int64_t ms) {
    const auto day = std::chrono::floor<std::chrono::days>(std::chrono::sys_time<milliseconds>(milliseconds(ms)));
    const std::chrono::year_month_day ymd(day);
    return static_cast<std::int64_t>(static_cast<int>(ymd.year())) * 12 + static_cast<unsigned>(ymd.month()) - 1;
}

}  // namespace

Shipper::Shipper(ShipConfig config, Connect connect, Clock nowMs)
    : config_(std::move(config)), connect_(std::move(connect)), nowMs_(std::move(nowMs)), sinceMs_(nowMs_()) {}

void Shipper::enter(const std::string& state, const std::string& error) {
    if (state != state_) {
        state_ = state;
        sinceMs_ = nowMs_();
    }
    error_ = error;
}

milliseconds Shipper::step() {
    if (stopped()) {
        return kStoppedPoll;  // the status stays fresh; nothing is shipped
    }
    if (!tail_) {
        try {
            tail_ = std::make_unique<journal::JournalTail>(config_.journalPath, config_.archiveDirs);
            identity_ = tail_->identity();
        } catch (const journal::JournalError& e) {
            tail_.reset();
            enter("journal_unreadable", e.what());
            return config_.retryMax;
        }
    }
    if (!client_) {
        return connect();
    }
    return shipBatch();
}

milliseconds Shipper::failed(const FloorError& e, const std::string& during) {
    client_.reset();
    follower_.reset();
    // Not this role's table (42501), or the journal registered with another chain (PF003): the
    // DBA must act; tried again now and then, not in a tight loop.
    if (e.sqlstate() == "42501" || e.sqlstate() == "PF003") {
        enter("refused", during + ": " + e.what());
        return kRefusedRetry;
    }
    enter("offline", during + ": " + e.what());
    const milliseconds wait = backoff_;
    backoff_ = std::min(backoff_ * 2, config_.retryMax);
    return wait;
}

milliseconds Shipper::connect() {
    FloorHead head;
    try {
        client_ = connect_();
        head = client_->registerJournal(config_.table, identity_);
    } catch (const FloorError& e) {
        return failed(e, "registering the journal");
    }
    try {
        journalSeq_ = tail_->lastSeq();
        if (head.lastSeq > 0) {
            const auto local = tail_->record(head.lastSeq);
            if (local && local->hash != head.lastHash) {
                enter("tamper", "the server's record " + std::to_string(head.lastSeq) + " of table " + config_.table +
                                    " journal " + std::to_string(identity_.createdAtMs) +
                                    " has another hash than this journal's: shipping stopped");
                return kStoppedPoll;
            }
            if (!local && head.lastSeq > journalSeq_) {
                enter("tamper", "the server holds records up to " + std::to_string(head.lastSeq) +
                                    ", past this journal's last (" + std::to_string(journalSeq_) +
                                    "): shipping stopped");
                return kStoppedPoll;
            }
            // Not held here any more (archived): the next record's link, in a sha256 journal,
            // proves it follows the server's.
        }
    } catch (const journal::JournalError& e) {
        client_.reset();
        tail_.reset();
        enter("journal_unreadable", e.what());
        return config_.retryMax;
    }
    serverSeq_ = head.lastSeq;
    follower_.emplace(identity_.chain, head.lastSeq, head.lastHash);
    backoff_ = milliseconds(500);
    enter("shipping");
    return milliseconds(0);
}

void Shipper::ensurePartitions(std::int64_t fromMs, std::int64_t toMs) {
    const std::int64_t first = monthOf(fromMs);
    const std::int64_t last = monthOf(toMs);
    bool known = true;
    for (std::int64_t m = first; m <= last && known; ++m) {
        known = monthsEnsured_.contains(m);
    }
    if (known) {
        return;
    }
    client_->ensurePartitions(fromMs, toMs);
    for (std::int64_t m = first; m <= last; ++m) {
        monthsEnsured_.insert(m);
    }
}

milliseconds Shipper::shipBatch() {
    std::vector<journal::JournalRecord> records;
    try {
        records = tail_->after(follower_->lastSeq(), config_.batchRecords);
        journalSeq_ = std::max(journalSeq_, records.empty() ? tail_->lastSeq() : records.back().seq);
    } catch (const journal::JournalError& e) {
        // The records after the server's head are not readable here (archived away before they
        // were shipped, or the file unreadable): nothing past them can be shipped.
        tail_.reset();
        client_.reset();
        follower_.reset();
        enter("journal_unreadable", e.what());
        return config_.retryMax;
    }
    // At most batch_bytes of them (one record always goes), each checked before it is shipped.
    std::size_t bytes = 0;
    std::size_t take = 0;
    std::optional<std::string> broken;
    for (const journal::JournalRecord& r : records) {
        bytes += r.body.size() + r.kind.size() + 64;
        if (take > 0 && bytes > config_.batchBytes) {
            break;
        }
        if (auto problem = follower_->follow(r)) {
            broken = std::move(problem);
            break;
        }
        ++take;
    }
    oldestUnshippedAtMs_ = records.empty() ? 0 : records.front().atMs;
    if (take == 0) {
        if (broken) {
            enter("chain_break",
                  "nothing shipped past record " + std::to_string(follower_->lastSeq()) + ": " + *broken);
            return kStoppedPoll;
        }
        enter("caught_up");
        if (config_.verifyEvery.count() > 0 && nowMs_() >= nextVerifyMs_) {
            nextVerifyMs_ = nowMs_() + config_.verifyEvery.count();
            try {
                if (!verifyNextRange()) {
                    return kStoppedPoll;
                }
            } catch (const FloorError& e) {
                return failed(e, "comparing the server's records with the journal");
            } catch (const journal::JournalError&) {
                verifyFrom_ = 0;  // a segment archived away meanwhile: the next sweep starts from what is held
            }
        }
        return config_.poll;
    }
    const std::span<const journal::JournalRecord> batch(records.data(), take);
    try {
        const auto [lo, hi] = std::minmax_element(batch.begin(), batch.end(),
                                                  [](const auto& a, const auto& b) { return a.atMs < b.atMs; });
        ensurePartitions(lo->atMs, hi->atMs);
        client_->append(config_.table, identity_.createdAtMs, batch);
    } catch (const FloorError& e) {
        // The follower goes with the connection (it checked records not shipped). PF001: the server's head is not where
        // this shipper had it (another writer, or a commit whose answer was lost): it is read again with the
        // registration.
        return failed(e,
                      "shipping records " + std::to_string(batch.front().seq) + "-" + std::to_string(batch.back().seq));
    }
    serverSeq_ = batch.back().seq;
    shipped_ += static_cast<std::int64_t>(take);
    oldestUnshippedAtMs_ = take < records.size() ? records[take].atMs : 0;
    if (broken) {
        enter("chain_break", "nothing shipped past record " + std::to_string(follower_->lastSeq()) + ": " + *broken);
        return kStoppedPoll;
    }
    enter("shipping");
    return take == records.size() && records.size() < config_.batchRecords ? config_.poll : milliseconds(0);
}

bool Shipper::verifyNextRange() {
    constexpr std::int64_t kRange = 10'000;
    const std::int64_t first = tail_->oldestSeq();  // the archive folders' segments too; older: not held here
    if (verifyFrom_ < first || verifyFrom_ > serverSeq_) {
        verifyFrom_ = first;  // from the start again
    }
    const std::int64_t to = std::min(verifyFrom_ + kRange - 1, serverSeq_);
    if (to < verifyFrom_) {
        return true;
    }
    // An archived segment is read to its end at most: the range is read on until it is whole.
    std::vector<journal::JournalRecord> local;
    while (local.size() < static_cast<std::size_t>(to - verifyFrom_ + 1)) {
        const std::int64_t after = verifyFrom_ - 1 + static_cast<std::int64_t>(local.size());
        std::vector<journal::JournalRecord> more = tail_->after(after, static_cast<std::size_t>(to - after));
        if (more.empty()) {
            break;
        }
        local.insert(local.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }
    const auto [count, digest] = client_->rangeDigest(config_.table, identity_.createdAtMs, verifyFrom_, to);
    if (count != static_cast<std::int64_t>(local.size()) || digest != rangeDigest(local)) {
        enter("tamper", "the server's records " + std::to_string(verifyFrom_) + "-" + std::to_string(to) +
                            " of table " + config_.table + " journal " + std::to_string(identity_.createdAtMs) +
                            " are not this journal's (" + std::to_string(count) + " held there, " +
                            std::to_string(local.size()) + " here): shipping stopped");
        return false;
    }
    verifiedTo_ = to;
    verifyFrom_ = to + 1;
    return true;
}

nlohmann::json Shipper::status() const {
    const std::int64_t now = nowMs_();
    const std::int64_t lagRecords = std::max<std::int64_t>(0, journalSeq_ - serverSeq_);
    return nlohmann::json{
        {"state", state_},
        {"table", config_.table},
        {"journal_id", identity_.createdAtMs},
        {"chain", identity_.chain},
        {"links_checked", identity_.chain == "sha256"},
        {"server_seq", serverSeq_},
        {"journal_seq", journalSeq_},
        {"lag_records", lagRecords},
        {"lag_ms",
         lagRecords > 0 && oldestUnshippedAtMs_ > 0 ? std::max<std::int64_t>(0, now - oldestUnshippedAtMs_) : 0},
        {"shipped", shipped_},
        {"verified_to", verifiedTo_},
        {"error", error_},
        {"since_ms", sinceMs_},
        {"updated_ms", now}};
}

}  // namespace pitlink::ship
