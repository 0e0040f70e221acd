#pragma once
// A table on a real journal file (committed inline, StoreSink) and a manual clock, with helpers
// to call its operations and read the journal back: the set-up of the table's tests and of the
// tests of what drives it (dealer buttons, lamps).
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/game/random_source.h"
#include "daemon/io/event_line.h"
#include "daemon/journal/read/round_history.h"
#include "daemon/journal/store_sink.h"
#include "daemon/table/table.h"
#include "tests/support/manual_executor.h"
#include "tests/unit/fixtures.h"
#include "tests/unit/journal_fixture.h"

namespace pitlink::table {

struct TableFixture {
    explicit TableFixture(CardSource source, TableSettings base = {}, const std::string& paytableId = "standard") {
        paytable = test::shippedPaytable(paytableId);
        store = std::make_unique<journal::JournalStore>(dir.path() / "journal.db", journal::StoreOptions{});
        sink = std::make_unique<journal::StoreSink>(*store);
        journal = std::make_unique<journal::Journal>(
            *sink, journal::Ledger{}, [] { return 1'795'000'000'000; }, 0);
        base.source = source;
        base.betsOpen = std::chrono::seconds(20);
        base.lastBets = std::chrono::seconds(5);
        table = std::make_unique<Table>(*journal, paytable, base, timers, random, TableStart{},
                                        [this](const TableEvent& e) { events.push_back(io::eventJson(e)); });
    }
    // Calls an operation and returns its reply (the journal commits inline here).
    Reply call(const std::function<void(Respond)>& op) {
        std::optional<Reply> reply;
        op([&](const Reply& r) { reply = r; });
        EXPECT_TRUE(reply.has_value()) << "no reply";
        return reply.value_or(Reply::refused("none", "no reply"));
    }
    void fund(std::int64_t station, game::Money amount) {
        ASSERT_TRUE(call([&](Respond r) { table->ticketIn(station, "1000" + std::to_string(station), amount, r); }).ok);
    }
    game::Money credits(std::int64_t station) const { return journal->committed().credits(station); }
    std::int64_t meter(std::int64_t station, journal::Meter m) const {
        return journal->committed().stations().at(station).meters[m];
    }
    std::int64_t count(std::string_view kind) {
        auto q = store->connection().prepare("SELECT count(*) FROM record WHERE kind = ?");
        q.bind(1, kind);
        q.step();
        return q.integer(0);
    }
    journal::RoundHistory round(std::int64_t id) { return journal::reconstructRound(store->recordsOfRound(id)); }
    // Reader mode: a shoe, an open round.
    void openReaderRound() {
        ASSERT_TRUE(call([&](Respond r) { table->newShoe(r); }).ok);
        ASSERT_TRUE(call([&](Respond r) { table->openRound(r); }).ok);
    }
    void deal(const std::string& cards) {
        for (const game::Card c : test::cards(cards)) {
            ASSERT_TRUE(call([&](Respond r) { table->dealCard(c, r); }).ok) << c.toString();
        }
    }

    test::TempDir dir;
    game::Paytable paytable = test::shippedPaytable("standard");
    std::unique_ptr<journal::JournalStore> store;
    std::unique_ptr<journal::StoreSink> sink;
    std::unique_ptr<journal::Journal> journal;
    test::ManualExecutor timers;
    game::SeededRandom random{42};
    std::vector<nlohmann::json> events;
    std::unique_ptr<Table> table;
};

}  // namespace pitlink::table
