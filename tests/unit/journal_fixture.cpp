#include "tests/unit/journal_fixture.h"

#include <unistd.h>

#include <fstream>
#include <iterator>

#include "daemon/app/segment_carry.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/store_sink.h"
#include "tests/unit/fixtures.h"

namespace pitlink::test {

TempDir::TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "pitlink-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("mkdtemp failed");
    }
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

JournalFixture::JournalFixture(journal::StoreOptions options) : path((dir.path() / "journal.db").string()) {
    reopen(std::move(options));
    table->loadPaytable();
    table->startShoe(1);
}

void JournalFixture::reopen(journal::StoreOptions options) {
    const std::int64_t nextRound = table ? table->roundId() + 1 : 1;
    table.reset();
    journal.reset();
    sink.reset();
    store.reset();
    store = std::make_unique<journal::JournalStore>(path, options);
    sink = std::make_unique<journal::StoreSink>(*store);
    recovery = journal::recover(*store, journal::RecoveryOptions{true, true}, [this] { return clockMs; });
    if (!recovery->ok()) {
        throw std::runtime_error("recovery: " + *recovery->tilt);
    }
    journal = std::make_unique<journal::Journal>(
        *sink, recovery->ledger, [this] { return clockMs; }, 0);
    table = std::make_unique<ScenarioTable>(*journal, shippedPaytable("standard"),
                                            std::max(nextRound, recovery->lastRoundId.value_or(0) + 1));
}

std::int64_t JournalFixture::playRound(const std::vector<std::tuple<std::int64_t, game::BetType, game::Money>>& bets,
                                       const std::string& dealt) {
    const std::int64_t round = table->openRound();
    for (const auto& [station, spot, stake] : bets) {
        table->bet(station, spot, stake);
    }
    table->close();
    for (const game::Card card : cards(dealt)) {
        table->deal(card);
    }
    table->settle();
    return round;
}

journal::AppendResult JournalFixture::rotate(const journal::SegmentRotation::Step& step,
                                             journal::StoreOptions options) {
    journal::SegmentRotation rotation(path, options, app::carryOver, step);
    const std::vector<journal::PendingRecord> opening{{clockMs, std::string(journal::kind::kMetersSnapshot),
                                                       std::nullopt, std::nullopt,
                                                       journal::canonicalJson(journal->committed().toJson())}};
    journal::AppendResult result;
    store = rotation.rotate(store, opening, result);
    reopen(std::move(options));
    return result;
}

std::string fileBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace pitlink::test
