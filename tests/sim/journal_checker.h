#pragma once
// The simulation tier's own reading of the journal (schema/README.md), sharing nothing with the
// daemon but the file: its own SQL through the sqlite3 C API, its own baccarat rules and its own
// sums over the standard paytable's ratios. What a gaming inspector would reconcile:
// - every round ends at most once (exactly once unless it is the one in progress), and a settled
//   round is never voided;
// - every accepted bet is settled, withdrawn or returned by a void exactly once;
// - a hand-pay is reset (paid) once per lock; no ticket is redeemed twice;
// - each station's credit records chain (balance = previous + amount) and never go below zero;
// - each settled bet returned what the round's journaled cards say (own evaluation), and each
//   re-settled round's credits come to what its last corrected cards say;
// - every card dealt or burned was still in the shoe by the checker's own count, every card refused
//   as not left was not, and each round of a shoe is the one after the last, across restarts (the
//   shoe goes on: issue 33);
// - no round opens while a player's dispute is open, a dispute is resolved once, and a reserved
//   station has no bet, ticket, cash-out or tip journaled until it is released;
// - money is conserved per station: tickets in - tickets out - hand-pays - tips - stakes + what
//   the bets returned (withdrawn, voided, settled, re-settled) + cashless transfers in and bonuses
//   - transfers out = the credits held;
// - credit types and transfers by their own rules (checker_credit_types.h).
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tests/sim/checker_baccarat.h"
#include "tests/sim/checker_credit_types.h"
#include "tests/sim/checker_files.h"
#include "tests/sim/checker_protection.h"

struct sqlite3;

namespace pitlink::sim {

// A station's SAS meters as the schema's table of credit reasons defines them (schema/README.md),
// summed by the checker: settlement -> coin in (its `wagered`), coin out, games played / won /
// lost; ticket_in / ticket_out; handpay -> hand-paid cancelled credits; both -> cancelled credits.
struct StationMeters {
    std::int64_t credits = 0;
    std::int64_t coinIn = 0;
    std::int64_t coinOut = 0;
    std::int64_t jackpots = 0;
    std::int64_t handpaid = 0;
    std::int64_t cancelled = 0;
    std::int64_t gamesPlayed = 0;
    std::int64_t gamesWon = 0;
    std::int64_t gamesLost = 0;
    std::int64_t ticketIn = 0;
    std::int64_t ticketOut = 0;
    // What SAS reads besides (protocols/sas/README.md "Meters"), from the bets and credit records:
    std::int64_t inPlay = 0;             // stakes of bets accepted and not yet settled, withdrawn or voided
    std::int64_t settledPaid = 0;        // every settlement credit
    std::int64_t keyedOn = 0;            // credits re-settlements added
    std::int64_t keyedOff = 0;           // tips, and credits re-settlements took back
    std::int64_t legacyBonus = 0;        // LP 8A awards (LP 9A, credits)
    std::int64_t bonusHandpaid = 0;      // AFT bonus jackpots hand-paid (0021)
    std::int64_t restrictedExpired = 0;  // restricted credits gone at their expiry (00FE)
    // The play of each game at each denomination, from the settlement and jackpot credits' `game`
    // (none: the first game) and `denomination` (none: the accounting one, 1 here):
    // {coin in, coin out as SAS counts it (jackpots hand-paid), jackpots, games played}.
    std::map<std::pair<std::string, std::int64_t>, std::array<std::int64_t, 4>> plays;
};

struct TicketRecord {
    std::int64_t station = 0;
    std::string validation;
    std::int64_t amount = 0;
    bool host = false;  // redeemed through the accounting host
};

// A reader's shoe in play as the checker follows it, from its own reading of shoe.started,
// shoe.cut, shoe.burned, round.opened, card.dealt and round.settled (schema/README.md): what a
// start-up must resume (the shoe, its round count, each card left, the results on its roads).
struct CheckedShoe {
    std::int64_t shoe = 0;
    std::int64_t startedSeq = 0;  // its shoe.started
    std::int64_t roundInShoe = 0;
    std::map<std::string, int> left;   // card name ("AS") -> how many the shoe still holds
    std::vector<std::string> results;  // each settled round: winner letter, then "p"/"b" for the pairs
    [[nodiscard]] int total() const;
};

struct CheckReport {
    std::vector<std::string> problems;  // empty: every invariant holds
    std::int64_t records = 0;
    std::int64_t rounds = 0;
    std::int64_t settledRounds = 0;
    std::int64_t voidedRounds = 0;
    std::int64_t bets = 0;
    std::map<std::int64_t, std::int64_t> credits;  // station -> credits held, by the checker's own sums
    std::map<std::int64_t, StationMeters> meters;
    std::vector<TicketRecord> ticketsIn;               // ticket.redeemed
    std::vector<TicketRecord> ticketsOut;              // ticket.issued
    std::optional<CheckedShoe> shoe;                   // the first game's; none: the last shoe ended, or none started
    std::map<std::string, std::int64_t> roundsByGame;  // rounds opened per game (several games)
    std::int64_t otherGameBets = 0;                    // bets accepted in a game other than the first
    std::int64_t gameChanges = 0;                      // station.games: joins and leaves
    std::map<std::int64_t, StationCreditTypes> creditTypes;  // issue 36: promotional credits, AFT meters
    std::map<std::string, CheckedTransfer> transfers;        // aft.transfer by the host's transaction ID
    ProtectionCounts protection;                             // issue 38: edges, closures, refusals
    [[nodiscard]] bool ok() const { return problems.empty(); }
};

// The checker of one journal across the checks of a run. It keeps what it read (CheckerCache:
// sealed segments are not read again while unchanged) and what it learned from the records, and
// feeds a check only the records added since the last one; when a record it fed changed or went
// it starts from scratch. Every check reports on the whole journal. `vfs`: the SQLite VFS to open
// the files with (the simulation's power-loss VFS), or null. The last round opened may lack its
// ending (it is in progress, or its ending is still committing).
class JournalChecker {
public:
    JournalChecker();
    ~JournalChecker();
    JournalChecker(const JournalChecker&) = delete;
    JournalChecker& operator=(const JournalChecker&) = delete;

    [[nodiscard]] CheckReport check(const std::string& path, const char* vfs);
    // The hash stored for record `seq` as the last check read it; empty when it had none.
    [[nodiscard]] std::string hashAtLastCheck(std::int64_t seq) const;
    // Closes the files before they go (a crash: the power-loss VFS is reset under them).
    void close();

private:
    struct State;
    CheckerCache files_;
    std::unique_ptr<State> state_;
    std::vector<std::shared_ptr<const std::vector<CheckerRow>>> lastRead_;  // each file's records
};

// One check from scratch, keeping nothing.
[[nodiscard]] CheckReport checkJournal(const std::string& path, const char* vfs);

}  // namespace pitlink::sim
