// Journal segments (schema/README.md "Segments"): a rotation seals the active segment and opens
// the next with what a start-up resumes, chained on; a start-up on the new segment alone resumes
// what the whole journal says; a rotation that died half-way is tidied at the next start.
#include "daemon/journal/segments/segment_rotation.h"

#include <gtest/gtest.h>
#include <openssl/sha.h>
#include <sqlite3.h>

#include <filesystem>
#include <functional>
#include <set>
#include <sstream>

#include "daemon/app/segment_carry.h"
#include "daemon/journal/read/audit.h"
#include "daemon/journal/read/journal_export.h"
#include "daemon/journal/read/recall.h"
#include "daemon/journal/read/tip_report.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/station_state.h"
#include "daemon/journal/recovery.h"
#include "daemon/journal/resettlement.h"
#include "daemon/journal/resume_facts.h"
#include "daemon/journal/store/chain_verifier.h"
#include "daemon/sas/sas_resume.h"
#include "tests/unit/fixtures.h"
#include "tests/unit/journal_fixture.h"

namespace pitlink {
namespace {

namespace fs = std::filesystem;
namespace kind = journal::kind;
using nlohmann::json;

// A journal with a bit of everything a start-up resumes: rounds, tickets, a hand-pay lock, an
// attendant call, the host's clock, SAS exceptions (one acknowledged), a validation ID.
struct Segmented : test::JournalFixture {
    Segmented() {
        table->ticketIn(1, 10'000, "1000000000000001");
        table->ticketIn(2, 5'000, "1000000000000002");
        (void)playRound({{1, game::BetType::Banker, 500}, {2, game::BetType::Player, 300}}, "9S 2H KD 4C");
        add(kind::kShoeStarted, std::nullopt, json{{"shoe", 7}, {"decks", 8}, {"source", "reader"}});
        add(kind::kTicketIssued, 1, json{{"validation", "0012345678901234"}, {"amount", 2500}});
        add(kind::kTicketIssued, 2, json{{"validation", "0012345678901235"}, {"amount", 700}});
        add(kind::kHandpayPending, 2, json{{"amount", 150'000}, {"kind", "jackpot"}, {"off_credits", true}});
        add(kind::kAttendantCalled, 1, json{{"by", "station"}});
        add(kind::kAttendantCalled, 2, json{{"by", "station"}});
        add(kind::kAttendantCleared, 2, json{{"by", "floor"}});
        add(kind::kClockSet, 1, json{{"from_ms", 1}, {"to_ms", 4'001}, {"offset_ms", 4'000}});
        add(kind::kSasException, 1, json{{"code", 0x7E}, {"serial", 1}});
        add(kind::kSasException, 1, json{{"code", 0x7F}, {"serial", 2}, {"data", "00000195"}});
        add(kind::kSasAcked, 1, json{{"acked", json::array({json{{"code", 0x7E}, {"serial", 1}}})}});
        add(kind::kSasValidationId, 2, json{{"machine_id", 0x654321}, {"sequence", 9}});
        add(kind::kSasHostEnabled, 2, json{{"enabled", false}});
        journal::StationState kept;
        kept.lastSlip[game::BetType::Banker] = 500;
        kept.streak = game::LosingStreak{2, 500};
        kept.limitLevel = 3;
        kept.personal.max = 4'000;
        add(kind::kStationState, 3, journal::stationStateJson(kept));
        // Station 2's dispute of round 1 is open; station 3's was resolved. Station 4 is reserved
        // with a PIN; station 5 was, and was released.
        add(kind::kDisputeRaised, 2, json{{"text", "the banker's card was a 9"}, {"held", true}}, 1);
        add(kind::kDisputeRaised, 3, json{{"text", "misdeal"}, {"held", true}}, 1);
        // A dispute noted before issue 20 (no "held") holds nothing.
        add(kind::kDisputeRaised, 1, json{{"text", "an old note"}}, 1);
        add(kind::kDisputeResolved, 3,
            json{{"decision", "rejected"}, {"reason", "video"}, {"by", "carol"}, {"resettled", false}}, 1);
        add(kind::kStationReserved, 4,
            json{{"reserved", true}, {"until_ms", 1'795'000'600'000}, {"pin_sha256", "00ff"}, {"by", "station"}});
        add(kind::kStationReserved, 5, json{{"reserved", true}, {"until_ms", 1'795'000'600'000}, {"by", "station"}});
        add(kind::kStationReserved, 5, json{{"reserved", false}, {"by", "timeout"}});
    }
    void add(std::string_view k, std::optional<std::int64_t> station, const json& body,
             std::optional<std::int64_t> round = std::nullopt) {
        store->append(std::vector<journal::PendingRecord>{
            {clockMs, std::string(k), round, station, journal::canonicalJson(body)}});
    }
    // Closes the journal and forges the body of record `seq` of segment 2 with SQL (`body` an
    // expression of the old one), as someone with the file and sqlite3 could: the triggers
    // dropped, the link left as it was. Returns how many rows changed.
    int forge(std::int64_t seq, const std::string& body) {
        store.reset();
        sink.reset();
        journal.reset();
        table.reset();
        sqlite3* db = nullptr;
        sqlite3_open(journal::SegmentFiles(path).file(2).c_str(), &db);
        sqlite3_exec(db, "DROP TRIGGER record_is_append_only_update", nullptr, nullptr, nullptr);
        const std::string sql = "UPDATE record SET body = " + body + " WHERE seq = " + std::to_string(seq);
        const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
        const int changed = rc == SQLITE_OK ? sqlite3_changes(db) : -rc;
        sqlite3_close(db);
        return changed;
    }
    // Everything a start-up resumes, as one JSON value to compare.
    json resumed() {
        const journal::ResumeFacts facts = journal::resumeFacts(*store);
        const sas::SasResume sas = sas::resumeSas(*store);
        json queues = json::object();
        for (const auto& [station, pending] : sas.exceptions) {
            for (const auto& e : pending) {
                queues[std::to_string(station)].push_back(sas::exceptionJson(e));
            }
        }
        return json{{"table", journal::resumeFactsJson(facts)}, {"sas", sas::sasResumeJson(sas)}, {"queues", queues}};
    }
};

// SHA-256 of the canonical text, hex: an own implementation of the chain's link for checks.
std::string linkHex(const std::string& previousHex, const std::string& canonical) {
    std::string bytes;
    for (std::size_t i = 0; i < previousHex.size(); i += 2) {
        bytes.push_back(static_cast<char>(std::stoi(previousHex.substr(i, 2), nullptr, 16)));
    }
    bytes += canonical;
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    for (const unsigned char b : digest) {
        hex.push_back(kHex[b >> 4U]);
        hex.push_back(kHex[b & 0x0FU]);
    }
    return hex;
}

// Rows of a segment file read with sqlite3 itself: seq, canonical text, hash (hex).
struct Row {
    std::int64_t seq;
    std::string kind;
    std::string canonical;
    std::string hash;
};
std::vector<Row> rowsOf(const fs::path& file) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "SELECT seq, at_ms, kind, round_id, station, body, hex(hash) FROM record ORDER BY seq", -1,
                       &st, nullptr);
    std::vector<Row> rows;
    const auto text = [&](int c) {
        const auto* t = sqlite3_column_text(st, c);
        return t == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(t));
    };
    while (sqlite3_step(st) == SQLITE_ROW) {
        std::string hash = text(6);
        for (char& c : hash) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        rows.push_back(Row{sqlite3_column_int64(st, 0), text(2),
                           text(0) + "\t" + text(1) + "\t" + text(2) + "\t" + text(3) + "\t" + text(4) + "\t" + text(5),
                           hash});
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rows;
}

TEST(SegmentRotation, TheNewSegmentAloneResumesWhatTheWholeJournalSays) {
    Segmented f;
    const json before = f.resumed();
    // Sanity of the fixture: the values the comparison is about are really there.
    ASSERT_EQ(before["table"]["tickets_issued"], 2);
    ASSERT_EQ(before["table"]["clock_offset_ms"], 4000);
    ASSERT_EQ(before["table"]["attendant_calls"], json::array({1}));
    ASSERT_TRUE(before["table"]["handpays"].contains("2"));
    ASSERT_EQ(before["queues"]["1"].size(), 1U);
    ASSERT_EQ(before["table"]["stations"]["3"]["limit_level"], 3);
    ASSERT_EQ(before["table"]["stations"]["3"]["streak"]["losses"], 2);
    ASSERT_EQ(before["table"]["disputes"], json::parse(R"({"2": {"round": 1, "text": "the banker's card was a 9"}})"));
    ASSERT_EQ(before["table"]["reserved"],
              json::parse(R"({"4": {"reserved": true, "until_ms": 1795000600000, "pin_sha256": "00ff"}})"));
    const journal::Money credits1 = f.journal->committed().credits(1);

    f.rotate();
    const journal::SegmentFiles files(f.path);
    ASSERT_EQ(files.active(), 2U);
    EXPECT_EQ(files.sealed(), std::vector<std::uint32_t>{1});
    EXPECT_TRUE(fs::is_symlink(f.path));
    EXPECT_EQ(f.resumed(), before);

    // The restart on it (rotate() reopens): the ledger back from its opening snapshot, the chain
    // checked from its seal.
    ASSERT_TRUE(f.recovery->ok()) << *f.recovery->tilt;
    EXPECT_EQ(f.recovery->ledger.credits(1), credits1);
    EXPECT_EQ(f.recovery->chain.from, f.store->firstSeq());
    EXPECT_EQ(f.resumed()["table"]["tickets_issued"], 2);
}

TEST(SegmentRotation, TheChainRunsOnAcrossSegmentsAsAnInspectorComputesIt) {
    Segmented f;
    f.rotate();
    (void)f.playRound({{1, game::BetType::Player, 100}}, "9S 2H KD 4C");
    f.rotate();
    (void)f.playRound({{2, game::BetType::Banker, 100}}, "9S 2H KD 4C");
    const journal::SegmentFiles files(f.path);
    ASSERT_EQ(files.active(), 3U);

    // Segments in order of their numbers, concatenated: one chain from 32 zero bytes.
    std::string previous(64, '0');
    std::int64_t expected = 1;
    for (const std::uint32_t n : {1U, 2U, 3U}) {
        const auto rows = rowsOf(files.file(n));
        ASSERT_FALSE(rows.empty());
        if (n > 1) {
            ASSERT_EQ(rows.front().kind, "segment.sealed");
            const json seal = json::parse(rows.front().canonical.substr(rows.front().canonical.rfind('\t') + 1));
            EXPECT_EQ(seal["last_hash"], previous);  // the sealed segment's last link
            EXPECT_EQ(seal["last_seq"], expected - 1);
            EXPECT_EQ(seal["segment"], n - 1);
        }
        for (const Row& row : rows) {
            ASSERT_EQ(row.seq, expected) << "segment " << n;
            previous = linkHex(previous, row.canonical);
            ASSERT_EQ(row.hash, previous) << "record " << row.seq << " in segment " << n;
            ++expected;
        }
    }
    EXPECT_EQ(expected - 1, f.store->tipSeq());
}

TEST(SegmentRotation, ASealedSegmentIsNeverWrittenAgain) {
    Segmented f;
    f.rotate();
    const journal::SegmentFiles files(f.path);
    const std::string sealed = test::fileBytes(files.file(1));
    (void)f.playRound({{1, game::BetType::Player, 100}}, "9S 2H KD 4C");
    f.reopen();
    ASSERT_TRUE(f.recovery->ok());
    (void)f.playRound({{1, game::BetType::Player, 100}}, "9S 2H KD 4C");
    EXPECT_EQ(test::fileBytes(files.file(1)), sealed);
    EXPECT_FALSE(fs::exists(files.file(1).string() + "-wal"));
}

TEST(SegmentRotation, ARotationThatDiedBeforeTheLinkMovedIsUndoneAtTheNextStart) {
    Segmented f;
    const std::int64_t tip = f.store->tipSeq();
    const json before = f.resumed();
    struct Died {};
    EXPECT_THROW(f.rotate([](std::string_view step) {
        if (step == "written") {
            throw Died{};
        }
    }),
                 Died);
    const journal::SegmentFiles files(f.path);
    ASSERT_TRUE(fs::exists(files.file(2)));  // the orphan, opening records only
    EXPECT_TRUE(files.singleFile());
    f.store.reset();
    const auto actions = journal::tidySegments(f.path, {});
    ASSERT_EQ(actions.size(), 1U);
    EXPECT_NE(actions[0].find("removed segment 2"), std::string::npos);
    EXPECT_FALSE(fs::exists(files.file(2)));
    f.reopen();
    ASSERT_TRUE(f.recovery->ok());
    EXPECT_EQ(f.recovery->chain.checked > 0, true);
    EXPECT_EQ(f.store->tipSeq(), tip + 1);  // journal.checked of the restart, nothing else
    EXPECT_EQ(f.resumed(), before);
    f.rotate();  // and it rotates again
    EXPECT_EQ(files.active(), 2U);
}

TEST(SegmentRotation, AJournalMovedButNotLinkedIsLinkedAtTheNextStart) {
    Segmented f;
    f.rotate();
    const journal::SegmentFiles files(f.path);
    f.store.reset();
    fs::remove(f.path);  // the power went between the move and the link
    const auto actions = journal::tidySegments(f.path, {});
    ASSERT_EQ(actions.size(), 1U);
    EXPECT_EQ(files.active(), 2U);
    f.reopen();
    ASSERT_TRUE(f.recovery->ok());
}

TEST(SegmentRotation, AFileBeyondTheActiveSegmentWithFactsInItIsNotRemoved) {
    Segmented f;
    f.rotate();
    const journal::SegmentFiles files(f.path);
    fs::copy_file(files.file(1), files.file(3));  // credits, rounds: not an orphan of a rotation
    f.store.reset();
    EXPECT_THROW((void)journal::tidySegments(f.path, {}), journal::JournalError);
    EXPECT_TRUE(fs::exists(files.file(3)));
}

TEST(SegmentRotation, AnEditedCarriedStateFailsTheStartUpCheck) {
    Segmented f;
    f.rotate();
    const auto first = f.store->firstSeq();
    ASSERT_EQ(f.forge(first + 1, "replace(body, '\"tickets_issued\":2', '\"tickets_issued\":1')"), 1);
    try {
        f.reopen();
        FAIL() << "the edited carried state was resumed";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find("record " + std::to_string(first + 1)), std::string::npos)
            << error.what();
    }
}

}  // namespace
}  // namespace pitlink

namespace pitlink {
namespace {

// The same table twice, one journal rotated into segments and one left whole: every reader must
// answer both alike.
struct Twins {
    Segmented rotated;
    Segmented whole;
    void both(const std::function<void(Segmented&)>& play) {
        play(rotated);
        play(whole);
    }
    void rotateOne() {
        rotated.rotate();
        whole.reopen();  // the same restart, without the rotation
    }
};

// A reader's records without what only the segmented journal holds (its opening records), without
// sequence numbers and links (they shift by those records) and without the start-up verdicts
// (journal.checked says where its chain check began: the segment's start).
json facts(const std::vector<journal::JournalRecord>& records) {
    json out = json::array();
    for (const auto& r : records) {
        if (!journal::isOpeningKind(r.kind) && r.kind != "journal.checked") {
            out.push_back(json{{"kind", r.kind}, {"round", r.roundId.value_or(-1)}, {"body", r.body}});
        }
    }
    return out;
}

TEST(SegmentedJournal, EveryReaderAnswersAcrossSegmentsAsOnOneFile) {
    Twins t;
    std::vector<std::int64_t> rounds;
    for (int segment = 0; segment < 3; ++segment) {
        t.both([&](Segmented& f) {
            f.table->startShoe(10 + segment);
            f.table->tip(1, 25 + segment);
            for (int r = 0; r < 4; ++r) {
                const auto id = f.playRound({{1 + r % 2, game::BetType::Banker, 100 + 100 * r}}, "9S 2H KD 4C");
                if (&f == &t.rotated) {
                    rounds.push_back(id);
                }
            }
        });
        t.rotateOne();
    }
    ASSERT_EQ(journal::SegmentFiles(t.rotated.path).active(), 4U);
    journal::SegmentedJournal segmented(t.rotated.path, {});
    journal::SegmentedJournal single(t.whole.path, {});
    ASSERT_EQ(segmented.size(), 4U);
    ASSERT_EQ(single.size(), 1U);

    // Recall: the last rounds (they span three segments), a station's, one round of the first.
    const auto recall = [](journal::SegmentedJournal& j, std::optional<std::int64_t> station) {
        json out = json::array();
        for (const auto& r : journal::recallRounds(j, 10, station)) {
            out.push_back(journal::recalledRoundJson(r));
        }
        return out;
    };
    const json last10 = recall(segmented, std::nullopt);
    ASSERT_EQ(last10.size(), 10U);
    EXPECT_EQ(last10[0]["round"], rounds.back());
    EXPECT_EQ(last10[9]["round"], rounds[rounds.size() - 10]);
    EXPECT_EQ(last10, recall(single, std::nullopt));
    EXPECT_EQ(recall(segmented, 2), recall(single, 2));
    EXPECT_EQ(journal::recalledRoundJson(journal::recallRound(segmented, rounds.front())),
              journal::recalledRoundJson(journal::recallRound(single, rounds.front())));

    // Roads of a past shoe, export of a range of rounds, the tip report.
    EXPECT_EQ(journal::roundsOfShoe(segmented, 10),
              (std::vector<std::int64_t>{rounds[0], rounds[1], rounds[2], rounds[3]}));
    EXPECT_EQ(journal::roundsOfShoe(segmented, 11), journal::roundsOfShoe(single, 11));
    std::ostringstream a;
    std::ostringstream b;
    const journal::ExportRange range{rounds[2], rounds[9], {}, {}, {}};
    // The segmented export holds the segments' opening records besides: compared without them.
    EXPECT_GT(journal::exportJournal(segmented, range, journal::ExportFormat::JsonLines, a),
              journal::exportJournal(single, range, journal::ExportFormat::JsonLines, b));
    const auto exported = [](const std::string& lines) {
        std::vector<journal::JournalRecord> records;
        std::istringstream in(lines);
        for (std::string line; std::getline(in, line);) {
            const json j = json::parse(line);
            journal::JournalRecord r;
            r.kind = j["kind"];
            r.roundId = j["round_id"].is_null() ? std::nullopt : std::optional<std::int64_t>(j["round_id"]);
            r.body = j["body"].dump();
            records.push_back(r);
        }
        return facts(records);
    };
    const json left = exported(a.str());
    const json right = exported(b.str());
    for (std::size_t i = 0; i < std::max(left.size(), right.size()); ++i) {
        ASSERT_EQ(i < left.size() ? left[i] : json(), i < right.size() ? right[i] : json()) << "record " << i;
    }
    const json records = exported(a.str());
    EXPECT_EQ(std::count_if(records.begin(), records.end(), [](const json& r) { return r["round"] != -1; }),
              8 * 11);  // eight rounds of 11 records, and what happened between them
    const auto tips = [](journal::SegmentedJournal& j) {
        json out = json::array();
        for (const auto& p : journal::tipReport(j, 0, INT64_MAX, 86'400'000)) {
            out.push_back(json{{"start", p.startMs}, {"amount", p.total.amount}, {"count", p.total.count}});
        }
        return out;
    };
    EXPECT_EQ(tips(segmented), tips(single));
    EXPECT_EQ(tips(segmented)[0]["amount"], 25 + 26 + 27);

    // The audit: the whole chain and every meter across the seals, the same ledger as one file.
    const journal::AuditReport audit = journal::auditJournal(segmented);
    ASSERT_TRUE(audit.ok()) << audit.chain.problem;
    EXPECT_EQ(audit.chain.checked, t.rotated.store->tipSeq());
    EXPECT_EQ(audit.roundsChecked, 13);  // the fixture's own first round too
    EXPECT_EQ(audit.ledger.toJson(), journal::auditJournal(single).ledger.toJson());
    EXPECT_GE(audit.snapshotsCompared, 3);  // each segment's opening snapshot among them
}

TEST(SegmentedJournal, ARoundReSettledInALaterSegmentIsReadWhole) {
    Segmented f;
    const std::int64_t round = f.playRound({{1, game::BetType::Player, 100}}, "9S 2H KD 4C");
    f.rotate();
    f.store->append(std::vector<journal::PendingRecord>{{f.clockMs, std::string(journal::kind::kRoundResettled), round,
                                                         std::nullopt, R"({"reason":"misread","step":1})"}});
    journal::SegmentedJournal segmented(f.path, {});
    const auto records = segmented.recordsOfRound(round);
    ASSERT_FALSE(records.empty());
    EXPECT_EQ(records.front().kind, "round.opened");
    EXPECT_EQ(records.back().kind, "round.resettled");
    EXPECT_EQ(segmented.segmentOfRound(round), 0U);
    EXPECT_EQ(segmented.segmentOfRound(round + 1), std::nullopt);
}

// A segment whose only round records re-settle a round of a segment before it: the journal's last
// round is still the newest one (a restart must not number a new round as an old one).
TEST(SegmentRotation, AReSettlementOfAnOlderRoundDoesNotLowerTheLastRound) {
    Segmented f;
    const std::int64_t old = f.playRound({{1, game::BetType::Player, 100}}, "9S 2H KD 4C");
    const std::int64_t newest = f.playRound({{1, game::BetType::Player, 100}}, "9S 2H KD 4C");
    ASSERT_GT(newest, old);
    f.rotate();
    f.store->append(std::vector<journal::PendingRecord>{{f.clockMs, std::string(journal::kind::kRoundResettled), old,
                                                         std::nullopt, R"({"reason":"misread","step":1})"}});
    const journal::ResumeFacts facts = journal::resumeFacts(*f.store);
    EXPECT_EQ(facts.lastRoundId, newest);
    EXPECT_EQ(facts.gameLastRound, newest);  // one game: the game's last round is the journal's
}

TEST(SegmentedJournal, TheAuditFindsASealThatDoesNotNameTheSegmentBeforeIt) {
    // The seal's last link, then the carried state (each re-linked by whoever forged it would not
    // help: the links are checked from the seal on, and the seal against the segment before).
    const std::vector<std::pair<int, std::string>> edits{
        {0, "replace(body, substr(json_extract(body, '$.last_hash'), 1, 8), '00000000')"},
        {1, "replace(body, '\"tickets_issued\":2', '\"tickets_issued\":3')"}};
    for (const auto& [offset, edit] : edits) {
        Segmented f;
        f.rotate();
        const std::int64_t first = f.store->firstSeq();
        ASSERT_EQ(f.forge(first + offset, edit), 1) << edit;
        journal::SegmentedJournal segmented(f.path, {});
        const journal::AuditReport audit = journal::auditJournal(segmented);
        EXPECT_FALSE(audit.ok()) << edit;
        EXPECT_EQ(audit.chain.firstBadSeq, first) << edit << ": " << audit.chain.problem;
    }
}

}  // namespace
}  // namespace pitlink

namespace pitlink {
namespace {

// A journal made before segments (schema versions 1 to 3, written by the independent Python
// fixture writer) is migrated, rotated (it becomes segment 1), and reads the same afterwards.
TEST(SegmentRotation, AnOldSingleFileJournalBecomesSegmentOneAndReadsTheSame) {
    for (const std::string name : {"v1.db", "v2.db", "v3.db"}) {
        test::TempDir dir;
        const std::string path = (dir.path() / "journal.db").string();
        fs::copy_file(fs::path(PITLINK_FIXTURES_DIR) / "journal" / name, path);
        auto store = std::make_unique<journal::JournalStore>(path, journal::StoreOptions{});
        const auto report =
            journal::recover(*store, journal::RecoveryOptions{true, true}, [] { return 1'795'000'000'000; });
        ASSERT_TRUE(report.ok()) << name << ": " << *report.tilt;
        json before;
        {
            journal::SegmentedJournal single(*store);
            for (const auto& r : journal::recallRounds(single, 100)) {
                before.push_back(journal::recalledRoundJson(r));
            }
        }
        ASSERT_FALSE(before.empty()) << name;
        const std::int64_t tip = store->tipSeq();

        journal::SegmentRotation rotation(path, {}, app::carryOver);
        const std::vector<journal::PendingRecord> opening{{1'795'000'000'000, std::string(kind::kMetersSnapshot),
                                                           std::nullopt, std::nullopt,
                                                           journal::canonicalJson(report.ledger.toJson())}};
        journal::AppendResult result;
        store = rotation.rotate(store, opening, result);
        EXPECT_EQ(result.firstSeq, tip + 1) << name;
        const journal::SegmentFiles files(path);
        EXPECT_EQ(files.active(), 2U) << name;
        EXPECT_TRUE(fs::exists(files.file(1))) << name;  // the old file, moved, not copied
        EXPECT_FALSE(fs::exists(path + "-wal")) << name;

        journal::SegmentedJournal segmented(path, {});
        json after;
        for (const auto& r : journal::recallRounds(segmented, 100)) {
            after.push_back(journal::recalledRoundJson(r));
        }
        EXPECT_EQ(after, before) << name;
        const journal::AuditReport audit = journal::auditJournal(segmented);
        EXPECT_TRUE(audit.ok()) << name << ": " << audit.chain.problem;
        EXPECT_EQ(audit.chain.checked, store->tipSeq()) << name;
        EXPECT_EQ(audit.ledger.toJson(), report.ledger.toJson()) << name;
    }
}

}  // namespace
}  // namespace pitlink

namespace pitlink {
namespace {

// A journal signed with an HMAC key: the next segment is signed with it too, and is read and
// audited with the key only.
TEST(SegmentRotation, ASignedJournalsSegmentsAreSignedWithTheSameKey) {
    journal::StoreOptions keyed;
    keyed.key = std::vector<std::uint8_t>(32, 0x5a);
    test::JournalFixture f(keyed);
    f.table->ticketIn(1, 1'000, "1000000000000001");
    (void)f.playRound({{1, game::BetType::Banker, 100}}, "9S 2H KD 4C");
    journal::SegmentRotation rotation(f.path, keyed, app::carryOver);
    const std::vector<journal::PendingRecord> opening{{f.clockMs, std::string(kind::kMetersSnapshot), std::nullopt,
                                                       std::nullopt,
                                                       journal::canonicalJson(f.journal->committed().toJson())}};
    journal::AppendResult result;
    f.table.reset();
    f.journal.reset();
    f.sink.reset();
    f.store = rotation.rotate(f.store, opening, result);
    f.store.reset();

    journal::SegmentedJournal signedJournal(f.path, keyed);
    const journal::AuditReport audit = journal::auditJournal(signedJournal);
    EXPECT_TRUE(audit.ok()) << audit.chain.problem << " at " << audit.chain.firstBadSeq.value_or(0) << "; "
                            << (audit.roundProblems.empty() ? "" : audit.roundProblems.front());
    EXPECT_EQ(audit.chain.checked, result.lastSeq);
    EXPECT_THROW(journal::SegmentedJournal(f.path, journal::StoreOptions{}), journal::JournalError);
    journal::StoreOptions otherKey;
    otherKey.key = std::vector<std::uint8_t>(32, 0x11);
    EXPECT_THROW(journal::SegmentedJournal(f.path, otherKey), journal::JournalError);
    // The new segment's links are HMACs: the unkeyed SHA-256 formula does not give them.
    const auto rows = rowsOf(journal::SegmentFiles(f.path).file(2));
    ASSERT_GE(rows.size(), 2U);
    EXPECT_NE(linkHex(rows[0].hash, rows[1].canonical), rows[1].hash);
}

}  // namespace
}  // namespace pitlink

namespace pitlink {
namespace {

// A carried reservation that says "released" locks nothing; an open dispute and a live
// reservation read back as written.
TEST(CarriedState, ReservationsAndDisputesReadBackAndAReleaseCarriesNothing) {
    const nlohmann::json table = nlohmann::json::parse(R"({
        "tickets_issued": 0, "clock_offset_ms": 0, "handpays": {}, "attendant_calls": [],
        "disputes": {"2": {"round": 9, "text": "misread"}},
        "reserved": {"3": {"reserved": true, "until_ms": 1795000600000, "pin_sha256": "00ff"},
                     "4": {"reserved": false}}})");
    const journal::ResumeFacts facts = journal::resumeFactsFromJson(table);
    ASSERT_EQ(facts.disputes.size(), 1U);
    EXPECT_EQ(facts.disputes.at(2), (journal::DisputeFact{9, "misread"}));
    ASSERT_EQ(facts.reservations.size(), 1U);
    EXPECT_EQ(facts.reservations.at(3).untilMs, 1'795'000'600'000);
    EXPECT_EQ(facts.reservations.at(3).pinSha256, "00ff");
    const nlohmann::json again = journal::resumeFactsJson(facts);
    EXPECT_EQ(again.at("disputes"), table.at("disputes"));
    EXPECT_EQ(again.at("reserved"),
              nlohmann::json::parse(R"({"3": {"reserved": true, "until_ms": 1795000600000, "pin_sha256": "00ff"}})"));
}

}  // namespace
}  // namespace pitlink

namespace pitlink {
namespace {

// What a walk skips: a sealed segment is skipped by its summary only when it holds nothing wanted,
// and the active one is never skipped (it grows under the summary).
TEST(SegmentedJournal, ARecallOfAStationFindsItsBetsInTheFirstOfThreeSegments) {
    Segmented f;
    f.table->ticketIn(3, 1'000, "1000000000000003");
    const std::int64_t round = f.playRound({{3, game::BetType::Banker, 100}}, "9S 2H KD 4C");
    f.rotate();
    (void)f.playRound({{1, game::BetType::Player, 100}}, "9S 2H KD 4C");
    f.rotate();
    (void)f.playRound({{1, game::BetType::Player, 100}}, "9S 2H KD 4C");
    journal::SegmentedJournal segmented(f.path, {});
    ASSERT_EQ(segmented.size(), 3U);

    EXPECT_TRUE(segmented.holdsBetsOf(0, 3));
    EXPECT_FALSE(segmented.holdsBetsOf(1, 3));
    EXPECT_TRUE(segmented.holdsBetsOf(1, 1));
    EXPECT_TRUE(segmented.holdsBetsOf(2, 3));   // the active segment, though it holds none
    EXPECT_FALSE(segmented.holdsBetsOf(0, 4));  // station 4 has records there (a reservation), no bet

    const auto recalled = journal::recallRounds(segmented, 10, 3);
    ASSERT_EQ(recalled.size(), 1U);
    EXPECT_EQ(recalled[0].round.roundId, round);
    EXPECT_EQ(recalled[0].round.bets.size(), 1U);
}

// A round re-settled two segments after it was played, with a segment between that never
// touched it: its records are read from both segments that hold them, the one between skipped.
TEST(SegmentedJournal, ARoundReSettledInALaterSealedSegmentIsReadFromBoth) {
    Segmented f;
    const std::int64_t round = f.playRound({{1, game::BetType::Player, 100}}, "9S 2H KD 4C");
    f.rotate();
    const std::int64_t next = f.playRound({{2, game::BetType::Banker, 100}}, "9S 2H KD 4C");
    f.rotate();
    {
        journal::SegmentedJournal before(f.path, {});
        journal::JournalTransaction tx = f.journal->begin();
        journal::addResettlement(tx, journal::reconstructRound(before.recordsOfRound(round)), f.table->paytable(),
                                 journal::ResettlementRequest{round, test::cards("2S 9H 4D KC"), "video", "alice"});
        f.journal->submit(std::move(tx));
    }
    f.rotate();
    journal::SegmentedJournal segmented(f.path, {});
    ASSERT_EQ(segmented.size(), 4U);

    EXPECT_TRUE(segmented.holdsRound(0, round));
    EXPECT_FALSE(segmented.holdsRound(1, round));  // only the next round was played there
    EXPECT_TRUE(segmented.holdsRound(2, round));   // the re-settlement, a round older than any it opened
    EXPECT_FALSE(segmented.holdsRound(2, next));
    EXPECT_TRUE(segmented.holdsRound(3, round));  // the active segment, though it holds none

    const auto home = segmented.segment(0).recordsOfRound(round);
    const auto later = segmented.segment(2).recordsOfRound(round);
    ASSERT_FALSE(home.empty());
    ASSERT_FALSE(later.empty());
    const auto records = segmented.recordsOfRound(round);
    ASSERT_EQ(records.size(), home.size() + later.size());
    EXPECT_EQ(records.front().seq, home.front().seq);
    EXPECT_EQ(records.back().seq, later.back().seq);
    EXPECT_EQ(journal::reconstructRound(records).resettlements, 1);
}

// A reader kept open across a rotation: the segment that was active when it learned about it is
// sealed now, and read as it ended, not as it was when first asked.
TEST(SegmentedJournal, ExtendTakesInTheNewSegmentAndRelearnsTheOneItSealed) {
    Segmented f;
    f.rotate();
    journal::SegmentedJournal segmented(f.path, {});
    ASSERT_EQ(segmented.size(), 2U);
    ASSERT_EQ(segmented.roundsOpened(1), std::nullopt);  // learned while active: nothing played yet
    f.table->ticketIn(3, 1'000, "1000000000000003");
    const std::int64_t round = f.playRound({{3, game::BetType::Banker, 100}}, "9S 2H KD 4C");
    f.rotate();
    EXPECT_EQ(segmented.size(), 2U);  // until extended

    ASSERT_TRUE(segmented.extend());
    ASSERT_EQ(segmented.size(), 3U);
    EXPECT_EQ(segmented.file(2), journal::SegmentFiles(f.path).file(3).string());
    EXPECT_EQ(segmented.roundsOpened(1), (std::optional(std::pair<std::int64_t, std::int64_t>{round, round})));
    EXPECT_TRUE(segmented.holdsBetsOf(1, 3));
    EXPECT_FALSE(segmented.holdsBetsOf(0, 3));
    const auto recalled = journal::recallRounds(segmented, 10, 3);
    ASSERT_EQ(recalled.size(), 1U);
    EXPECT_EQ(recalled[0].round.roundId, round);
    EXPECT_TRUE(segmented.extend());  // no rotation since: the same files
    EXPECT_EQ(segmented.size(), 3U);

    // The oldest sealed segment gone, as archiving leaves the journal: the caller opens it anew.
    journal::SegmentFiles(f.path).remove(1);
    EXPECT_FALSE(segmented.extend());
}

// A start-up reads each segment in one pass: per station the last of its records decides, in the
// segment and over what the segment carried from the ones before.
TEST(ResumeFacts, TheLastRecordOfEachStationDecides) {
    Segmented f;
    f.table->handpay(1, 200);                                   // pending, then reset: no lock
    f.add(kind::kAttendantCleared, 1, json{{"by", "floor"}});   // the fixture's call, cleared
    f.add(kind::kAttendantCalled, 2, json{{"by", "station"}});  // called, cleared, called again
    journal::StationState later;
    later.limitLevel = 5;
    f.add(kind::kStationState, 3, journal::stationStateJson(later));
    f.add(kind::kTicketIssued, 1, json{{"validation", "0012345678901236"}, {"amount", 100}});
    const journal::ResumeFacts facts = journal::resumeFacts(*f.store);
    EXPECT_FALSE(facts.handpays.contains(1));
    EXPECT_TRUE(facts.handpays.contains(2));
    EXPECT_EQ(facts.attendantCalls, (std::set<std::int64_t>{2}));
    ASSERT_TRUE(facts.stations.contains(3));
    EXPECT_EQ(facts.stations.at(3).limitLevel, 5);
    EXPECT_EQ(facts.ticketsIssued, 3);

    f.rotate();
    f.add(kind::kAttendantCleared, 2, json{{"by", "floor"}});
    f.add(kind::kHandpayReset, 2, json{{"amount", 150'000}, {"kind", "jackpot"}, {"by", "attendant"}});
    f.add(kind::kTicketIssued, 2, json{{"validation", "0012345678901237"}, {"amount", 100}});
    const journal::ResumeFacts after = journal::resumeFacts(*f.store);
    EXPECT_TRUE(after.attendantCalls.empty());
    EXPECT_TRUE(after.handpays.empty());
    EXPECT_EQ(after.stations.at(3).limitLevel, 5);
    EXPECT_EQ(after.ticketsIssued, 4);  // the three carried, counted once, and the new one
}

}  // namespace
}  // namespace pitlink
