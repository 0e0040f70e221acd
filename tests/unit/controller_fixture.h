#pragma once
// Several reader games on one controller and one journal whose commits wait until the test
// flushes them (as the writer thread commits some milliseconds later): what the multi-game
// tests (the wallet across games, the games' table I/O) build on.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "daemon/io/event_line.h"
#include "daemon/journal/store_sink.h"
#include "daemon/table/controller.h"
#include "daemon/table/table.h"
#include "tests/support/deferred_sink.h"
#include "tests/support/manual_executor.h"
#include "tests/unit/fixtures.h"
#include "tests/unit/journal_fixture.h"

namespace pitlink::table {

constexpr std::int64_t kStation = 3;

struct Controller4 {
    using json = nlohmann::json;
    // `starts`: each game's (as a restart builds them; the first's also builds the controller);
    // `denominations`: what a station may choose (none: the settings' default).
    explicit Controller4(std::vector<std::string> names, std::vector<TableStart> starts = {},
                         std::vector<game::Money> denominations = {})
        : deferred(store()) {
        starts.resize(names.size());
        journal = std::make_unique<journal::Journal>(
            deferred, journal::Ledger{}, [] { return 1'795'000'000'000; }, 0);
        TableSettings settings;
        settings.source = CardSource::Reader;
        if (!denominations.empty()) {
            settings.denominations = std::move(denominations);
        }
        controller = std::make_unique<Controller>(settings.stations, settings.denominations, starts.front(), names);
        for (std::size_t i = 0; i < names.size(); ++i) {
            const std::string& name = names[i];
            settings.name = name;
            games.push_back(std::make_unique<Table>(*journal, *controller, paytable, settings, timers, random,
                                                    starts[i], [this, name](const TableEvent& e) {
                                                        json line = io::eventJson(e);
                                                        line["game"] = name;
                                                        events.push_back(line);
                                                    }));
        }
    }
    journal::JournalStore& store() {
        if (!store_) {
            store_ = std::make_unique<journal::JournalStore>(dir.path() / "journal.db", journal::StoreOptions{});
        }
        return *store_;
    }
    Table& game(std::size_t i) { return *games.at(i); }
    // Sends a request without waiting; its reply is kept under `id`.
    Respond ask(std::string id) {
        return [this, id = std::move(id)](const Reply& r) { replies.emplace_back(id, r); };
    }
    const Reply& reply(const std::string& id) const {
        for (const auto& [i, r] : replies) {
            if (i == id) {
                return r;
            }
        }
        throw std::runtime_error("no reply to " + id);
    }
    // Calls an operation, commits everything, and returns its reply.
    Reply call(const std::function<void(Respond)>& op) {
        std::optional<Reply> answer;
        op([&](const Reply& r) { answer = r; });
        deferred.flush();
        EXPECT_TRUE(answer.has_value()) << "no reply";
        return answer.value_or(Reply::refused("none", "no reply"));
    }
    void fund(game::Money amount) {
        ASSERT_TRUE(call([&](Respond r) { game(0).ticketIn(kStation, "4242", amount, r); }).ok);
    }
    void open(std::size_t i) {
        ASSERT_TRUE(call([&](Respond r) { game(i).newShoe(r); }).ok);
        ASSERT_TRUE(call([&](Respond r) { game(i).openRound(r); }).ok);
    }
    void deal(std::size_t i, const std::string& cards) {
        for (const game::Card c : test::cards(cards)) {
            game(i).dealCard(c, {});
        }
    }
    // The station funded with `credits` and joined to beta, a round open in each game.
    void openBoth(game::Money credits) {
        fund(credits);
        ASSERT_TRUE(call([&](Respond r) { game(1).join(kStation, r); }).ok);
        open(0);
        open(1);
    }
    // The same, with a stake in each game's open round and both rounds' bets closed (committed).
    void stakeInBoth(game::Money credits, game::BetType alphaSpot, game::Money alphaStake, game::BetType betaSpot,
                     game::Money betaStake) {
        openBoth(credits);
        ASSERT_TRUE(call([&](Respond r) { game(0).placeBet(kStation, alphaSpot, alphaStake, r); }).ok);
        ASSERT_TRUE(call([&](Respond r) { game(1).placeBet(kStation, betaSpot, betaStake, r); }).ok);
        ASSERT_TRUE(call([&](Respond r) { game(0).closeBets(r); }).ok);
        ASSERT_TRUE(call([&](Respond r) { game(1).closeBets(r); }).ok);
    }
    game::Money committedCredits() const { return journal->committed().credits(kStation); }
    std::vector<json> bodies(std::string_view kind) {
        std::vector<json> out;
        auto q = store().connection().prepare("SELECT body FROM record WHERE kind = ? ORDER BY seq");
        q.bind(1, kind);
        while (q.step()) {
            out.push_back(json::parse(q.text(0)));
        }
        return out;
    }

    test::TempDir dir;
    std::unique_ptr<journal::JournalStore> store_;
    test::DeferredSink deferred;
    game::Paytable paytable = test::shippedPaytable("standard");
    std::unique_ptr<journal::Journal> journal;
    test::ManualExecutor timers;
    game::SeededRandom random{42};
    std::unique_ptr<Controller> controller;
    std::vector<std::unique_ptr<Table>> games;
    std::vector<json> events;
    std::vector<std::pair<std::string, Reply>> replies;
};

}  // namespace pitlink::table
