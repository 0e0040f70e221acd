// Benchmarks of the journal (issue #4), each against a baseline from the same run (RESULTS.md):
//   durable round commits/s            vs  raw write+fdatasync/s of the same directory
//   chain verification records/s       vs  SHA-256 of the same bytes in memory
//   start-up recovery of a big journal vs  reading the file once (cat > /dev/null); the
//                                          integrity scan that runs after it, before any bet
//   recall of the last 10 rounds       vs  one indexed SELECT of a record
// The big journal (1,000,000 rounds) is made once: bench_journal --make-journal PATH ROUNDS,
// then PITLINK_BENCH_JOURNAL=PATH bench_journal. Without it a 20,000-round journal is made.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "daemon/config/paytable_loader.h"
#include "daemon/game/random_source.h"
#include "daemon/game/shoe.h"
#include "daemon/game/third_card_rule.h"
#include "daemon/journal/journal_writer.h"
#include "daemon/journal/read/recall.h"
#include "daemon/journal/records/paytable_codec.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/settlement_records.h"
#include "daemon/journal/recovery.h"
#include "daemon/journal/store/chain_verifier.h"
#include "daemon/journal/store/integrity_scan.h"
#include "daemon/journal/store_sink.h"
#include "tests/bench/raw_fdatasync.h"
#include "tests/support/completion_queue.h"

namespace {

namespace fs = std::filesystem;
using namespace pitlink;
using nlohmann::json;

fs::path benchDir() {
    const fs::path dir = fs::current_path() / "bench-journal";
    fs::create_directories(dir);
    return dir;
}

game::Paytable standard() {
    return config::loadPaytableFile(std::string(PITLINK_SOURCE_DIR) + "/etc/paytables/standard.yaml");
}

// A settled round of 8 stations with one bet each: round.settled, 8 bet.settled, 8 credits.
journal::JournalTransaction settledRound(journal::Journal& j, const game::Paytable& table, const std::string& sha,
                                         std::int64_t round, const game::Coup& coup) {
    std::vector<journal::RoundBet> bets;
    for (std::int64_t s = 1; s <= 8; ++s) {
        bets.push_back({s, s, s % 2 == 0 ? game::BetType::Banker : game::BetType::Player, 100, "bet"});
    }
    journal::JournalTransaction tx = j.begin();
    journal::addSettlement(tx, round, coup, bets, journal::settleBets(coup, bets, table, game::SettleRule::PerSpot),
                           table, sha);
    return tx;
}

// Coups from 8-deck RNG shoes, a new shoe when the cut card comes out.
class CoupSource {
public:
    game::Coup next() {
        if (shoe_.cutCardOut()) {
            shoe_ = game::Shoe(game::ShoeConfig{}, random_, 1);
        }
        return game::dealCoup([&] { return shoe_.draw(); });
    }

private:
    game::SeededRandom random_{7};
    game::Shoe shoe_{game::ShoeConfig{}, random_, 1};
};

// Times one raw write+fdatasync into `seconds`; false if it failed.
bool timedSync(test::RawFdatasync& raw, double& seconds) {
    const auto start = std::chrono::steady_clock::now();
    const bool ok = raw.once();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return ok;
}

void removeJournalFiles(const fs::path& path) {
    for (const char* suffix : {"", "-wal", "-shm"}) {
        fs::remove(path.string() + suffix);
    }
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One settled round per commit, the next submitted only after the previous is acknowledged:
// what a table waits for between rounds. WAL + synchronous=FULL, the real writer thread. Each
// iteration first times one raw write+fdatasync of each kind on the same disk, then one round
// commit, so that all three see the same moment of this noisy machine. The reported time is the
// commit's; `vs_append_pct` and `vs_in_place_pct` = fdatasync time / commit time = commits per
// second as a share of the disk's fdatasyncs per second. A third baseline writes in place what
// such a commit appends to the WAL (kWalFramesPerCommit pages, counted with strace) before its
// fdatasync: `vs_wal_sized_pct` is the commit against the disk's cost of its own bytes.
// A settled round of 8 stations adds 17 rows to the record table and to the round index, 8 to
// the bets' index and one to the rounds' index: 4.7 WAL frames of 4 KiB on average
// (`strace -e pwrite64`: 5,410 frame headers for 1,150 commits).
constexpr int kWalFramesPerCommit = 5;

void BM_DurableRoundCommit(benchmark::State& state) {
    const fs::path path = benchDir() / "commit.db";
    removeJournalFiles(path);
    const game::Paytable table = standard();
    const std::string sha = journal::paytableSha256(table);
    test::CompletionQueue completions;
    test::RawFdatasync append(benchDir(), false);
    test::RawFdatasync inPlace(benchDir(), true);
    test::RawFdatasync walSized(benchDir(), true, kWalFramesPerCommit);
    double appendSeconds = 0;
    double inPlaceSeconds = 0;
    double walSizedSeconds = 0;
    double commitSeconds = 0;
    {
        auto store = std::make_unique<journal::JournalStore>(path.string(), journal::StoreOptions{});
        journal::JournalWriter writer(std::move(store), completions);
        journal::Journal j(
            writer, journal::Ledger{}, [] { return 1; }, 2000);
        CoupSource coups;
        std::int64_t round = 0;
        for (auto _ : state) {
            const game::Coup coup = coups.next();
            if (!timedSync(append, appendSeconds) || !timedSync(inPlace, inPlaceSeconds) ||
                !timedSync(walSized, walSizedSeconds)) {
                state.SkipWithError("write/fdatasync failed");
                break;
            }
            const auto commitStart = std::chrono::steady_clock::now();
            bool done = false;
            j.submit(settledRound(j, table, sha, ++round, coup), [&](const journal::CommitResult& r) {
                done = true;
                if (!r.ok) {
                    state.SkipWithError(r.error.c_str());
                }
            });
            while (!done) {
                completions.runOne();
            }
            const double commit = secondsSince(commitStart);
            commitSeconds += commit;
            state.SetIterationTime(commit);
        }
        writer.stop();
    }
    const double n = static_cast<double>(std::max<std::int64_t>(state.iterations(), 1));
    state.counters["append_sync_us"] = appendSeconds / n * 1e6;
    state.counters["in_place_sync_us"] = inPlaceSeconds / n * 1e6;
    state.counters["commit_us"] = commitSeconds / n * 1e6;
    state.counters["vs_append_pct"] = commitSeconds > 0 ? 100.0 * appendSeconds / commitSeconds : 0;
    state.counters["vs_in_place_pct"] = commitSeconds > 0 ? 100.0 * inPlaceSeconds / commitSeconds : 0;
    state.counters["wal_sized_sync_us"] = walSizedSeconds / n * 1e6;
    state.counters["vs_wal_sized_pct"] = commitSeconds > 0 ? 100.0 * walSizedSeconds / commitSeconds : 0;
    state.SetItemsProcessed(state.iterations());
    removeJournalFiles(path);
}
BENCHMARK(BM_DurableRoundCommit)->UseManualTime()->Unit(benchmark::kMicrosecond);

// The same rounds appended on the calling thread with no fsync (synchronous=OFF): what SQLite,
// hashing and JSON cost per commit, without the disk or the thread hand-off.
void BM_RoundCommitCpuOnly(benchmark::State& state) {
    const fs::path path = benchDir() / "commit-cpu.db";
    removeJournalFiles(path);
    const game::Paytable table = standard();
    const std::string sha = journal::paytableSha256(table);
    {
        journal::JournalStore store(path.string(), journal::StoreOptions{});
        store.connection().exec("PRAGMA synchronous = OFF");
        journal::StoreSink sink(store);
        journal::Journal j(
            sink, journal::Ledger{}, [] { return 1; }, 2000);
        CoupSource coups;
        std::int64_t round = 0;
        for (auto _ : state) {
            const game::Coup coup = coups.next();
            j.submit(settledRound(j, table, sha, ++round, coup));
        }
    }
    state.SetItemsProcessed(state.iterations());
    removeJournalFiles(path);
}
BENCHMARK(BM_RoundCommitCpuOnly)->Unit(benchmark::kMicrosecond);

// Writes a journal of `rounds` rounds as the table makes them (open, one bet with its credit,
// close, the cards one by one, settlement; a snapshot every 2000 records) in big transactions.
void makeJournal(const std::string& path, std::int64_t rounds) {
    fs::remove(path);
    journal::JournalStore store(path, journal::StoreOptions{});
    store.connection().exec("PRAGMA synchronous = OFF");  // only while making the fixture
    journal::StoreSink sink(store);
    const game::Paytable table = standard();
    const std::string sha = journal::paytableSha256(table);
    std::int64_t at = 1'795'000'000'000;
    journal::Journal j(
        sink, journal::Ledger{}, [&] { return at; }, 2000);
    game::SeededRandom random(11);
    auto shoe = std::make_unique<game::Shoe>(game::ShoeConfig{}, random, 1);
    journal::JournalTransaction tx = j.begin();
    tx.add(journal::kind::kPaytableLoaded, std::nullopt, std::nullopt,
           json{{"id", table.id}, {"sha256", sha}, {"content", journal::paytableToJson(table)}});
    tx.credit(1, 1'000'000'000, journal::reason::kTicketIn);
    j.submit(std::move(tx));
    for (std::int64_t round = 1; round <= rounds; ++round) {
        at += 30'000;
        if (shoe->cutCardOut()) {
            shoe = std::make_unique<game::Shoe>(game::ShoeConfig{}, random, static_cast<std::uint32_t>(round));
        }
        journal::JournalTransaction r = j.begin();
        r.add(journal::kind::kRoundOpened, round, std::nullopt,
              json{{"shoe", shoe->number()},
                   {"round_in_shoe", round % 80},
                   {"paytable", table.id},
                   {"paytable_sha256", sha},
                   {"settle", "spot"}});
        const game::BetType spot = round % 2 == 0 ? game::BetType::Banker : game::BetType::Player;
        r.add(journal::kind::kBetAccepted, round, 1,
              json{{"bet", 1}, {"spot", game::betTypeName(spot)}, {"stake", 100}});
        r.credit(1, -100, journal::reason::kBet, round);
        r.add(journal::kind::kRoundClosed, round, std::nullopt, json::object());
        int position = 0;
        const game::Coup coup = game::dealCoup([&] {
            const game::Card card = shoe->draw();
            r.add(journal::kind::kCardDealt, round, std::nullopt,
                  json{{"position", ++position}, {"card", card.toString()}, {"source", "rng"}, {"rescans", 0}});
            return card;
        });
        const std::vector<journal::RoundBet> bets{{1, 1, spot, 100, "bet"}};
        journal::addSettlement(r, round, coup, bets, journal::settleBets(coup, bets, table, game::SettleRule::PerSpot),
                               table, sha);
        j.submit(std::move(r));
        if (round % 100000 == 0) {
            std::cerr << "  " << round << " rounds\n";
        }
    }
    store.connection().exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

const std::string& bigJournal() {
    static const std::string path = [] {
        if (const char* given = std::getenv("PITLINK_BENCH_JOURNAL")) {
            return std::string(given);
        }
        const std::string made = (benchDir() / "recovery-20k.db").string();
        makeJournal(made, 20'000);
        return made;
    }();
    return path;
}

std::int64_t fileSize(const std::string& path) {
    return static_cast<std::int64_t>(fs::file_size(path));
}

void BM_Baseline_ReadJournalFile(benchmark::State& state) {
    (void)bigJournal();  // made (once) before the clock runs
    std::vector<char> buffer(1 << 20);
    for (auto _ : state) {
        const int fd = ::open(bigJournal().c_str(), O_RDONLY);
        while (::read(fd, buffer.data(), buffer.size()) > 0) {
        }
        ::close(fd);
    }
    state.SetBytesProcessed(state.iterations() * fileSize(bigJournal()));
}
BENCHMARK(BM_Baseline_ReadJournalFile)->UseRealTime()->Unit(benchmark::kMillisecond);

// Start-up as pitlinkd does it, step 1: open the file, the chain and the meters from the
// second-to-last snapshot, the last round found; read-only, independent of the journal's size.
// The daemon's state (credits, meters) is back after this.
void BM_StartupRecovery(benchmark::State& state) {
    std::int64_t rounds = 0;
    for (auto _ : state) {
        journal::JournalStore store(bigJournal(), journal::StoreOptions{});
        const auto report = journal::inspectJournal(store, journal::RecoveryOptions{false, false});
        if (!report.ok()) {
            state.SkipWithError(report.tilt->c_str());
            break;
        }
        rounds = report.lastRoundId.value_or(0);
    }
    state.counters["rounds"] = static_cast<double>(rounds);
    state.counters["MB"] = static_cast<double>(fileSize(bigJournal())) / 1e6;
}
BENCHMARK(BM_StartupRecovery)->UseRealTime()->Unit(benchmark::kMillisecond);

// Step 2, on its own thread before the table takes a bet: quick_check of every page (linear in
// the file), then step 3 (the last round finished, journal.checked written) is one commit.
void BM_StartupIntegrityScan(benchmark::State& state) {
    journal::JournalStore store(bigJournal(), journal::StoreOptions{std::nullopt, nullptr, true});
    for (auto _ : state) {
        const auto result = journal::scanIntegrity(store, false);
        if (!result.ok()) {
            state.SkipWithError(result.failure->c_str());
            break;
        }
    }
    state.SetBytesProcessed(state.iterations() * fileSize(bigJournal()));
}
BENCHMARK(BM_StartupIntegrityScan)->UseRealTime()->Unit(benchmark::kMillisecond);

// Full chain verification (audit verify's first half) over the whole journal.
void BM_ChainVerification(benchmark::State& state) {
    journal::JournalStore store(bigJournal(), journal::StoreOptions{std::nullopt, nullptr, true});
    std::int64_t records = 0;
    for (auto _ : state) {
        const auto check = journal::verifyChain(store, 1);
        if (!check.ok) {
            state.SkipWithError(check.problem.c_str());
            break;
        }
        records += check.checked;
    }
    state.SetItemsProcessed(records);
}
BENCHMARK(BM_ChainVerification)->UseRealTime()->Unit(benchmark::kMillisecond)->Iterations(1);

// Baseline: SHA-256 links over typical record bytes in memory, no SQLite.
void BM_Baseline_Sha256Links(benchmark::State& state) {
    journal::ChainHasher hasher;
    const std::string canonical =
        R"(123456	1795000030000	bet.settled	4567	1	{"bet":1,"breakage":"0","result":"win","returned":195,"spot":"banker","stake":100,"tier":0,"win":95})";
    journal::Digest link{};
    for (auto _ : state) {
        link = hasher.link(link, canonical);
        benchmark::DoNotOptimize(link);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Baseline_Sha256Links);

void BM_RecallLast10Rounds(benchmark::State& state) {
    journal::SegmentedJournal whole(bigJournal(), journal::StoreOptions{});
    for (auto _ : state) {
        const auto rounds = journal::recallRounds(whole, 10);
        benchmark::DoNotOptimize(rounds.data());
        if (rounds.size() != 10) {
            state.SkipWithError("fewer than 10 rounds");
        }
    }
}
BENCHMARK(BM_RecallLast10Rounds)->Unit(benchmark::kMicrosecond);

void BM_Baseline_OneIndexedSelect(benchmark::State& state) {
    journal::JournalStore store(bigJournal(), journal::StoreOptions{std::nullopt, nullptr, true});
    const std::int64_t tip = store.tipSeq();
    for (auto _ : state) {
        benchmark::DoNotOptimize(store.record(tip - 5));
    }
}
BENCHMARK(BM_Baseline_OneIndexedSelect)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
    if (argc == 4 && std::string(argv[1]) == "--make-journal") {
        const auto start = std::chrono::steady_clock::now();
        makeJournal(argv[2], std::stoll(argv[3]));
        std::cerr << "made " << argv[2] << " in "
                  << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s\n";
        return 0;
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
