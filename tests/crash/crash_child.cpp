// The crash test's child: plays rounds with bets, settlements, tickets, tips and hand-pays on a
// journal, through the real writer thread, acknowledging each committed step in an ack log. The
// driver (run_crash_test.py) kills it with SIGKILL, cuts its "power" (power-loss VFS), fills its
// disk, and checks the journal after every death.
//
//   crash_child --journal FILE (--ack-log FILE | --ack-fd N) --rounds N --seed S
//               [--power-cut-after-writes W --keep P] [--fail-writes-after W] [--segment-bytes B]
//               (--segment-bytes: the journal is rotated into segments of about B bytes, between
//               two rounds, as pitlinkd does with journal.segment_max_mb; --ack-fd: the
//               acknowledgements go to an inherited descriptor, a pipe the driver reads, which no
//               file-size limit (RLIMIT_FSIZE) binds: that limit must reach the journal first)
//   crash_child --journal FILE --recover    recovery from the last snapshots, meters as JSON on stdout
//   crash_child --journal FILE --check      integrity scan, recovery over the whole chain, full audit
#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <random>
#include <string>

#include "daemon/app/segment_carry.h"
#include "daemon/config/paytable_loader.h"
#include "daemon/game/random_source.h"
#include "daemon/game/shoe.h"
#include "daemon/game/third_card_rule.h"
#include "daemon/journal/journal_writer.h"
#include "daemon/journal/read/audit.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/recovery.h"
#include "daemon/journal/segments/segment_rotation.h"
#include "tests/support/completion_queue.h"
#include "tests/support/power_loss_vfs.h"
#include "tests/support/scenario_table.h"

namespace {

using namespace pitlink;

constexpr int kExitTilt = 3;
constexpr int kExitAuditFailed = 5;
constexpr int kExitJournalFailed = 4;
constexpr int kExitPowerCut = 42;
constexpr int kStations = 8;

// What a run does: play rounds, or recover the journal and report on it.
enum class Mode { Play, Recover, Check };

struct Options {
    std::string journal;
    std::string ackLog;
    int ackFd = -1;
    std::string paytable;
    std::int64_t rounds = 100;
    std::uint64_t seed = 1;
    std::int64_t cutAfterWrites = -1;
    double keep = 0.5;
    std::int64_t failAfterWrites = -1;
    std::int64_t segmentBytes = 0;
    Mode mode = Mode::Play;
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                throw std::invalid_argument(a + " needs a value");
            }
            return argv[++i];
        };
        if (a == "--journal")
            o.journal = next();
        else if (a == "--ack-log")
            o.ackLog = next();
        else if (a == "--ack-fd")
            o.ackFd = std::stoi(next());
        else if (a == "--paytable")
            o.paytable = next();
        else if (a == "--rounds")
            o.rounds = std::stoll(next());
        else if (a == "--seed")
            o.seed = std::stoull(next());
        else if (a == "--power-cut-after-writes")
            o.cutAfterWrites = std::stoll(next());
        else if (a == "--keep")
            o.keep = std::stod(next());
        else if (a == "--fail-writes-after")
            o.failAfterWrites = std::stoll(next());
        else if (a == "--segment-bytes")
            o.segmentBytes = std::stoll(next());
        else if (a == "--recover")
            o.mode = Mode::Recover;
        else if (a == "--check")
            o.mode = Mode::Check;
        else
            throw std::invalid_argument("unknown argument " + a);
    }
    return o;
}

std::int64_t nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// --recover: pitlinkd's start-up recovery (the chain and the meters from the second-to-last
// snapshot on, the unfinished round finished) without its integrity scan, so that its cost does
// not grow with the journal. --check: the integrity scan of every page, the chain from the first
// record, then the full audit of every record.
int check(const Options& o) {
    // As pitlinkd starts: a rotation that died half-way is finished or undone first.
    const auto tidied = journal::tidySegments(o.journal, {});
    journal::JournalStore store(o.journal, {});
    const bool full = o.mode == Mode::Check;
    const auto report = journal::recover(store, journal::RecoveryOptions{full, full}, nowMs);
    if (!report.ok()) {
        std::cout << nlohmann::json{{"ok", false}, {"tilt", *report.tilt}}.dump() << "\n";
        return kExitTilt;
    }
    nlohmann::json out;
    bool ok = true;
    if (full) {
        journal::SegmentedJournal whole(o.journal, {});
        const auto audit = journal::auditJournal(whole);
        out = journal::auditReportJson(audit);
        ok = audit.ok();
    } else {
        out = {{"ok", true},
               {"chain_from", report.chain.from},
               {"records_checked", report.chain.checked},
               {"snapshots_compared", report.snapshotsCompared},
               {"meters", report.ledger.toJson()}};
    }
    out["recovery_actions"] = report.actions;
    out["tidied"] = tidied;
    std::cout << out.dump() << "\n";
    return ok ? 0 : kExitAuditFailed;
}

int play(const Options& o) {
    const char* vfs = nullptr;
    if (o.cutAfterWrites >= 0 || o.failAfterWrites >= 0) {
        test::registerPowerLossVfs();
        vfs = test::kPowerLossVfs;
    }
    const journal::StoreOptions options{std::nullopt, vfs, false, nowMs()};
    (void)journal::tidySegments(o.journal, options);
    auto store = std::make_unique<journal::JournalStore>(o.journal, options);
    const std::int64_t segmentStart = store->firstAtMs().value_or(nowMs());
    // No integrity scan (PRAGMA quick_check reads every page): the driver runs it with its check
    // of the whole journal (--check) every few deaths and at the end.
    const auto report = journal::recover(*store, journal::RecoveryOptions{false, false}, nowMs);
    if (!report.ok()) {
        std::cerr << "crash_child: tilt: " << *report.tilt << "\n";
        return kExitTilt;
    }
    // Faults start after recovery, so that every run makes progress before it dies.
    if (o.cutAfterWrites >= 0) {
        test::PowerLoss::cutAfterWrites(o.cutAfterWrites, o.seed, o.keep);
    }
    if (o.failAfterWrites >= 0) {
        test::PowerLoss::failWritesAfter(o.failAfterWrites, SQLITE_FULL);
    }
    test::CompletionQueue completions;
    journal::JournalWriter writer(std::move(store), completions);
    if (o.segmentBytes > 0) {
        writer.setRotation(std::make_unique<journal::SegmentRotation>(o.journal, options, app::carryOver));
    }
    journal::Journal journal(writer, report.ledger, nowMs, 500);
    std::error_code sizeError;
    const auto activeBytes = std::filesystem::file_size(o.journal, sizeError);
    journal.setSegmentPolicy(journal::SegmentPolicy{0, o.segmentBytes}, segmentStart,
                             sizeError ? 0 : static_cast<std::int64_t>(activeBytes));
    const int ack = o.ackFd >= 0 ? o.ackFd : ::open(o.ackLog.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (ack < 0) {
        std::cerr << "crash_child: cannot open the ack log " << o.ackLog << ": " << std::strerror(errno) << "\n";
        return 2;
    }
    test::ScenarioTable table(journal, config::loadPaytableFile(o.paytable), report.lastRoundId.value_or(0) + 1,
                              [&] { completions.runOne(); });
    std::mt19937_64 random(o.seed);
    // Acknowledges the last step: what the station would now be told. Checked after every death.
    auto acknowledge = [&](const char* what) {
        const auto& result = table.lastCommit();
        if (!result.ok) {
            writer.stop();
            if (test::PowerLoss::powerIsOff()) {
                std::_Exit(kExitPowerCut);
            }
            std::cerr << "crash_child: tilt: " << result.error << "\n";
            std::_Exit(kExitJournalFailed);
        }
        char line[96];
        const int n = std::snprintf(line, sizeof line, "%lld %s\n", static_cast<long long>(result.seqs.lastSeq), what);
        if (const ssize_t written = ::write(ack, line, static_cast<std::size_t>(n)); written != n) {
            // Not a death of the journal: the harness lost its own record of the step. Said, so
            // that the driver does not take it for something the journal did.
            const int error = errno;
            std::cerr << "crash_child: cannot acknowledge record " << result.seqs.lastSeq << " (" << what
                      << "): " << (written < 0 ? std::strerror(error) : "short write") << "\n";
            std::_Exit(2);
        }
    };
    auto uniform = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(random);
    };

    table.record(journal::kind::kDaemonStarted, nlohmann::json{{"seed", o.seed}});
    acknowledge("daemon.started");
    // Recovery replays from the second-to-last meters snapshot. A run here dies long before
    // snapshotEvery records, so without a snapshot at each start there would be none at all, and
    // every start-up (and the driver's recovery after each death) would replay the whole journal.
    table.snapshot();
    acknowledge("snapshot");
    table.loadPaytable();
    acknowledge("paytable");
    game::SeededRandom shoeRandom(o.seed);
    std::int64_t shoeNumber = static_cast<std::int64_t>(o.seed % 100000) * 1000;
    auto shoe = std::make_unique<game::Shoe>(game::ShoeConfig{}, shoeRandom, static_cast<std::uint32_t>(shoeNumber));
    table.startShoe(shoeNumber);
    acknowledge("shoe");

    auto roundsDone = [&] {
        const auto& own = journal.committed().tableOwn();
        return own[journal::Meter::RoundsSettled] + own[journal::Meter::RoundsVoided];
    };
    while (roundsDone() < o.rounds) {
        for (std::int64_t station = 1; station <= kStations; ++station) {
            if (journal.projected().credits(station) < 2000) {
                char validation[40];
                std::snprintf(validation, sizeof validation, "%016llx%02lld", static_cast<unsigned long long>(random()),
                              static_cast<long long>(station));
                table.ticketIn(station, uniform(2000, 20000), validation);
                acknowledge("ticket_in");
            }
        }
        journal.rotateIfDue();  // between two rounds, as the table does
        table.openRound();
        acknowledge("round.opened");
        const auto bets = uniform(0, 5);
        for (std::int64_t b = 0; b < bets; ++b) {
            const std::int64_t station = uniform(1, kStations);
            const auto spot = static_cast<game::BetType>(uniform(0, 5));
            const game::Money stake = std::min<game::Money>(uniform(1, 40) * 25, journal.projected().credits(station));
            if (stake <= 0 || !table.paytable().offers(spot)) {
                continue;
            }
            const auto index = table.bet(station, spot, stake);
            acknowledge("bet");
            if (uniform(0, 19) == 0) {
                table.withdraw(index);
                acknowledge("withdraw");
            }
        }
        table.close();
        acknowledge("round.closed");
        if (shoe->cutCardOut()) {
            shoe =
                std::make_unique<game::Shoe>(game::ShoeConfig{}, shoeRandom, static_cast<std::uint32_t>(++shoeNumber));
        }
        if (uniform(0, 29) == 0) {
            table.voidRound("misdeal");
            acknowledge("round.voided");
            continue;
        }
        const game::Coup coup = game::dealCoup([&] { return shoe->draw(); });
        for (int i = 0; i < coup.cardCount(); ++i) {
            // Deal order: P1 B1 P2 B2, then Player's third, then Banker's third.
            const game::Card card = i < 4 ? (i % 2 == 0 ? coup.player[i / 2] : coup.banker[i / 2])
                                          : (i == 4 && coup.player.size() == 3 ? coup.player[2] : coup.banker[2]);
            table.deal(card);
            acknowledge("card");
        }
        table.settle();
        acknowledge("round.settled");
        const std::int64_t station = uniform(1, kStations);
        const game::Money credits = journal.projected().credits(station);
        switch (uniform(0, 9)) {
            case 0:
                if (credits > 0) {
                    table.tip(station, std::min<game::Money>(credits, 100));
                    acknowledge("tip");
                }
                break;
            case 1:
                if (credits > 0) {
                    table.ticketOut(station, credits, std::to_string(random()));
                    acknowledge("ticket_out");
                }
                break;
            case 2:
                if (credits > 0) {
                    table.handpay(station, credits);
                    acknowledge("handpay");
                }
                break;
            default:
                break;
        }
    }
    table.snapshot();
    acknowledge("snapshot");
    writer.stop();
    if (o.ackFd < 0) {
        ::close(ack);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const Options options = parse(argc, argv);
        return options.mode == Mode::Play ? play(options) : check(options);
    } catch (const std::exception& error) {
        std::cerr << "crash_child: " << error.what() << "\n";
        return 2;
    }
}
