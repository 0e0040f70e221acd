#pragma once
// The deterministic simulation tier (docs/design.md rule 7; in the spirit of FoundationDB's
// simulation, TigerBeetle's VOPR and chrony's simulation tests): the whole daemon (app::Daemon:
// journal on a real SQLite file through the power-loss VFS, writer, table, Modbus table I/O,
// engine requests, control commands) in one process on a simulated clock and executor, driven
// by a seeded workload with faults:
// - a dealer connection writing pipelined bursts: legal coups from its own one-deck shoe, with
//   cards too many, impossible cards, unreadable cards and voids racing the last card;
// - station connections writing bursts of every station op at random moments;
// - an operator on the control commands (void, attendant clear, hand-pay reset, new shoe,
//   re-settlement) and dealer buttons pressed on the Modbus module;
// - an accounting host on the SAS links of three or six stations (sim_accounting_host.h): it
//   validates cash-outs (57, LP 57/58, or lets them time out), redeems tickets the players insert
//   (67, LP 70/71, 68) from its own ticket database, reads printed tickets (3D, LP 4D) and
//   hand-pays (51, LP 1B), races the operator's hand-pay resets with LP 94, sets the clock
//   (LP 7F), repeats polls and breaks CRCs; at checkpoints it reads LP 1A and LP 2F meters,
//   compared with the journal's own sums, and its ticket database is reconciled with the journal;
// - commits completing after random latencies, in batches; disks filling up; the process killed
//   or its power cut at random points, then recovery and the workload going on.
// Every reply is checked as it arrives (exactly once, in order per connection); the journal is
// checked by the simulation's own code (journal_checker.h) at checkpoints, before and after every
// crash and at the end. One seed reproduces one run exactly.
#include <cstdint>
#include <filesystem>
#include <string>

namespace pitlink::sim {

struct SimOptions {
    std::uint64_t seed = 1;
    std::int64_t requests = 5'000;  // engine and control requests to send
    bool faults = true;             // crashes, power cuts, full disks
    bool verbose = false;
    std::filesystem::path dir;      // where the journal file goes (tmpfs, for speed)
    std::int64_t checkEvery = 400;  // steps between journal checkpoints
};

struct SimResult {
    bool ok = true;
    std::string failure;  // what broke, with the step
    std::int64_t step = 0;
    std::int64_t requests = 0;
    std::int64_t replies = 0;
    std::int64_t refused = 0;
    std::int64_t crashes = 0;  // kills and power cuts
    std::int64_t diskFull = 0;
    std::int64_t sasPolls = 0;           // long polls of the simulated accounting host
    std::int64_t meterChecks = 0;        // SAS meters (LP 1A, LP 2F) compared with the journal's own sums
    std::int64_t hostExceptions = 0;     // exceptions the host read and acted on
    std::int64_t cashoutsValidated = 0;  // LP 58 numbers taken
    std::int64_t gamesSelected = 0;      // 8C read (LP 55 after it)
    std::int64_t gameReads = 0;          // one game's (LP 52) or one denomination's (B0 2F) meters checked
    std::int64_t ticketsRedeemed = 0;    // LP 71 final status 00
    std::int64_t clockSets = 0;          // LP 7F taken (and read back with LP 7E)
    std::int64_t resends = 0;            // implied NACKs answered with the same bytes
    std::int64_t hostDelayRefusals = 0;  // bets refused under the host's LP 2E game delay
    std::int64_t rotations = 0;          // journal segments sealed and the next one begun
    std::int64_t rotationsCut = 0;       // rotations a power cut ended half-way
    // Restarts of the table in the middle of a reader shoe that it resumed (issue 33), compared
    // card for card, round for round and result for result with the checker's own shoe; of them,
    // those whose shoe started in a segment before the active one (carried over by a rotation).
    std::int64_t shoesResumed = 0;
    std::int64_t shoesResumedAcrossRotation = 0;
    std::int64_t shoeChecks = 0;  // checkpoints that compared the table's shoe with the checker's
    // Several games (issue 34): rounds and accepted bets in games other than the first, stations'
    // joins and leaves journaled, leaves refused while the station had bets in the game, and
    // openings a due rotation held until no game was in a round.
    std::int64_t otherGameRounds = 0;
    std::int64_t otherGameBets = 0;
    std::int64_t gameChanges = 0;
    std::int64_t leavesRefused = 0;
    std::int64_t openingsHeld = 0;
    // Game protection (issue 38), by the checker: shoe.edge records checked (of them closing a side
    // bet), bets taken on a side bet under `close`, refused closed, refused waiting for the edge
    // (the race of the bets with the worker's edge), stations reported.
    std::int64_t edges = 0;
    std::int64_t edgeClosures = 0;
    std::int64_t guardedBets = 0;
    std::int64_t closedRefusals = 0;
    std::int64_t pendingRefusals = 0;
    std::int64_t counterAlerts = 0;
    // Cashless transfers (issue 36): successful (of them partial), refused, cut by a restart (9F),
    // requests answered by their status when repeated, requests sent again after no answer (their
    // record not yet durable), cash-outs to the host under a lock, history positions read, bets
    // and cash-outs refused under an AFT lock.
    std::int64_t aftTransfers = 0;
    std::int64_t aftPartial = 0;
    std::int64_t aftRefused = 0;
    std::int64_t aftCutByRestart = 0;
    std::int64_t aftRepeatsAnswered = 0;
    std::int64_t aftUnanswered = 0;
    std::int64_t aftLockedCashouts = 0;
    std::int64_t aftHistoryReads = 0;
    std::int64_t aftRegistrations = 0;            // LP 73 changes (register, unregister)
    std::int64_t aftRegistrationsUnanswered = 0;  // LP 73 changes sent again before they were durable
    std::int64_t aftAssetsSet = 0;                // LP B7: new asset numbers answered before a registration
    std::int64_t aftLockRefusals = 0;
    std::int64_t legacyBonuses = 0;             // LP 8A awards taken
    std::int64_t aftBonusJackpotsHandpaid = 0;  // LP 72 type 11 at the jackpot limit: hand-paid
    std::int64_t aftCrashes = 0;                // power cuts just after the host read 40
    std::int64_t registrationCrashes = 0;       // power cuts just after an LP 73 change or B7 was answered
    std::int64_t aftHostCashoutsTaken = 0;      // 6A answered by a transfer to the host
    // Hard host cash-outs raced by a re-settlement of the station's last rounds and a bet before
    // the host took them; of them, those with nothing left to take (the station ends the offer).
    std::int64_t aftHardOffersRaced = 0;
    std::int64_t aftHardOffersEmpty = 0;
    std::int64_t aftHostCashoutReplies = 0;  // cash_out answered `to_host`
    std::int64_t roundsSettled = 0;
    std::int64_t roundsVoided = 0;
    std::int64_t records = 0;
    std::int64_t simulatedMs = 0;
};

SimResult runSimulation(const SimOptions& options);

}  // namespace pitlink::sim
