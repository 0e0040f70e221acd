// pitlink_sim: runs the deterministic simulation tier (simulation.h) over a range of seeds.
//   pitlink_sim --seed 1 --seeds 20 --requests 5000      20 runs, seeds 1..20
//   pitlink_sim --seed 1234 --requests 5000 --verbose     one run again, exactly, with the daemon's log
//   pitlink_sim --soak 100000000                          the long soak: seeds until 10^8 requests
// A failure prints its seed and step; the same command with that seed reproduces it exactly.
// Exit 0 when every run holds, 1 otherwise.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>

#include "tests/sim/journal_checker.h"
#include "tests/sim/simulation.h"

namespace {

std::filesystem::path workDir() {
    // tmpfs when there is one: the journal's fsyncs are then memory operations.
    const std::filesystem::path shm = "/dev/shm";
    const std::filesystem::path base =
        std::filesystem::is_directory(shm) ? shm : std::filesystem::temp_directory_path();
    return base / ("pitlink-sim-" + std::to_string(::getpid()));
}

}  // namespace

int main(int argc, char** argv) {
    pitlink::sim::SimOptions options;
    std::uint64_t seeds = 1;
    std::int64_t soak = 0;
    std::filesystem::path keep;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const bool value = i + 1 < argc;
        if (arg == "--seed" && value) {
            options.seed = std::stoull(argv[++i]);
        } else if (arg == "--seeds" && value) {
            seeds = std::stoull(argv[++i]);
        } else if (arg == "--requests" && value) {
            options.requests = std::stoll(argv[++i]);
        } else if (arg == "--soak" && value) {
            soak = std::stoll(argv[++i]);
        } else if (arg == "--check" && value) {
            // The checker alone, on a journal kept by an earlier run (--dir): its problems, if any.
            const pitlink::sim::CheckReport report = pitlink::sim::checkJournal(argv[++i], nullptr);
            for (const std::string& problem : report.problems) {
                std::cout << "problem: " << problem << "\n";
            }
            std::cout << report.records << " records, " << report.rounds << " rounds, " << report.problems.size()
                      << " problems\n";
            return report.ok() ? EXIT_SUCCESS : EXIT_FAILURE;
        } else if (arg == "--dir" && value) {
            keep = argv[++i];  // the journal stays there after the run, to be read with sqlite3
        } else if (arg == "--no-faults") {
            options.faults = false;
        } else if (arg == "--verbose") {
            options.verbose = true;
        } else {
            std::cerr << "usage: pitlink_sim [--seed S] [--seeds N] [--requests R] [--soak TOTAL] [--no-faults] "
                         "[--verbose] [--dir D]\n       pitlink_sim --check JOURNAL\n";
            return 2;
        }
    }
    options.dir = keep.empty() ? workDir() : keep;
    const auto start = std::chrono::steady_clock::now();
    std::int64_t requests = 0;
    std::int64_t crashes = 0;
    std::int64_t rounds = 0;
    std::int64_t simulatedMs = 0;
    std::int64_t hostExceptions = 0;
    std::int64_t gamesSelected = 0;
    std::int64_t gameReads = 0;
    std::int64_t cashouts = 0;
    std::int64_t tickets = 0;
    std::int64_t meterChecks = 0;
    std::int64_t hostDelayRefusals = 0;
    std::int64_t rotations = 0;
    std::int64_t rotationsCut = 0;
    std::int64_t shoesResumed = 0;
    std::int64_t shoesAcross = 0;
    std::int64_t otherGameRounds = 0;
    std::int64_t otherGameBets = 0;
    std::int64_t gameChanges = 0;
    std::int64_t leavesRefused = 0;
    std::int64_t openingsHeld = 0;
    std::int64_t edges = 0;
    std::int64_t edgeClosures = 0;
    std::int64_t guardedBets = 0;
    std::int64_t closedRefusals = 0;
    std::int64_t pendingRefusals = 0;
    std::int64_t counterAlerts = 0;
    std::int64_t aftTransfers = 0;
    std::int64_t aftPartial = 0;
    std::int64_t aftRefused = 0;
    std::int64_t aftCut = 0;
    std::int64_t aftCrashes = 0;
    std::int64_t aftRepeats = 0;
    std::int64_t aftUnanswered = 0;
    std::int64_t aftLockedCashouts = 0;
    std::int64_t aftHistory = 0;
    std::int64_t aftRegistrations = 0;
    std::int64_t aftRegistrationsUnanswered = 0;
    std::int64_t aftAssetsSet = 0;
    std::int64_t registrationCrashes = 0;
    std::int64_t aftLockRefusals = 0;
    std::int64_t aftHostCashouts = 0;
    std::int64_t hardOffersRaced = 0;
    std::int64_t hardOffersEmpty = 0;
    std::int64_t aftBonusJackpotsHandpaid = 0;
    std::int64_t legacyBonuses = 0;
    int failed = 0;
    std::uint64_t runs = 0;
    for (std::uint64_t n = 0; soak > 0 ? requests < soak : n < seeds; ++n, ++options.seed) {
        const pitlink::sim::SimResult r = pitlink::sim::runSimulation(options);
        ++runs;
        requests += r.requests;
        crashes += r.crashes;
        rounds += r.roundsSettled + r.roundsVoided;
        simulatedMs += r.simulatedMs;
        hostExceptions += r.hostExceptions;
        gamesSelected += r.gamesSelected;
        gameReads += r.gameReads;
        cashouts += r.cashoutsValidated;
        tickets += r.ticketsRedeemed;
        meterChecks += r.meterChecks;
        hostDelayRefusals += r.hostDelayRefusals;
        rotations += r.rotations;
        rotationsCut += r.rotationsCut;
        shoesResumed += r.shoesResumed;
        shoesAcross += r.shoesResumedAcrossRotation;
        otherGameRounds += r.otherGameRounds;
        otherGameBets += r.otherGameBets;
        gameChanges += r.gameChanges;
        leavesRefused += r.leavesRefused;
        openingsHeld += r.openingsHeld;
        edges += r.edges;
        edgeClosures += r.edgeClosures;
        guardedBets += r.guardedBets;
        closedRefusals += r.closedRefusals;
        pendingRefusals += r.pendingRefusals;
        counterAlerts += r.counterAlerts;
        aftTransfers += r.aftTransfers;
        aftPartial += r.aftPartial;
        aftRefused += r.aftRefused;
        aftCut += r.aftCutByRestart;
        aftCrashes += r.aftCrashes;
        aftRepeats += r.aftRepeatsAnswered;
        aftUnanswered += r.aftUnanswered;
        aftLockedCashouts += r.aftLockedCashouts;
        aftHistory += r.aftHistoryReads;
        aftRegistrations += r.aftRegistrations;
        aftRegistrationsUnanswered += r.aftRegistrationsUnanswered;
        aftAssetsSet += r.aftAssetsSet;
        registrationCrashes += r.registrationCrashes;
        aftLockRefusals += r.aftLockRefusals;
        aftHostCashouts += r.aftHostCashoutReplies;
        hardOffersRaced += r.aftHardOffersRaced;
        hardOffersEmpty += r.aftHardOffersEmpty;
        aftBonusJackpotsHandpaid += r.aftBonusJackpotsHandpaid;
        legacyBonuses += r.legacyBonuses;
        if (!r.ok) {
            ++failed;
            std::cout << "FAIL " << r.failure << "\n  reproduce: pitlink_sim --seed " << options.seed << " --requests "
                      << options.requests << (options.faults ? "" : " --no-faults") << " --verbose\n";
        } else if (options.verbose || seeds <= 3) {
            std::cout << "seed " << options.seed << ": " << r.requests << " requests, " << r.refused << " refused, "
                      << r.crashes << " crashes, " << r.diskFull << " full disks, " << r.roundsSettled
                      << " rounds settled, " << r.roundsVoided << " voided, " << r.records << " records, " << r.sasPolls
                      << " SAS long polls (" << r.meterChecks << " meter reads checked), host: " << r.hostExceptions
                      << " exceptions, " << r.cashoutsValidated << " cash-outs validated, " << r.ticketsRedeemed
                      << " tickets redeemed, " << r.clockSets << " clock sets, " << r.resends << " resends, "
                      << r.hostDelayRefusals << " bets refused under a host delay, " << r.rotations
                      << " journal segments begun (" << r.rotationsCut << " rotations cut), " << r.shoesResumed
                      << " shoes resumed (" << r.shoesResumedAcrossRotation << " across a rotation; " << r.shoeChecks
                      << " shoe checks); games: " << r.otherGameRounds << " rounds and " << r.otherGameBets
                      << " bets in the RNG games, " << r.gameChanges << " joins and leaves (" << r.leavesRefused
                      << " leaves refused: bets on the table), " << r.openingsHeld << " openings held for a rotation; "
                      << "AFT: " << r.aftTransfers << " transfers (" << r.aftPartial << " partial), " << r.aftRefused
                      << " refused, " << r.aftCutByRestart << " cut by a restart, " << r.aftRepeatsAnswered
                      << " repeats answered, " << r.aftUnanswered << " requests not answered yet, "
                      << r.aftLockedCashouts << " locked cash-outs, " << r.aftLockRefusals << " station ops locked; "
                      << r.simulatedMs / 1000 << " s simulated\n";
        }
    }
    if (keep.empty()) {
        std::filesystem::remove_all(options.dir);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << runs << " runs, " << failed << " failed: " << requests << " requests, " << rounds << " rounds, "
              << crashes << " crashes, host: " << hostExceptions << " exceptions, " << cashouts
              << " cash-outs validated, " << tickets << " tickets redeemed, " << meterChecks << " meter reads checked, "
              << hostDelayRefusals << " bets refused under a host delay, " << rotations << " journal segments begun ("
              << rotationsCut << " rotations cut by a power cut), " << shoesResumed << " shoes resumed mid-shoe ("
              << shoesAcross << " across a rotation); games: " << otherGameRounds << " rounds and " << otherGameBets
              << " bets in the RNG games, " << gameChanges << " joins and leaves (" << leavesRefused
              << " leaves refused), " << openingsHeld << " openings held for a rotation; protection: " << edges
              << " side-bet edges checked (" << edgeClosures << " closing a bet), " << guardedBets
              << " bets taken on a guarded side bet, " << closedRefusals << " refused closed, " << pendingRefusals
              << " refused waiting for the edge, " << counterAlerts
              << " stations reported; SAS games: " << gamesSelected << " 8C read with LP 55, " << gameReads
              << " game and denomination meter reads reconciled; AFT: " << aftTransfers << " transfers (" << aftPartial
              << " partial), " << aftRefused << " refused, " << aftCut << " cut by a restart (9F) of " << aftCrashes
              << " power cuts with one pending, " << aftRepeats << " repeated requests answered by their status, "
              << aftUnanswered << " requests sent again unanswered (not durable yet), " << aftLockedCashouts
              << " cash-outs to the host under a lock, " << aftHistory << " history reads, " << aftRegistrations
              << " registration changes (" << aftAssetsSet << " after a new asset number, LP B7; "
              << aftRegistrationsUnanswered << " sent again before durable, " << registrationCrashes
              << " power cuts just after one was answered), " << aftLockRefusals
              << " station ops refused under a lock, " << aftHostCashouts << " cash-outs taken by the host, "
              << hardOffersRaced << " hard host cash-outs raced by a re-settlement (" << hardOffersEmpty
              << " left with nothing to take), " << legacyBonuses << " legacy bonuses (LP 8A) taken, "
              << aftBonusJackpotsHandpaid << " bonus jackpots hand-paid; " << simulatedMs / 1000 << " s simulated in "
              << seconds << " s (" << static_cast<std::int64_t>(static_cast<double>(requests) / seconds)
              << " simulated requests/s)\n";
    // The racing cases must have happened, not only passed: ten seeds with faults always race
    // some bets against the host's game delays.
    if (runs >= 10 && options.faults && hostDelayRefusals == 0) {
        std::cout << "FAIL no bet was ever refused under a host game delay (LP 2E): the workload lost that race\n";
        return EXIT_FAILURE;
    }
    if (runs >= 10 && options.faults && (rotations == 0 || rotationsCut == 0)) {
        std::cout << "FAIL the journal was never rotated, or no rotation was ever cut: the workload lost that case\n";
        return EXIT_FAILURE;
    }
    if (runs >= 10 && options.faults && (shoesResumed == 0 || shoesAcross == 0)) {
        std::cout
            << "FAIL no restart resumed a shoe mid-shoe, or none across a rotation: the workload lost that case\n";
        return EXIT_FAILURE;
    }
    if (runs >= 10 && options.faults && (otherGameBets == 0 || gameChanges == 0 || leavesRefused == 0)) {
        std::cout << "FAIL no bet in a second game, no join or leave, or no leave raced a bet: the workload lost "
                     "the multi-game cases\n";
        return EXIT_FAILURE;
    }
    if (runs >= 10 && options.faults &&
        (edgeClosures == 0 || guardedBets == 0 || closedRefusals == 0 || pendingRefusals == 0)) {
        std::cout << "FAIL no side bet was closed, taken under its rule, refused closed or refused waiting for its "
                     "edge: the workload lost the protection cases\n";
        return EXIT_FAILURE;
    }
    if (runs >= 10 && options.faults && (gamesSelected == 0 || gameReads == 0)) {
        std::cout << "FAIL no 8C was ever read, or no game's meters: the workload lost the SAS games\n";
        return EXIT_FAILURE;
    }
    if (runs >= 10 && options.faults &&
        (aftTransfers == 0 || aftPartial == 0 || aftRefused == 0 || aftRepeats == 0 || aftUnanswered == 0 ||
         aftLockedCashouts == 0 || aftLockRefusals == 0 || aftCut == 0 || aftHostCashouts == 0 || legacyBonuses == 0 ||
         aftBonusJackpotsHandpaid == 0 || aftRegistrationsUnanswered == 0 || registrationCrashes == 0 ||
         aftAssetsSet == 0 || hardOffersRaced == 0)) {
        std::cout << "FAIL the AFT workload lost a case: no transfer, partial, refusal, repeat answered, request "
                     "unanswered while committing, cash-out under a lock, station op refused under a lock, "
                     "transfer cut by a power cut (9F), cash-out taken by the host, legacy bonus or bonus jackpot "
                     "hand-paid, LP 73 change (or LP B7 before one) repeated while committing or cut by the power just "
                     "after its answer, or hard "
                     "host cash-out raced by a re-settlement\n";
        return EXIT_FAILURE;
    }
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
