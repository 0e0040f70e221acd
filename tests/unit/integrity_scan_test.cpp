// The start-up integrity scan (quick_check and the whole chain on its own connection and
// thread), and why pitlinkd needs it besides the fast check from the last snapshots.
#include "daemon/journal/store/integrity_scan.h"

#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include "daemon/journal/recovery.h"
#include "tests/support/completion_queue.h"
#include "tests/unit/journal_fixture.h"

namespace pitlink::journal {
namespace {

using game::BetType;
using test::JournalFixture;

constexpr const char* kBankerWins = "2S 9H 4D KC";

// A journal of `rounds` rounds with two snapshots at the end, closed: the fast start-up check
// replays only what follows the first of them.
void playAndSnapshot(JournalFixture& f, int rounds) {
    f.table->ticketIn(1, 1'000'000, "T1");
    for (int i = 0; i < rounds; ++i) {
        f.playRound({{1, BetType::Banker, 100}}, kBankerWins);
    }
    f.table->snapshot();
    f.playRound({{1, BetType::Player, 100}}, kBankerWins);
    f.table->snapshot();
    f.table.reset();
    f.journal.reset();
    f.sink.reset();
    f.store.reset();  // the last connection: SQLite checkpoints the WAL into the file
}

// Damages the b-tree page holding the first records (sets its cell count to 65535), as a bad
// disk block would; returns the page number.
std::int64_t damageFirstRecordPage(const std::string& path) {
    std::int64_t page = 0;
    std::int64_t pageSize = 0;
    {
        SqliteConnection db(path, SqliteConnection::Mode::ReadOnly);
        page = db.queryInt("SELECT min(pageno) FROM dbstat WHERE name = 'record' AND pagetype = 'leaf'");
        pageSize = db.queryInt("PRAGMA page_size");
    }
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp((page - 1) * pageSize + 3);
    file.write("\xff\xff", 2);
    return page;
}

StoreOptions readOnly() {
    StoreOptions options;
    options.readOnly = true;
    return options;
}

TEST(IntegrityScan, ASoundJournalPassesQuickCheckAndTheWholeChain) {
    JournalFixture f;
    playAndSnapshot(f, 20);
    JournalStore store(f.path, readOnly());
    const std::int64_t records = store.tipSeq();
    const IntegrityResult result = scanIntegrity(store, true);
    EXPECT_TRUE(result.ok()) << result.failure.value_or("");
    EXPECT_EQ(result.quickCheck, "ok");
    ASSERT_TRUE(result.chain.has_value());
    EXPECT_EQ(result.chain->from, 1);
    EXPECT_EQ(result.chain->checked, records);
    // Without the chain, only quick_check.
    EXPECT_FALSE(scanIntegrity(store, false).chain.has_value());
}

TEST(IntegrityScan, ADamagedOldPageIsFoundByTheScanThoughTheFastCheckPasses) {
    JournalFixture f;
    playAndSnapshot(f, 40);
    damageFirstRecordPage(f.path);
    const std::string before = test::fileBytes(f.path);
    {
        // The fast check (from the second-to-last snapshot) never reads the damaged page...
        JournalStore store(f.path, readOnly());
        const RecoveryReport fast = inspectJournal(store, RecoveryOptions{false, false});
        EXPECT_TRUE(fast.ok()) << fast.tilt.value_or("");
        EXPECT_GT(fast.chain.from, 100);
        // ...the scan does.
        const IntegrityResult scan = scanIntegrity(store, false);
        ASSERT_FALSE(scan.ok());
        EXPECT_NE(scan.failure->find("journal integrity check failed"), std::string::npos) << *scan.failure;
        EXPECT_NE(scan.failure->find("malformed"), std::string::npos) << *scan.failure;
    }
    EXPECT_EQ(test::fileBytes(f.path), before);
}

TEST(IntegrityScan, RunsOnItsOwnThreadAndPostsItsResult) {
    JournalFixture f;
    playAndSnapshot(f, 5);
    test::CompletionQueue logic;
    std::optional<IntegrityResult> result;
    const std::thread::id logicThread = std::this_thread::get_id();
    std::thread::id ranOn;
    {
        IntegrityScan scan(f.path, StoreOptions{}, true, logic, [&](const IntegrityResult& r) {
            ranOn = std::this_thread::get_id();
            result = r;
        });
        logic.runOne();
    }
    ASSERT_TRUE(result.has_value());
    EXPECT_EQ(ranOn, logicThread);
    EXPECT_TRUE(result->ok());
    EXPECT_EQ(result->quickCheck, "ok");
    EXPECT_GT(result->chain->checked, 5 * 10);
}

TEST(IntegrityScan, AStoppedScanIsAFailureNotAPass) {
    JournalFixture f;
    playAndSnapshot(f, 5);
    JournalStore store(f.path, readOnly());
    const std::atomic<bool> stop{true};
    const IntegrityResult result = scanIntegrity(store, true, stop);
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.failure->find("scan stopped"), std::string::npos) << *result.failure;
}

}  // namespace
}  // namespace pitlink::journal
