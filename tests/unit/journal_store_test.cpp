// The journal file: chain links, append-only triggers, keys, migrations from every schema
// version, damaged and edited files, WAL durability settings, failing writes.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "daemon/journal/read/audit.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/segments/segmented_journal.h"
#include "daemon/journal/store/chain_verifier.h"
#include "daemon/journal/store/schema_migrations.h"
#include "tests/support/power_loss_vfs.h"
#include "tests/unit/fixtures.h"
#include "tests/unit/journal_fixture.h"

namespace pitlink::journal {
namespace {

namespace fs = std::filesystem;
using test::JournalFixture;
using test::TempDir;

std::string hex(const Digest& d) {
    return toHex(d);
}

std::vector<std::uint8_t> keyOf(char fill) {
    return std::vector<std::uint8_t>(32, static_cast<std::uint8_t>(fill));
}

fs::path copyFixture(const TempDir& dir, const std::string& name) {
    const fs::path target = dir.path() / name;
    fs::copy_file(test::sourceDir() / "tests/fixtures/journal" / name, target);
    return target;
}

TEST(ChainHasher, Sha256MatchesTheFipsVector) {
    EXPECT_EQ(hex(sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(ChainHasher, UnkeyedLinkIsSha256OfPreviousThenCanonicalBytes) {
    ChainHasher hasher;
    Digest previous{};
    previous[0] = 0xab;
    const std::string joined = std::string(reinterpret_cast<const char*>(previous.data()), previous.size()) + "record";
    EXPECT_EQ(hasher.link(previous, "record"), sha256(joined));
    EXPECT_EQ(hasher.mode(), "sha256");
}

TEST(ChainHasher, KeyedLinkIsHmacSha256AndDependsOnTheKey) {
    const auto key = keyOf('k');
    ChainHasher keyed(key);
    Digest previous{};
    const std::string data = std::string(32, '\0') + "record";
    Digest expected{};
    unsigned int size = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
         data.size(), expected.data(), &size);
    EXPECT_EQ(keyed.link(previous, "record"), expected);
    ChainHasher other(keyOf('x'));
    EXPECT_NE(other.link(previous, "record"), expected);
    EXPECT_EQ(keyed.keyFingerprint(), hex(sha256(std::string(32, 'k'))));
}

TEST(Record, CanonicalBytesAreTabSeparatedWithEmptyAbsentFields) {
    JournalRecord record{7, 1000, "credit", std::nullopt, 3, R"({"amount":5})", {}};
    EXPECT_EQ(canonicalBytes(record), "7\t1000\tcredit\t\t3\t{\"amount\":5}");
    record.roundId = 12;
    record.station = std::nullopt;
    EXPECT_EQ(canonicalBytes(record), "7\t1000\tcredit\t12\t\t{\"amount\":5}");
    // The widest numbers (20 characters each), all four present: nothing cut, nothing spilled.
    const JournalRecord widest{INT64_MAX, INT64_MIN, "k", INT64_MIN, INT64_MIN, "{}", {}};
    EXPECT_EQ(canonicalBytes(widest),
              "9223372036854775807\t-9223372036854775808\tk\t-9223372036854775808\t"
              "-9223372036854775808\t{}");
    std::string appended = "before|";
    appendCanonicalBytes(record, appended);
    EXPECT_EQ(appended, "before|7\t1000\tcredit\t12\t\t{\"amount\":5}");
    EXPECT_EQ(canonicalJson(nlohmann::json{{"b", 1}, {"a", "x"}}), R"({"a":"x","b":1})");
}

TEST(JournalStore, UsesWalWithFullSynchronousCommits) {
    JournalFixture f;
    auto mode = f.store->connection().prepare("PRAGMA journal_mode");
    ASSERT_TRUE(mode.step());
    EXPECT_EQ(mode.text(0), "wal");
    EXPECT_EQ(f.store->connection().queryInt("PRAGMA synchronous"), 2);  // FULL
    EXPECT_EQ(f.store->schemaVersion(), latestSchemaVersion());
}

TEST(JournalStore, NumbersRecordsWithoutGapsAndKeepsTheChainAcrossReopen) {
    JournalFixture f;
    f.table->ticketIn(1, 5000, "T1");
    const std::int64_t tip = f.store->tipSeq();
    const Digest tipHash = f.store->tipHash();
    f.reopen();
    f.table->ticketIn(1, 100, "T2");
    const ChainCheck check = verifyChain(*f.store, 1);
    EXPECT_TRUE(check.ok) << check.problem;
    EXPECT_EQ(check.checked, f.store->tipSeq());
    const auto after = f.store->record(tip + 1);
    ASSERT_TRUE(after);
    std::string canonical = canonicalBytes(*after);
    EXPECT_EQ(f.store->hasher().link(tipHash, canonical), after->hash);
}

TEST(JournalStore, RefusesUpdateAndDeleteOfRecords) {
    JournalFixture f;
    f.table->ticketIn(1, 5000, "T1");
    try {
        f.store->connection().exec("UPDATE record SET body = '{}' WHERE seq = 1");
        FAIL() << "UPDATE accepted";
    } catch (const JournalError& error) {
        EXPECT_NE(std::string(error.what()).find("append-only"), std::string::npos) << error.what();
    }
    EXPECT_THROW(f.store->connection().exec("DELETE FROM record WHERE seq = 1"), JournalError);
    EXPECT_THROW(f.store->connection().exec("UPDATE journal_info SET value = 'sha256' WHERE key = 'chain'"),
                 JournalError);
    EXPECT_TRUE(verifyChain(*f.store, 1).ok);
}

TEST(JournalStore, ChainCheckFindsTheEditedRecordAndAMissingOne) {
    JournalFixture f;
    f.table->ticketIn(1, 5000, "T1");
    f.table->ticketIn(2, 7000, "T2");
    auto& db = f.store->connection();
    const std::int64_t victim = f.store->tipSeq() - 1;  // the ticket.redeemed of station 2
    db.exec("DROP TRIGGER record_is_append_only_update");
    db.exec("UPDATE record SET body = replace(body, '7000', '9000') WHERE seq = " + std::to_string(victim));
    ChainCheck check = verifyChain(*f.store, 1);
    EXPECT_FALSE(check.ok);
    EXPECT_EQ(check.firstBadSeq, victim);
    db.exec("DROP TRIGGER record_is_append_only_delete");
    db.exec("DELETE FROM record WHERE seq = 2");
    check = verifyChain(*f.store, 1);
    EXPECT_EQ(check.firstBadSeq, 2);
    EXPECT_NE(check.problem.find("missing"), std::string::npos) << check.problem;
}

TEST(JournalStore, KeyedJournalNeedsItsKeyAndDetectsAnEditRehashedWithoutIt) {
    TempDir dir;
    const std::string path = (dir.path() / "keyed.db").string();
    {
        JournalStore store(path, StoreOptions{keyOf('k')});
        const std::vector<PendingRecord> records{{1, "tip", std::nullopt, 1, R"({"amount":5})"},
                                                 {2, "tip", std::nullopt, 1, R"({"amount":6})"}};
        store.append(records);
    }
    EXPECT_THROW(JournalStore(path, StoreOptions{}), JournalError);
    try {
        JournalStore wrong(path, StoreOptions{keyOf('z')});
        FAIL() << "opened with the wrong key";
    } catch (const JournalError& error) {
        EXPECT_NE(std::string(error.what()).find("different key"), std::string::npos) << error.what();
    }
    JournalStore store(path, StoreOptions{keyOf('k')});
    EXPECT_TRUE(verifyChain(store, 1).ok);
    // Someone without the key edits record 1 and recomputes plain SHA-256 links after it.
    auto& db = store.connection();
    db.exec("DROP TRIGGER record_is_append_only_update");
    Digest previous = kGenesisDigest;
    ChainHasher unkeyed;
    for (std::int64_t seq = 1; seq <= 2; ++seq) {
        JournalRecord record = *store.record(seq);
        if (seq == 1) {
            record.body = R"({"amount":500})";
        }
        previous = unkeyed.link(previous, canonicalBytes(record));
        auto update = db.prepare("UPDATE record SET body = ?, hash = ? WHERE seq = ?");
        update.bind(1, std::string_view(record.body))
            .bind(2, std::span<const std::uint8_t>(previous))
            .bind(3, seq)
            .run();
    }
    EXPECT_EQ(verifyChain(store, 1).firstBadSeq, 1);
}

TEST(JournalStore, KeyFileMustBePrivateAndLongEnough) {
    TempDir dir;
    const fs::path key = dir.path() / "journal.key";
    std::ofstream(key) << std::string(32, 'k');
    ::chmod(key.c_str(), 0644);
    EXPECT_THROW((void)loadChainKey(key), JournalError);
    ::chmod(key.c_str(), 0600);
    EXPECT_EQ(loadChainKey(key).size(), 32U);
    std::ofstream(key) << "short";
    EXPECT_THROW((void)loadChainKey(key), JournalError);
}

TEST(JournalStore, MigratesEverySchemaVersionFixtureAndKeepsItsRecords) {
    // v1 and v2 hold one round settled per bet; v3 also a round settled by spot (issue 30).
    for (const auto& [name, records] : {std::pair{"v1.db", 18}, std::pair{"v2.db", 18}, std::pair{"v3.db", 43}}) {
        TempDir dir;
        const fs::path path = copyFixture(dir, name);
        JournalStore store(path.string(), StoreOptions{});
        EXPECT_EQ(store.schemaVersion(), latestSchemaVersion()) << name;
        const ChainCheck check = verifyChain(store, 1);
        EXPECT_TRUE(check.ok) << name << ": " << check.problem;
        EXPECT_EQ(check.checked, records) << name;
        // The inspector views answer on the migrated file: round 1 per bet, as it was paid.
        auto recall = store.connection().prepare(
            "SELECT spot, stake, returned, settle, bets FROM round_recall WHERE round_id = 1 ORDER BY bet");
        ASSERT_TRUE(recall.step()) << name;
        EXPECT_EQ(recall.text(0), "banker");
        EXPECT_EQ(recall.integer(2), 1950);
        EXPECT_EQ(recall.text(3), "bet");
        EXPECT_EQ(recall.text(4), "[1]");
        // Every round of every version replays and verifies as it was paid.
        SegmentedJournal whole(store);
        const AuditReport audit = auditJournal(whole);
        EXPECT_TRUE(audit.ok()) << name << ": " << audit.chain.problem
                                << (audit.roundProblems.empty() ? "" : audit.roundProblems[0]);
        EXPECT_EQ(audit.roundsChecked, records == 43 ? 2 : 1) << name;
    }
}

TEST(JournalStore, TheRecallViewShowsASpotSettledWholeWithItsAdditions) {
    TempDir dir;
    const fs::path path = copyFixture(dir, "v3.db");
    JournalStore store(path.string(), StoreOptions{});
    auto recall = store.connection().prepare(
        "SELECT station, settle, bet, bets, additions, spot, stake, win, returned, breakage, adjusted "
        "FROM round_recall WHERE round_id = 2 ORDER BY station, spot");
    ASSERT_TRUE(recall.step());
    EXPECT_EQ(recall.integer(0), 1);
    EXPECT_EQ(recall.text(1), "spot");
    EXPECT_EQ(recall.integer(2), 1);
    EXPECT_EQ(recall.text(3), "[1,3]");
    EXPECT_EQ(recall.text(4), R"([{"bet":1,"stake":1010,"action":"bet"},{"bet":3,"stake":10,"action":"raise"}])");
    EXPECT_EQ(recall.integer(6), 1'020);
    EXPECT_EQ(recall.integer(7), 969);  // floor(1,020 x 19/20), where 959 + 9 was paid per bet
    EXPECT_EQ(recall.integer(8), 1'989);
    EXPECT_EQ(recall.integer(10), 0);
    ASSERT_TRUE(recall.step());
    EXPECT_EQ(recall.integer(0), 2);
    EXPECT_EQ(recall.text(3), "[2,4]");  // the tie it took back is not a row
    EXPECT_EQ(recall.integer(6), 245);
    EXPECT_EQ(recall.integer(7), 232);
    EXPECT_EQ(recall.text(9), "3/4");
    EXPECT_FALSE(recall.step());
}

TEST(JournalStore, RefusesAJournalFromANewerPitlink) {
    TempDir dir;
    const fs::path path = copyFixture(dir, "v2.db");
    {
        SqliteConnection db(path.string(), SqliteConnection::Mode::ReadWrite);
        db.exec("PRAGMA user_version = 99");
    }
    try {
        JournalStore store(path.string(), StoreOptions{});
        FAIL() << "opened a schema 99 journal";
    } catch (const JournalError& error) {
        EXPECT_NE(std::string(error.what()).find("newer"), std::string::npos) << error.what();
    }
}

TEST(JournalStore, TruncatedFileFailsItsChecksAndIsLeftAsItWas) {
    TempDir dir;
    const fs::path path = copyFixture(dir, "truncated.db");
    const std::string before = test::fileBytes(path);
    bool refused = false;
    try {
        JournalStore store(path.string(), StoreOptions{});
        const auto report = recover(store, RecoveryOptions{}, [] { return 0; });
        refused = !report.ok();
        EXPECT_NE(report.tilt.value_or("").find("integrity"), std::string::npos) << report.tilt.value_or("");
    } catch (const JournalError&) {
        refused = true;
    }
    EXPECT_TRUE(refused);
    EXPECT_EQ(test::fileBytes(path), before);
}

TEST(JournalStore, EditedFixtureIsFoundAtItsRecordAndRecoveryRefusesIt) {
    TempDir dir;
    const fs::path path = copyFixture(dir, "edited.db");
    JournalStore store(path.string(), StoreOptions{});
    EXPECT_EQ(verifyChain(store, 1).firstBadSeq, 6);
    const auto report = recover(store, RecoveryOptions{true, true}, [] { return 0; });
    ASSERT_FALSE(report.ok());
    EXPECT_NE(report.tilt->find("record 6"), std::string::npos) << *report.tilt;
    EXPECT_EQ(store.tipSeq(), 18);  // nothing was written
}

TEST(JournalStore, AFailingWriteLeavesTheChainTipAndEarlierRecordsIntact) {
    test::registerPowerLossVfs();
    test::PowerLoss::reset();
    TempDir dir;
    const std::string path = (dir.path() / "full.db").string();
    std::int64_t committedTip = 0;
    {
        JournalStore store(path, StoreOptions{std::nullopt, test::kPowerLossVfs});
        const std::vector<PendingRecord> one{{1, "tip", std::nullopt, 1, R"({"amount":5})"}};
        store.append(one);
        committedTip = store.tipSeq();
        const Digest tipHash = store.tipHash();
        test::PowerLoss::failWritesAfter(0, SQLITE_FULL);
        try {
            store.append(one);
            FAIL() << "append succeeded on a full disk";
        } catch (const JournalError& error) {
            EXPECT_EQ(error.sqliteCode() & 0xff, SQLITE_FULL) << error.what();
        }
        EXPECT_EQ(store.tipSeq(), committedTip);
        EXPECT_EQ(store.tipHash(), tipHash);
    }
    test::PowerLoss::reset();
    JournalStore reopened(path, StoreOptions{});
    EXPECT_EQ(reopened.tipSeq(), committedTip);
    EXPECT_TRUE(verifyChain(reopened, 1).ok);
}

}  // namespace
}  // namespace pitlink::journal
