// The audit with the segments read beside each other (auditJournal with threads > 1) reports what
// one pass over every record in order reports: the same records checked, meters, rounds, round
// problems and first bad record, whatever the journal holds; a segment that cannot be joined
// (its opening snapshot is not where the records before it left the meters) is read again.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>

#include "daemon/journal/read/audit.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/segments/segment_files.h"
#include "daemon/journal/store/journal_store.h"
#include "tests/unit/journal_fixture.h"

namespace pitlink {
namespace {

namespace fs = std::filesystem;
namespace kind = journal::kind;
using nlohmann::json;

journal::StoreOptions readOnly() {
    journal::StoreOptions options;
    options.readOnly = true;
    return options;
}

struct Rotating : test::JournalFixture {
    Rotating() {
        table->ticketIn(1, 100'000, "1000000000000001");
        table->ticketIn(2, 50'000, "1000000000000002");
    }
    std::int64_t play() {
        return playRound({{1, game::BetType::Banker, 500}, {2, game::BetType::Player, 300}}, "9S 2H KD 4C");
    }
    // A record the table did not make, chained as any other (what a faulty writer would leave).
    std::int64_t add(std::string_view k, std::optional<std::int64_t> station, const json& body,
                     std::optional<std::int64_t> round = std::nullopt) {
        return store
            ->append(std::vector<journal::PendingRecord>{
                {clockMs, std::string(k), round, station, journal::canonicalJson(body)}})
            .lastSeq;
    }
    // Segments of two rounds each; the active one is the last.
    void segments(int count) {
        for (int i = 0; i < count; ++i) {
            (void)play();
            (void)play();
            if (i + 1 < count) {
                rotate();
            }
        }
    }
    void close() {
        table.reset();
        journal.reset();
        sink.reset();
        store.reset();
    }
    // Edits the body of record `seq` in segment file number `segment` with SQL, links left as they were.
    void forge(std::uint32_t segment, std::int64_t seq, const std::string& body) {
        close();
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(journal::SegmentFiles(path).file(segment).c_str(), &db), SQLITE_OK);
        sqlite3_exec(db, "DROP TRIGGER record_is_append_only_update", nullptr, nullptr, nullptr);
        const std::string sql = "UPDATE record SET body = " + body + " WHERE seq = " + std::to_string(seq);
        EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
        EXPECT_EQ(sqlite3_changes(db), 1);
        sqlite3_close(db);
    }
};

// The report of one pass, after checking that every way of reading the segments beside each other
// gives the same.
journal::AuditReport audited(const std::string& path, int* readAgain = nullptr) {
    journal::SegmentedJournal inOrder(path, {});
    const journal::AuditReport one = journal::auditJournal(inOrder, 1);
    EXPECT_EQ(one.segmentsReadAgain, 0);
    for (const unsigned threads : {2U, 3U, 8U}) {
        journal::SegmentedJournal beside(path, {});
        const journal::AuditReport many = journal::auditJournal(beside, threads);
        EXPECT_EQ(journal::auditReportJson(many).dump(), journal::auditReportJson(one).dump()) << threads << " threads";
        if (readAgain != nullptr) {
            *readAgain = many.segmentsReadAgain;
        }
    }
    return one;
}

TEST(AuditBesideEachOther, ASoundJournalIsJoinedWithoutReadingAnySegmentAgain) {
    Rotating f;
    f.segments(5);
    const std::int64_t tip = f.store->tipSeq();
    f.close();
    int readAgain = -1;
    const journal::AuditReport report = audited(f.path, &readAgain);
    EXPECT_TRUE(report.ok()) << report.chain.problem;
    EXPECT_EQ(report.chain.checked, tip);
    EXPECT_EQ(report.roundsChecked, 10);
    EXPECT_GE(report.snapshotsCompared, 4);  // each later segment's opening snapshot
    EXPECT_EQ(readAgain, 0);
    // Two tickets in, ten rounds of a banker bet of 500 and a player bet of 300 on the same coup
    // (9S 2H | KD 4C: player 9 against banker 6): station 1 loses 500 a round, station 2 wins 300.
    EXPECT_EQ(report.ledger.credits(1), 100'000 - 10 * 500);
    EXPECT_EQ(report.ledger.credits(2), 50'000 + 10 * 300);
}

// A bet written into the round the segment before ended with, before the segment's first round:
// only the segment before knows that round, so the segment read on its own cannot place the bet;
// joined, it is placed there and found never settled, as one pass finds it.
TEST(AuditBesideEachOther, ARecordOfARoundOfTheSegmentBeforeIsPlacedWhenJoined) {
    Rotating f;
    f.segments(2);
    const std::int64_t last = f.play();
    f.rotate();
    (void)f.add(kind::kBetAccepted, 1, json{{"action", "bet"}, {"bet", 99}, {"spot", "banker"}, {"stake", 100}}, last);
    (void)f.add(kind::kCardDealt, std::nullopt, json{{"card", "AS"}, {"to", "player"}}, last - 1);  // placed nowhere
    (void)f.play();
    f.rotate();
    (void)f.play();
    f.close();
    int readAgain = -1;
    const journal::AuditReport report = audited(f.path, &readAgain);
    EXPECT_TRUE(report.chain.ok) << report.chain.problem;
    ASSERT_EQ(report.roundProblems.size(), 1U);
    EXPECT_EQ(report.roundProblems[0], "round " + std::to_string(last) + ": bet 99 was never settled");
    EXPECT_EQ(readAgain, 0);
}

// The same record with a stake the audit refuses: one pass stops at it. Read beside, the segment
// cannot check it (it does not know the round); joining it meets the refusal, so the segment is
// read again in order and the audit stops at the same record, rather than failing as a whole.
TEST(AuditBesideEachOther, ARefusedRecordOfARoundOfTheSegmentBeforeStopsTheAuditAsInOnePass) {
    Rotating f;
    f.segments(2);
    const std::int64_t last = f.play();
    f.rotate();
    const std::int64_t bad =
        f.add(kind::kBetAccepted, 1, json{{"action", "bet"}, {"bet", 99}, {"spot", "banker"}, {"stake", 0}}, last);
    (void)f.play();
    f.close();
    int readAgain = -1;
    const journal::AuditReport report = audited(f.path, &readAgain);
    ASSERT_FALSE(report.chain.ok);
    EXPECT_EQ(report.chain.firstBadSeq, bad);
    EXPECT_NE(report.chain.problem.find("\"stake\""), std::string::npos) << report.chain.problem;
    EXPECT_EQ(readAgain, 1);
}

// A record the ledger counts written without the table knowing: the next segment's opening snapshot
// is not what the records say. One pass stops there; the segment read beside is read again in
// order and stops there too. The round problem before it is reported, the one after it is not.
TEST(AuditBesideEachOther, ASnapshotTheRecordsDoNotReachIsFoundAsInOnePass) {
    Rotating f;
    f.segments(2);
    const std::int64_t early = f.play();
    (void)f.add(kind::kBetAccepted, 2, json{{"action", "bet"}, {"bet", 7}, {"spot", "player"}, {"stake", 100}}, early);
    (void)f.play();
    (void)f.add(kind::kDoorOpened, 1, json{{"door", "main"}});
    f.rotate();
    const std::int64_t opening = f.store->firstSeq();
    const std::int64_t late = f.play();
    (void)f.add(kind::kBetAccepted, 2, json{{"action", "bet"}, {"bet", 8}, {"spot", "player"}, {"stake", 100}}, late);
    f.segments(2);
    f.close();
    int readAgain = -1;
    const journal::AuditReport report = audited(f.path, &readAgain);
    ASSERT_FALSE(report.chain.ok);
    EXPECT_GT(report.chain.firstBadSeq.value_or(0), opening);  // its opening snapshot, after the seal
    EXPECT_NE(report.chain.problem.find("door_opens"), std::string::npos) << report.chain.problem;
    ASSERT_EQ(report.roundProblems.size(), 1U);
    EXPECT_EQ(report.roundProblems[0], "round " + std::to_string(early) + ": bet 7 was never settled");
    EXPECT_EQ(readAgain, 1);
}

TEST(AuditBesideEachOther, AnEditedRecordOrSealIsFoundAtTheSameRecord) {
    for (const bool seal : {false, true}) {
        Rotating f;
        f.segments(4);
        f.close();
        const journal::SegmentFiles files(f.path);
        const std::int64_t first = journal::JournalStore(files.file(3), readOnly()).firstSeq();
        const std::int64_t seq = seal ? first : first + 20;
        f.forge(3, seq,
                seal ? "replace(body, substr(json_extract(body, '$.last_hash'), 1, 8), '00000000')"
                     : "json_set(body, '$.forged', 1)");
        const journal::AuditReport report = audited(f.path);
        ASSERT_FALSE(report.chain.ok);
        EXPECT_EQ(report.chain.firstBadSeq, seq) << report.chain.problem;
        EXPECT_EQ(report.chain.checked, seq - 1);
    }
}

// A row put into a sealed segment below its first record (a station's state, which a start-up's
// scan of the segment would read): outside the chain, and found there, by every way of reading.
TEST(AuditBesideEachOther, ARowStoredBelowASegmentsFirstRecordIsFound) {
    Rotating f;
    f.segments(4);
    f.close();
    const journal::SegmentFiles files(f.path);
    const std::int64_t first = journal::JournalStore(files.file(2), readOnly()).firstSeq();
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(files.file(2).c_str(), &db), SQLITE_OK);
    const std::string sql = "INSERT INTO record (seq, at_ms, kind, round_id, station, body, hash) VALUES (" +
                            std::to_string(first - 3) + ", 0, 'station.state', NULL, 1, '{}', zeroblob(32))";
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    const journal::AuditReport report = audited(f.path);
    ASSERT_FALSE(report.chain.ok);
    EXPECT_EQ(report.chain.firstBadSeq, first - 3) << report.chain.problem;
    EXPECT_NE(report.chain.problem.find("stored before the first record"), std::string::npos) << report.chain.problem;
}

// The oldest segment archived away: the audit starts at the first snapshot of what is left.
TEST(AuditBesideEachOther, AJournalWithoutItsOldestSegmentIsAuditedFromItsFirstSnapshot) {
    Rotating f;
    f.segments(4);
    const std::int64_t tip = f.store->tipSeq();
    f.close();
    const journal::SegmentFiles files(f.path);
    const std::int64_t from = journal::JournalStore(files.file(2), readOnly()).firstSeq();
    fs::remove(files.file(1));
    const journal::AuditReport report = audited(f.path);
    EXPECT_TRUE(report.ok()) << report.chain.problem;
    EXPECT_EQ(report.chain.from, from);
    EXPECT_EQ(report.chain.checked, tip - from + 1);
    EXPECT_EQ(report.roundsChecked, 6);
}

}  // namespace
}  // namespace pitlink

namespace pitlink {
namespace {

// A segment sealed before issue 38 carried its shoe without the burn's face-down cards: it still
// matches the facts its records now give, which name them; a carried list that differs does not.
TEST(CarriedState, AShoeCarriedWithoutItsFaceDownBurnStillMatchesOneWithThemDoesNot) {
    const json shoe{{"shoe", 3},      {"decks", 8},          {"round_in_shoe", 2},
                    {"burned", true}, {"left", {{"AS", 7}}}, {"results", {"B", "P"}}};
    json facts{{"shoe", shoe}, {"other_games", {{"b", {{"shoe", shoe}}}}}};
    facts["shoe"]["burn_hidden"] = {"5C"};
    facts["other_games"]["b"]["shoe"]["burn_hidden"] = {"KD", "2H"};
    const json old{{"shoe", shoe}, {"other_games", {{"b", {{"shoe", shoe}}}}}};
    EXPECT_TRUE(journal::carriedMatches(old, facts));
    EXPECT_TRUE(journal::carriedMatches(facts, facts));
    json wrong = facts;
    wrong["shoe"]["burn_hidden"] = {"6C"};
    EXPECT_FALSE(journal::carriedMatches(wrong, facts));
    wrong = facts;
    wrong["other_games"]["b"]["shoe"]["burn_hidden"] = {"KD"};
    EXPECT_FALSE(journal::carriedMatches(wrong, facts));
    json otherLeft = old;
    otherLeft["shoe"]["left"]["AS"] = 6;  // the rest is still compared
    EXPECT_FALSE(journal::carriedMatches(otherLeft, facts));
    // Before issue 33 no shoe was carried at all.
    json noShoe = old;
    noShoe.erase("shoe");
    EXPECT_TRUE(journal::carriedMatches(noShoe, facts));
}

}  // namespace
}  // namespace pitlink
