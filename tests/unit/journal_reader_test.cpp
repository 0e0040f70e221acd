// The journal reader: reads on its own thread and connection, answers on the logic thread, sees
// every transaction committed before the read (WAL), and turns a failed read into an answer.
#include "daemon/journal/read/journal_reader.h"

#include <gtest/gtest.h>

#include <thread>

#include "daemon/journal/read/recall.h"
#include "tests/support/completion_queue.h"
#include "tests/unit/journal_fixture.h"

namespace pitlink::journal {
namespace {

using game::BetType;

constexpr const char* kBankerWins = "2S 9H 4D KC";

TEST(JournalReader, ReadsCommittedRoundsOffTheLogicThreadAndAnswersOnIt) {
    test::JournalFixture f;
    f.table->ticketIn(1, 10'000, "T1");
    f.playRound({{1, BetType::Banker, 100}}, kBankerWins);
    test::CompletionQueue logic;
    JournalReader reader(f.path, StoreOptions{}, logic);
    const std::thread::id logicThread = std::this_thread::get_id();
    std::thread::id jobThread;
    std::thread::id answerThread;
    std::optional<std::int64_t> last;
    auto readLast = [&] {
        reader.read<std::int64_t>(
            [&](SegmentedJournal& journal) {
                jobThread = std::this_thread::get_id();
                return journal.active().lastRoundId().value_or(0);
            },
            [&](std::int64_t id) {
                answerThread = std::this_thread::get_id();
                last = id;
            },
            [](const std::string& error) { FAIL() << error; });
        logic.runOne();
    };
    readLast();
    EXPECT_EQ(last, 1);
    EXPECT_NE(jobThread, logicThread);
    EXPECT_EQ(answerThread, logicThread);
    // A round committed after the reader's connection was opened is seen by the next read.
    f.playRound({{1, BetType::Player, 100}}, kBankerWins);
    readLast();
    EXPECT_EQ(last, 2);
}

TEST(JournalReader, AReadThatThrowsIsAnsweredWithItsErrorAndTheNextReadWorks) {
    test::JournalFixture f;
    f.table->ticketIn(1, 10'000, "T1");
    f.playRound({{1, BetType::Banker, 100}}, kBankerWins);
    test::CompletionQueue logic;
    JournalReader reader(f.path, StoreOptions{}, logic);
    std::string error;
    bool answered = false;
    reader.read<RecalledRound>([](SegmentedJournal& journal) { return recallRound(journal, 99); },
                               [&](RecalledRound) { answered = true; }, [&](const std::string& e) { error = e; });
    logic.runOne();
    EXPECT_FALSE(answered);
    EXPECT_NE(error.find("round"), std::string::npos) << error;
    std::int64_t credits = 0;
    reader.read<RecalledRound>([](SegmentedJournal& journal) { return recallRound(journal, 1); },
                               [&](RecalledRound r) { credits = r.credits.at(1).after; },
                               [&](const std::string& e) { error = e; });
    logic.runOne();
    EXPECT_EQ(credits, 10'000 - 100 + 195);
}

TEST(JournalReader, AFileThatCannotBeOpenedIsAnError) {
    test::CompletionQueue logic;
    JournalReader reader("/nonexistent/dir/journal.db", StoreOptions{}, logic);
    std::string error;
    reader.read<int>([](SegmentedJournal&) { return 1; }, [](int) {}, [&](const std::string& e) { error = e; });
    logic.runOne();
    EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace pitlink::journal
