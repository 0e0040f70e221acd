#pragma once
// A scripted table for tests, the crash child and benchmarks: opens rounds, takes bets, deals and
// settles through the journal API exactly as the daemon's table does, each step one transaction.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/game/card.h"
#include "daemon/game/paytable.h"
#include "daemon/game/round_settlement.h"
#include "daemon/journal/journal.h"
#include "daemon/journal/ledger/credit_types.h"
#include "daemon/journal/read/round_history.h"
#include "daemon/journal/records/aft_records.h"
#include "daemon/journal/store_sink.h"

namespace pitlink::test {

class ScenarioTable {
public:
    // `waitForCommit` runs until the last submitted transaction has committed (a writer thread's
    // completions must be run); StoreSink commits inline and needs nothing.
    ScenarioTable(journal::Journal& journal, game::Paytable paytable, std::int64_t nextRoundId = 1,
                  std::function<void()> waitForCommit = {});

    // A one-record transaction about the table (daemon.started, door.opened...).
    void record(std::string_view kind, nlohmann::json body);
    void loadPaytable();
    void startShoe(std::int64_t shoe);
    // Opened under `rule` (the daemon's: by spot; PerBet writes a round as versions before it did).
    std::int64_t openRound(game::SettleRule rule = game::SettleRule::PerSpot);
    std::int64_t bet(std::int64_t station, game::BetType spot, game::Money stake);
    void withdraw(std::int64_t betIndex);
    void close();
    void deal(game::Card card);
    void settle();
    void voidRound(const std::string& why);
    void ticketIn(std::int64_t station, game::Money amount, const std::string& validation);
    // A ticket printed takes the station's non-restricted promotional credits first, as cashable
    // (Table::issueTicket): `amount` is at most its cashable and non-restricted credits.
    void ticketOut(std::int64_t station, game::Money amount, const std::string& validation);
    void tip(std::int64_t station, game::Money amount);
    void handpay(std::int64_t station, game::Money amount);
    void snapshot();
    // SAS AFT as the SAS floor journals it (daemon/sas/station_aft.cpp): a transfer's record in a
    // transaction of its own (pending, a refusal found at once, the 9F of one a restart found
    // pending), the host's acknowledgement of the station's current transfer...
    void aftRecord(std::int64_t station, const journal::AftTransferRecord& record);
    void aftAcknowledged(std::int64_t station, const std::string& id);
    // ...and a transfer's end in the transaction that moves its credits (Table::aftTransfer):
    // `amount` (signed; 0: nothing moved, no credit) of `parts` for `reason`, ref "aft ID".
    void aftTransfer(std::int64_t station, const journal::AftTransferRecord& record, game::Money amount,
                     journal::PromoParts parts, std::string_view reason);
    // Restricted credits at their expiry (Table::expireRestricted): `amount` of the station's
    // restricted credits not staked leave as a credit with reason restricted_expired.
    void expireRestricted(std::int64_t station, game::Money amount, const std::string& ref);

    [[nodiscard]] std::int64_t roundId() const { return roundId_; }
    [[nodiscard]] const std::string& paytableSha() const { return sha_; }
    [[nodiscard]] const game::Paytable& paytable() const { return paytable_; }
    // Result of the last commit (tests of failure).
    [[nodiscard]] const journal::CommitResult& lastCommit() const { return last_; }

private:
    void submit(journal::JournalTransaction tx);

    journal::Journal& journal_;
    game::Paytable paytable_;
    std::string sha_;
    std::function<void()> wait_;
    std::int64_t nextRoundId_;
    std::int64_t roundId_ = 0;
    std::int64_t shoe_ = 0;
    std::int64_t roundInShoe_ = 0;
    std::int64_t nextBet_ = 1;
    game::SettleRule rule_ = game::SettleRule::PerSpot;
    std::vector<journal::RoundBet> bets_;
    std::vector<journal::DealtCard> cards_;
    journal::CommitResult last_;
    bool pending_ = false;
};

}  // namespace pitlink::test
