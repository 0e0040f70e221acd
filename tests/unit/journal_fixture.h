#pragma once
// A journal in a fresh temporary directory, committed synchronously (StoreSink), with a scripted
// table on it: the set-up most journal tests share.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/journal/journal.h"
#include "daemon/journal/recovery.h"
#include "daemon/journal/segments/segment_rotation.h"
#include "daemon/journal/segments/segmented_journal.h"
#include "daemon/journal/store/journal_store.h"
#include "daemon/journal/store_sink.h"
#include "tests/support/scenario_table.h"

namespace pitlink::test {

class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

struct JournalFixture {
    explicit JournalFixture(journal::StoreOptions options = {});
    // Closes everything and opens the file again, as a restart does: recovery, then a journal
    // on the recovered ledger. Recovery's report is kept in `recovery`.
    void reopen(journal::StoreOptions options = {});
    // Plays a round: open, bets, close, the cards in deal order, settle (or leaves it where `stop` says).
    std::int64_t playRound(const std::vector<std::tuple<std::int64_t, game::BetType, game::Money>>& bets,
                           const std::string& cards);
    // Seals the active segment as pitlinkd rotates it (its carry, and a snapshot of the committed
    // ledger opening the next), then reopens on the new one, as after a restart. `step` as
    // SegmentRotation's (a test's failure injected between two steps).
    journal::AppendResult rotate(const journal::SegmentRotation::Step& step = {}, journal::StoreOptions options = {});

    TempDir dir;
    std::string path;
    std::int64_t clockMs = 1'795'000'000'000;
    std::unique_ptr<journal::JournalStore> store;
    std::unique_ptr<journal::StoreSink> sink;
    std::unique_ptr<journal::Journal> journal;
    std::unique_ptr<ScenarioTable> table;
    std::optional<journal::RecoveryReport> recovery;
};

// The fixture's journal as its readers see it (every segment; here its one store).
inline std::unique_ptr<journal::SegmentedJournal> whole(JournalFixture& f) {
    return std::make_unique<journal::SegmentedJournal>(*f.store);
}

// Bytes of a file, to prove a check left it untouched.
std::string fileBytes(const std::filesystem::path& path);

}  // namespace pitlink::test
