#pragma once
// pitlink-ship's work, one step at a time (main.cpp runs the steps and sleeps between them;
// README.md "Shipping to the floor"):
// - at start, and after any failure, it connects and registers the journal (floor.journals);
//   the server's head is the truth of what was shipped. The local record at the head must have
//   the server's hash, and the server must not be ahead of the journal: otherwise it is a
//   tamper alarm, and nothing more is shipped for the journal;
// - then it reads the records after the head in short reads (JournalTail), checks each
//   (ChainFollower) and ships them in batches, each one transaction; it ships nothing past a
//   record that fails the check (a chain break: shipping stops there);
// - while caught up it compares what the server holds with the journal, 10,000 records at a
//   time (FloorClient::rangeDigest), all of it in turn: a record edited or removed on the
//   server is a tamper alarm;
// - a lost connection or a server down: tried again after 0.5 s, doubling up to `retry_max_ms`;
//   a refusal of the role (another table's rows, a journal registered otherwise): every minute.
// The status (state, heads, lag) is what `pitlinkctl status` shows of it.
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "daemon/journal/read/journal_tail.h"
#include "daemon/ship/chain_follower.h"
#include "daemon/ship/floor_client.h"
#include "daemon/ship/ship_config.h"

namespace pitlink::ship {

class Shipper {
public:
    using Connect = std::function<std::unique_ptr<FloorClient>()>;
    using Clock = std::function<std::int64_t()>;  // UTC ms

    Shipper(ShipConfig config, Connect connect, Clock nowMs);

    // One step: connect, or ship one batch, or find nothing new. Returns how long to wait
    // before the next step (0: go on at once).
    std::chrono::milliseconds step();

    // What `pitlinkctl status` shows: {state, table, journal_id, chain, links_checked,
    // server_seq, journal_seq, lag_records, lag_ms, shipped, verified_to (the last record the
    // comparison with the server reached), error, since_ms, updated_ms}.
    // state: starting, offline, shipping, caught_up, refused, tamper, chain_break,
    // journal_unreadable.
    [[nodiscard]] nlohmann::json status() const;
    // A tamper alarm or a chain break: nothing more is shipped until the operator acts.
    [[nodiscard]] bool stopped() const { return state_ == "tamper" || state_ == "chain_break"; }
    [[nodiscard]] const std::string& state() const { return state_; }

private:
    std::chrono::milliseconds connect();
    std::chrono::milliseconds shipBatch();
    std::chrono::milliseconds failed(const FloorError& e, const std::string& during);
    void enter(const std::string& state, const std::string& error = "");
    void ensurePartitions(std::int64_t fromMs, std::int64_t toMs);
    // One range of the server's records compared with the journal's; false: a tamper alarm.
    bool verifyNextRange();

    ShipConfig config_;
    Connect connect_;
    Clock nowMs_;
    std::unique_ptr<journal::JournalTail> tail_;
    journal::JournalIdentity identity_;
    std::unique_ptr<FloorClient> client_;
    std::optional<ChainFollower> follower_;
    std::set<std::int64_t> monthsEnsured_;  // UTC months (year * 12 + month) with a partition
    std::chrono::milliseconds backoff_{500};
    std::string state_ = "starting";
    std::string error_;
    std::int64_t sinceMs_ = 0;
    std::int64_t serverSeq_ = 0;
    std::int64_t journalSeq_ = 0;
    std::int64_t oldestUnshippedAtMs_ = 0;  // 0: none known
    std::int64_t shipped_ = 0;
    std::int64_t verifyFrom_ = 1;  // where the next comparison starts
    std::int64_t verifiedTo_ = 0;  // the last record compared
    std::int64_t nextVerifyMs_ = 0;
};

}  // namespace pitlink::ship
