// The crash test's child: plays rounds with bets, settlements, tickets, tips, hand-pays and
// cashless transfers (SAS AFT: in, bonuses, out, some promotional) on a journal, through the real
// writer thread, acknowledging each committed step in an ack log. The driver (run_crash_test.py)
// kills it with SIGKILL, cuts its "power" (power-loss VFS), fills its disk, and checks the journal
// after every death.
//
//   crash_child --journal FILE (--ack-log FILE | --ack-fd N) --rounds N --seed S
//               [--power-cut-after-writes W --keep P] [--fail-writes-after W] [--segment-bytes B]
//               [--kill-after-pending K]
//               (--segment-bytes: the journal is rotated into segments of about B bytes, between
//               two rounds, as pitlinkd does with journal.segment_max_mb; --ack-fd: the
//               acknowledgements go to an inherited descriptor, a pipe the driver reads, which no
//               file-size limit (RLIMIT_FSIZE) binds: that limit must reach the journal first;
//               --kill-after-pending: SIGKILL of its own once its Kth transfer is acknowledged
//               pending, before it is carried out: the death a timed kill rarely meets)
//   crash_child --journal FILE --recover    recovery from the last snapshots, meters as JSON on stdout
//   crash_child --journal FILE --check      integrity scan, recovery over the whole chain, full audit
#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
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
#include "daemon/sas/sas_resume.h"
#include "daemon/sas/station_aft.h"
#include "daemon/sas/table_clock.h"
#include "protocols/sas/aft_rules.h"
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
// Stations 1-3 are linked to a SAS AFT host (a segment carries each one's transfer history, up to
// 127 transfers, so all eight would fill the 150 kB segments of the driver with it).
constexpr std::int64_t kAftStations = 3;
constexpr std::uint32_t kAssetBase = 7000;            // station n's asset number (LP 7B): 7000 + n
constexpr std::uint64_t kTransferLimitCents = 30000;  // aft.transfer_limit: a larger one moves in part or not

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
    std::int64_t killAfterPending = 0;
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
        else if (a == "--kill-after-pending")
            o.killAfterPending = std::stoll(next());
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
        // The segments read beside each other must report the same as one pass, crash or not.
        journal::SegmentedJournal again(o.journal, {});
        if (const nlohmann::json beside = journal::auditReportJson(journal::auditJournal(again, 2)); beside != out) {
            ok = false;
            out["audit_beside_differs"] = beside;
        }
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

namespace aft = sas::aft;

bool succeeded(std::uint8_t status) {
    return status == aft::status::kFullTransfer || status == aft::status::kPartialTransfer;
}

// Cashless transfers of the stations linked to a SAS AFT host, decided and journaled as
// StationAft decides and journals them (daemon/sas/station_aft.cpp): a request is checked
// (aft::refusalOf) and journaled in a transaction of its own, as its end when refused at once,
// else pending (40); once that has committed it is checked again and ends (aft::amountsMoved) in
// the transaction that moves its credits (Table::aftTransfer: credit transfer_in, bonus or
// transfer_out, ref "aft ID"). The host acknowledges a station's current transfer (interrogated,
// then polled on: aft.acknowledged) before its next request there, as StationAft refuses a request
// while one is unacknowledged, unjournaled. A transfer the journal leaves pending ends at the next
// start as 9F, nothing moved (StationAft::start), read from the state the daemon resumes
// (sas::resumeSas). Every step is acknowledged as it commits: aft.pending, aft.transfer (an end,
// a refusal at once included), aft.ack.
class Cashless {
public:
    using Acknowledge = std::function<void(const char* what)>;
    Cashless(test::ScenarioTable& table, const journal::Journal& journal, Acknowledge acknowledge)
        : table_(table), journal_(journal), acknowledge_(std::move(acknowledge)) {}

    // StationAft::restore: the registration aside (the requests here carry no key), the current
    // transfer and whether the host acknowledged it, the history's newest ID, the restricted pool
    // (the journal's, kept apart from the history).
    void restore(const sas::SasResume& resume) {
        for (const auto& [station, state] : resume.aft) {
            Station& s = stations_[station];
            for (const journal::AftTransferRecord& entry : state.history) {
                s.lastHistoryId = entry.id;
            }
            if (state.restricted) {
                s.restrictedPool = state.restricted->pool;
            }
            s.current = state.current;
            s.acknowledged = state.acknowledged;
        }
    }

    // StationAft::start: a transfer still pending ended with the power: 9F, nothing moved (its
    // credits move only in the transaction that ends it), unacknowledged (69 until the host reads it).
    void start() {
        for (auto& [station, s] : stations_) {
            if (!s.current || s.current->status != aft::status::kPending) {
                continue;
            }
            journal::AftTransferRecord final = *s.current;
            final.status = aft::status::kUnexpectedError;
            final.at = nowText();
            table_.aftRecord(station, final);
            acknowledge_("aft.transfer");
            s.current = final;
        }
    }

    // The host's LP 72 request: StationAft::transfer, begin and execute.
    void transfer(std::int64_t station, const aft::TransferRequest& request) {
        Station& s = stations_[station];
        if (s.current && !s.acknowledged) {
            hostAcknowledges(station);  // the host reads the last one first: a request now would be refused
        }
        journal::AftTransferRecord record = sas::transferRecordOf(request);
        const auto refused = aft::refusalOf(request, context(station));
        if (refused) {
            record.status = *refused;  // its end, acknowledged already (no 69)
            record.at = nowText();
        }
        s.current = record;
        s.acknowledged = refused.has_value();
        table_.aftRecord(station, record);
        acknowledge_(refused ? "aft.transfer" : "aft.pending");
        if (!refused) {
            execute(station);
        }
    }

    // StationAft::interrogationAcknowledged: the host read the station's ended transfer.
    void hostAcknowledges(std::int64_t station) {
        Station& s = stations_[station];
        if (!s.current || s.acknowledged || s.current->status == aft::status::kPending) {
            return;
        }
        s.acknowledged = true;
        if (succeeded(s.current->status) && s.current->moved.total() > 0) {
            s.lastHistoryId = s.current->id;
        }
        table_.aftAcknowledged(station, s.current->id);
        acknowledge_("aft.ack");
    }

private:
    struct Station {
        std::optional<journal::AftTransferRecord> current;
        bool acknowledged = true;
        std::optional<std::string> lastHistoryId;
        std::uint16_t restrictedPool = 0;
    };

    static std::string nowText() {
        const sas::SasDateTime t = sas::TableClock::localTimeOf(nowMs());
        char text[32];
        std::snprintf(text, sizeof text, "%04d-%02d-%02d %02d:%02d:%02d", t.year, t.month, t.day, t.hour, t.minute,
                      t.second);
        return text;
    }

    // StationAft::context: between two of the child's steps no station is tilted, in a hand-pay,
    // a cash-out or a ticket's redemption; what can move is what the station holds, never a stake.
    [[nodiscard]] aft::TransferContext context(std::int64_t station) const {
        const auto it = stations_.find(station);
        aft::TransferContext c;
        c.asset = kAssetBase + static_cast<std::uint32_t>(station);
        const journal::StationAccount acc = journal_.projected().station(station);
        const auto cents = [](game::Money m) { return static_cast<std::uint64_t>(std::max<game::Money>(m, 0)); };
        c.available = {cents(acc.cashable()), cents(acc.promo.held.restricted), cents(acc.promo.held.nonrestricted)};
        c.transferLimitCents = kTransferLimitCents;
        c.denominationCents = 1;
        c.transferInAllowed = true;
        c.transferOutAllowed = true;
        c.bonusAllowed = true;
        if (it != stations_.end()) {
            c.restrictedPool = it->second.restrictedPool;
            c.lastHistoryId = it->second.lastHistoryId;
        }
        return c;
    }

    // StationAft::execute: checked again now, then ended with the credits it moves.
    void execute(std::int64_t station) {
        Station& s = stations_[station];
        const journal::AftTransferRecord pending = *s.current;
        const aft::TransferRequest request = sas::requestOf(pending);
        aft::TransferContext c = context(station);
        c.lastHistoryId.reset();  // its ID was checked when it was taken
        journal::AftTransferRecord final = pending;
        final.at = nowText();
        const auto refused = aft::refusalOf(request, c);
        const aft::TransferAmounts amounts =
            refused ? aft::TransferAmounts{{}, *refused} : aft::amountsMoved(request, c);
        final.status = amounts.status;
        game::Money amount = 0;
        journal::PromoParts parts;
        std::string_view reason = journal::reason::kTransferIn;
        if (amounts.done()) {
            final.moved = {static_cast<std::int64_t>(amounts.moved.cashable),
                           static_cast<std::int64_t>(amounts.moved.restricted),
                           static_cast<std::int64_t>(amounts.moved.nonrestricted)};
            const auto total = static_cast<game::Money>(amounts.moved.total());
            parts = {static_cast<game::Money>(amounts.moved.restricted),
                     static_cast<game::Money>(amounts.moved.nonrestricted)};
            if (aft::toStation(request.type)) {
                amount = total;
                reason = aft::isBonus(request.type) ? journal::reason::kBonus : journal::reason::kTransferIn;
            } else {
                amount = -total;
                parts = parts.negated();
                reason = journal::reason::kTransferOut;
            }
        }
        table_.aftTransfer(station, final, amount, parts, reason);
        acknowledge_("aft.transfer");
        s.current = final;
        if (final.moved.restricted > 0 && aft::toStation(final.type)) {
            s.restrictedPool = final.pool;
        }
    }

    test::ScenarioTable& table_;
    const journal::Journal& journal_;
    Acknowledge acknowledge_;
    std::map<std::int64_t, Station> stations_;
};

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
    // What the SAS stations resume, as pitlinkd reads it at start: each one's AFT state.
    const sas::SasResume sasResume = sas::resumeSas(*store);
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
    std::int64_t pendingAcknowledged = 0;
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
        if (std::strcmp(what, "aft.pending") == 0 && ++pendingAcknowledged == o.killAfterPending) {
            ::kill(::getpid(), SIGKILL);
        }
    };
    auto uniform = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(random);
    };
    Cashless cashless(table, journal, acknowledge);
    cashless.restore(sasResume);

    table.record(journal::kind::kDaemonStarted, nlohmann::json{{"seed", o.seed}});
    acknowledge("daemon.started");
    // Transaction IDs unique in the journal: the number of this start's daemon.started, a count.
    const std::string idPrefix = std::to_string(table.lastCommit().seqs.lastSeq) + "-";
    std::int64_t transfers = 0;
    // What the host asks of a station linked to it: in-house transfers to it (now and then with
    // restricted or non-restricted promotional credits, of its pool or another), bonuses, transfers
    // to the host of what it holds (or more), full or partial, and requests refused at once. In a
    // round (`inRound`), after its bets: a transfer to the host, asking for the stakes as well.
    auto hostRequest = [&](std::int64_t station, bool inRound) {
        aft::TransferRequest r;
        r.transactionId = idPrefix + std::to_string(++transfers);
        r.asset = kAssetBase + static_cast<std::uint32_t>(station);
        r.code = uniform(0, 2) == 0 ? aft::kTransferPartial : aft::kTransferFull;
        const auto cents = [&](std::int64_t lo, std::int64_t hi) {
            return static_cast<std::uint64_t>(uniform(lo, hi)) * 100;
        };
        const journal::StationAccount held = journal.projected().station(station);
        const std::int64_t what = inRound ? 6 : uniform(0, 9);
        if (what <= 3) {
            r.type = aft::type::kInHouseToMachine;
            r.amounts.cashable = uniform(0, 3) == 0 ? 0 : cents(5, 200);
            if (uniform(0, 2) == 0) {
                r.amounts.restricted = cents(1, 150);
                r.poolId = uniform(0, 9) == 0 ? 2 : 1;  // another pool: refused (8F) while it holds restricted credits
                r.expiration = 30;                      // days
            }
            if (uniform(0, 3) == 0) {
                r.amounts.nonrestricted = cents(1, 100);
            }
        } else if (what <= 5) {
            r.type = aft::type::kBonusCoinOut;
            r.code = uniform(0, 9) == 0 ? aft::kTransferPartial : aft::kTransferFull;  // partial: refused (82)
            r.amounts.cashable = uniform(0, 3) == 0 ? 0 : cents(1, 100);
            if (uniform(0, 2) == 0) {
                r.amounts.nonrestricted = cents(1, 100);
            }
            if (uniform(0, 11) == 0) {
                r.amounts.restricted = cents(1, 10);  // a bonus is never restricted: refused (82)
            }
        } else if (what <= 8) {
            // What it holds, or more: a full one then moves nothing (82), a partial one what is held.
            r.type = aft::type::kInHouseToHost;
            const auto more = [&](game::Money m) {
                return static_cast<std::uint64_t>(std::max<game::Money>(m, 0)) +
                       (uniform(0, 9) == 0 ? cents(1, 50) : 0);
            };
            r.amounts.cashable = more(held.cashable() + (inRound ? held.inPlay : 0));
            r.amounts.restricted = more(held.promo.held.restricted);
            r.amounts.nonrestricted = more(held.promo.held.nonrestricted);
            if (r.amounts.total() == 0) {
                r.amounts.cashable = 100;
            }
        } else {
            r.type = aft::type::kInHouseToMachine;
            r.amounts.cashable = cents(1, 50);
            if (uniform(0, 1) == 0) {
                r.asset = kAssetBase + 99;  // another machine's (93)
            } else {
                r.amounts.cashable = 0;  // nothing (83)
            }
        }
        return r;
    };
    auto cashlessStep = [&](bool inRound) {
        const std::int64_t station = uniform(1, kAftStations);
        cashless.transfer(station, hostRequest(station, inRound));
        if (uniform(0, 3) != 0) {
            cashless.hostAcknowledges(station);  // else before the station's next request
        }
    };
    // Recovery replays from the second-to-last meters snapshot. A run here dies long before
    // snapshotEvery records, so without a snapshot at each start there would be none at all, and
    // every start-up (and the driver's recovery after each death) would replay the whole journal.
    table.snapshot();
    acknowledge("snapshot");
    cashless.start();
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
        if (uniform(0, 5) == 0) {
            cashlessStep(true);  // never takes a stake in play
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
        // A tip and a hand-pay take cashable credits only, a ticket cashable and non-restricted
        // ones; restricted credits stay to be played (or transferred to the host).
        const std::int64_t station = uniform(1, kStations);
        const journal::StationAccount held = journal.projected().station(station);
        const game::Money cashable = held.cashable();
        switch (uniform(0, 9)) {
            case 0:
                if (cashable > 0) {
                    table.tip(station, std::min<game::Money>(cashable, 100));
                    acknowledge("tip");
                }
                break;
            case 1:
                if (cashable + held.promo.held.nonrestricted > 0) {
                    table.ticketOut(station, cashable + held.promo.held.nonrestricted, std::to_string(random()));
                    acknowledge("ticket_out");
                }
                break;
            case 2:
                if (cashable > 0) {
                    table.handpay(station, cashable);
                    acknowledge("handpay");
                }
                break;
            case 3:
                // A linked station's restricted credits reached their expiry (StationAft::
                // checkExpiry): those not staked go (none are staked between rounds).
                for (std::int64_t linked = 1; linked <= kAftStations; ++linked) {
                    const game::Money restricted = journal.projected().station(linked).promo.held.restricted;
                    if (restricted > 0) {
                        table.expireRestricted(linked, restricted, "pool 1 expired");
                        acknowledge("restricted_expired");
                        break;
                    }
                }
                break;
            default:
                break;
        }
        if (uniform(0, 2) == 0) {
            cashlessStep(false);
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
