// The journal followed from outside pitlinkd (pitlink-ship's reader): every record after a point,
// in order and in batches, across rotations and the active segment as it grows; any chain mode
// without a key; sealed segments read without a -shm made beside them; a segment archived away
// is an error, never a silent gap. Checked against the files read with sqlite3 itself.
#include "daemon/journal/read/journal_tail.h"

#include <gtest/gtest.h>
#include <openssl/sha.h>
#include <sqlite3.h>

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "daemon/app/segment_carry.h"
#include "daemon/journal/read/audit.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/segments/segment_files.h"
#include "daemon/journal/segments/segment_rotation.h"
#include "daemon/journal/store/journal_error.h"
#include "tests/unit/journal_fixture.h"

namespace pitlink {
namespace {

namespace fs = std::filesystem;

// Seals the active segment as the daemon does (its carry, a meters snapshot) and reopens.

// (seq, kind, hash hex) of every record of the journal's files, read with sqlite3 itself.
struct Row {
    std::int64_t seq;
    std::string kind;
    std::string hash;
    bool operator==(const Row&) const = default;
};
// NOLINTNEXTLINE(readability-identifier-naming): the name gtest looks for
void PrintTo(const Row& r, std::ostream* out) {
    *out << r.seq << " " << r.kind << " " << r.hash.substr(0, 12);
}
// The active segment's WAL is read too (a sealed segment has none left).
std::vector<Row> rowsOf(const std::string& file) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "SELECT seq, kind, lower(hex(hash)) FROM record ORDER BY seq", -1, &st, nullptr);
    std::vector<Row> rows;
    while (sqlite3_step(st) == SQLITE_ROW) {
        rows.push_back(Row{sqlite3_column_int64(st, 0), reinterpret_cast<const char*>(sqlite3_column_text(st, 1)),
                           reinterpret_cast<const char*>(sqlite3_column_text(st, 2))});
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rows;
}
std::vector<Row> everyRow(const std::string& path) {
    const journal::SegmentFiles files(path);
    std::vector<Row> rows;
    for (const std::uint32_t n : files.sealed()) {
        for (Row& r : rowsOf(files.file(n).string())) {
            rows.push_back(std::move(r));
        }
    }
    for (Row& r : rowsOf(files.file(*files.active()).string())) {
        rows.push_back(std::move(r));
    }
    return rows;
}

// Everything after `from`, read in batches of `batch`.
std::vector<Row> follow(journal::JournalTail& tail, std::int64_t from, std::size_t batch) {
    std::vector<Row> rows;
    for (;;) {
        const auto records = tail.after(from, batch);
        EXPECT_LE(records.size(), batch);
        if (records.empty()) {
            return rows;
        }
        for (const auto& r : records) {
            EXPECT_EQ(r.seq, from + 1);
            from = r.seq;
            rows.push_back(Row{r.seq, r.kind, journal::toHex(r.hash)});
        }
    }
}

TEST(JournalTail, FollowsEveryRecordInOrderAcrossRotationsAndTheGrowingActiveSegment) {
    test::JournalFixture f;
    f.table->ticketIn(1, 10'000, "1000000000000001");
    (void)f.playRound({{1, game::BetType::Banker, 500}}, "9S 2H KD 4C");
    f.rotate();
    (void)f.playRound({{1, game::BetType::Player, 300}}, "9S 2H KD 4C");
    f.rotate();
    journal::JournalTail tail(f.path);
    const std::vector<Row> first = follow(tail, 0, 7);
    EXPECT_EQ(first, everyRow(f.path));
    ASSERT_GT(first.size(), 20U);
    EXPECT_EQ(tail.lastSeq(), first.back().seq);
    EXPECT_EQ(tail.firstSeq(), 1);

    // The active segment grows, then rotates: the tail reads on from where it was.
    (void)f.playRound({{1, game::BetType::Tie, 100}}, "9S 2H KD 4C");
    const std::int64_t before = first.back().seq;
    std::vector<Row> more = follow(tail, before, 3);
    ASSERT_FALSE(more.empty());
    f.rotate();
    (void)f.playRound({{1, game::BetType::Banker, 100}}, "9S 2H KD 4C");
    const std::vector<Row> rest = follow(tail, more.back().seq, 1000);
    more.insert(more.end(), rest.begin(), rest.end());
    const std::vector<Row> all = everyRow(f.path);
    EXPECT_EQ(more, std::vector<Row>(all.begin() + static_cast<std::ptrdiff_t>(before), all.end()));
    EXPECT_EQ(tail.record(before + 1)->kind, more.front().kind);
    EXPECT_EQ(tail.after(all.back().seq, 10).size(), 0U);
}

TEST(JournalTail, ASignedJournalOpensWithoutItsKeyAndNamesItself) {
    journal::StoreOptions keyed;
    keyed.key = std::vector<std::uint8_t>(40, 0x5a);
    keyed.createdAtMs = 1'790'000'000'123;
    test::JournalFixture f(keyed);
    (void)f.playRound({}, "9S 2H KD 4C");
    f.rotate({}, keyed);
    journal::JournalTail tail(f.path);
    const journal::JournalIdentity id = tail.identity();
    EXPECT_EQ(id.chain, "hmac-sha256");
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(keyed.key->data(), keyed.key->size(), digest);
    journal::Digest d{};
    std::copy(std::begin(digest), std::end(digest), d.begin());
    EXPECT_EQ(id.keyFingerprint, journal::toHex(d));  // the key's SHA-256, never the key
    EXPECT_EQ(id.createdAtMs, journal::JournalStore(f.path, keyed).createdAtMs());
    EXPECT_EQ(follow(tail, 0, 100), everyRow(f.path));

    test::JournalFixture plain;
    EXPECT_EQ(journal::JournalTail(plain.path).identity().chain, "sha256");
    EXPECT_EQ(journal::JournalTail(plain.path).identity().keyFingerprint, "");
}

// A reader in group pitlink cannot write beside a sealed segment: it is read immutable, and
// nothing is made beside it.
TEST(JournalTail, ASealedSegmentIsReadWithoutAnythingMadeBesideIt) {
    test::JournalFixture f;
    (void)f.playRound({}, "9S 2H KD 4C");
    f.rotate();
    const fs::path sealed = journal::SegmentFiles(f.path).file(1);
    fs::remove(sealed.string() + "-shm");
    fs::remove(sealed.string() + "-wal");
    journal::JournalTail tail(f.path);
    EXPECT_EQ(tail.after(0, 3).size(), 3U);
    EXPECT_FALSE(fs::exists(sealed.string() + "-shm"));
    EXPECT_FALSE(fs::exists(sealed.string() + "-wal"));
}

TEST(JournalTail, ASegmentArchivedAwayIsAnErrorNotAGap) {
    test::JournalFixture f;
    (void)f.playRound({}, "9S 2H KD 4C");
    f.rotate();
    journal::JournalTail tail(f.path);
    ASSERT_EQ(tail.after(0, 1).size(), 1U);
    const std::int64_t secondStarts = rowsOf(journal::SegmentFiles(f.path).file(2).string()).front().seq;
    journal::SegmentFiles(f.path).remove(1);
    EXPECT_THROW((void)tail.after(0, 10), journal::JournalError);
    EXPECT_EQ(tail.record(1), std::nullopt);
    EXPECT_EQ(tail.firstSeq(), secondStarts);
    const auto records = tail.after(secondStarts - 1, 10);
    ASSERT_FALSE(records.empty());
    EXPECT_EQ(records.front().seq, secondStarts);
}

}  // namespace
}  // namespace pitlink

namespace pitlink {
namespace {

// The audit of records as they come (the floor's server, pitlink-floor-audit) reports what the
// audit of the journal's files reports, and stops at an edited record.
TEST(StreamAudit, AgreesWithTheJournalsOwnAuditAndFindsAnEdit) {
    test::JournalFixture f;
    f.table->ticketIn(1, 10'000, "1000000000000001");
    (void)f.playRound({{1, game::BetType::Banker, 500}}, "9S 2H KD 4C");
    f.rotate();
    (void)f.playRound({{1, game::BetType::Player, 300}}, "9S 2H KD 4C");
    journal::JournalTail tail(f.path);
    std::vector<journal::JournalRecord> records;
    for (auto batch = tail.after(0, 1000); !batch.empty(); batch = tail.after(records.back().seq, 1000)) {
        records.insert(records.end(), batch.begin(), batch.end());
    }
    journal::SegmentedJournal files(f.path, {});
    const journal::AuditReport expected = journal::auditJournal(files);
    ASSERT_TRUE(expected.ok());

    journal::StreamAudit stream(std::nullopt);
    for (const auto& r : records) {
        ASSERT_TRUE(stream.visit(r)) << r.seq;
    }
    const journal::AuditReport got = stream.finish();
    EXPECT_TRUE(got.ok());
    EXPECT_EQ(got.chain.checked, expected.chain.checked);
    EXPECT_EQ(got.snapshotsCompared, expected.snapshotsCompared);
    EXPECT_GE(got.snapshotsCompared, 1);
    EXPECT_EQ(got.roundsChecked, 2);
    EXPECT_EQ(got.ledger.toJson(), expected.ledger.toJson());

    journal::StreamAudit edited(std::nullopt);
    records[5].body += " ";
    for (const auto& r : records) {
        if (!edited.visit(r)) {
            break;
        }
    }
    const journal::AuditReport broken = edited.finish();
    EXPECT_FALSE(broken.ok());
    EXPECT_EQ(broken.chain.firstBadSeq, records[5].seq);
    EXPECT_EQ(broken.chain.checked, 5);
}

}  // namespace
}  // namespace pitlink
