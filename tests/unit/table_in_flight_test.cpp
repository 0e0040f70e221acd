// Requests that arrive while earlier transactions are submitted but not yet committed
// (docs/design.md rule 6): each is decided against the state that includes them, answered after
// its own commit (a refusal too, journaled), and so in the order it came. The journal here
// commits only when the test flushes it, as the writer thread does some milliseconds later.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "daemon/journal/records/record_kinds.h"
#include "daemon/table/table.h"
#include "tests/support/deferred_sink.h"
#include "tests/unit/table_fixture.h"

namespace pitlink::table {
namespace {

using game::BetType;
using nlohmann::json;
using namespace std::chrono_literals;

// Player 9S KD (9, natural), Banker 2H 4C (6): Player wins; no third card is due.
constexpr const char* kPlayerNatural = "9S 2H KD 4C";

// A table whose journal commits when the test says: the fixture's table moved onto a deferred
// sink over the same file, after the set-up was committed inline.
struct InFlight {
    explicit InFlight(CardSource source, TableSettings base = {})
        : settings(base), f(source, base), deferred(*f.store) {
        settings.source = source;
        settings.betsOpen = 20s;
        settings.lastBets = 5s;
    }
    void deferFromNow() {
        const journal::Ledger committed = f.journal->committed();
        const TableStart start{f.table->roundId() + 1, f.table->shoeNumber() + 1, 1, {}, {}, {}, {}, {}};
        f.table.reset();
        f.journal = std::make_unique<journal::Journal>(
            deferred, committed, [] { return 1'795'000'000'000; }, 0);
        f.table = std::make_unique<Table>(*f.journal, f.paytable, settings, f.timers, f.random, start,
                                          [this](const TableEvent& e) { f.events.push_back(io::eventJson(e)); });
    }
    // A new shoe and a round open for bets, both pipelined (replies "shoe" and "open").
    void openRound() {
        f.table->newShoe(ask("shoe"));
        f.table->openRound(ask("open"));
    }
    // Sends a request without waiting; its reply is appended to `replies` under `id`.
    Respond ask(std::string id) {
        return [this, id = std::move(id)](const Reply& r) { replies.emplace_back(id, r); };
    }
    std::vector<std::string> order() const {
        std::vector<std::string> ids;
        for (const auto& [id, r] : replies) {
            ids.push_back(id);
        }
        return ids;
    }
    const Reply& reply(const std::string& id) const {
        for (const auto& [i, r] : replies) {
            if (i == id) {
                return r;
            }
        }
        throw std::runtime_error("no reply to " + id);
    }
    std::vector<std::string> refusedOps() {
        std::vector<std::string> ops;
        auto q = f.store->connection().prepare("SELECT body FROM record WHERE kind = 'request.refused' ORDER BY seq");
        while (q.step()) {
            ops.push_back(json::parse(q.text(0)).at("op").get<std::string>());
        }
        return ops;
    }

    TableSettings settings;
    TableFixture f;
    test::DeferredSink deferred;
    std::vector<std::pair<std::string, Reply>> replies;
};

// Issue 15: four cards of a natural, one card too many and a void, all written before any reply.
TEST(TableInFlight, ACardTooManyAndAVoidAfterTheCoupAreRefusedAndTheWinIsPaidOnce) {
    InFlight t(CardSource::Reader);
    t.f.fund(1, 10'000);
    t.deferFromNow();
    t.openRound();
    t.f.table->placeBet(1, BetType::Player, 1'000, t.ask("bet"));
    t.f.table->closeBets(t.ask("close"));
    t.deferred.flush();
    t.replies.clear();

    int n = 0;
    for (const game::Card c : test::cards(kPlayerNatural)) {
        t.f.table->dealCard(c, t.ask("card" + std::to_string(++n)));
    }
    t.f.table->dealCard(*game::parseCard("5D"), t.ask("extra"));
    t.f.table->voidRound("engine void", "engine", t.ask("void"));
    EXPECT_TRUE(t.replies.empty());                   // nothing is answered before its commit
    EXPECT_EQ(t.f.table->phase(), RoundPhase::Idle);  // the round ended when its settlement was submitted
    t.deferred.flush();

    EXPECT_EQ(t.order(), (std::vector<std::string>{"card1", "card2", "card3", "card4", "extra", "void"}));
    EXPECT_TRUE(t.reply("card4").ok);
    EXPECT_EQ(t.reply("extra").error, "not_dealing");
    EXPECT_EQ(t.reply("void").error, "no_round");
    // 10,000 - 1,000 staked + 2,000 returned (Player pays 1 to 1), once.
    EXPECT_EQ(t.f.credits(1), 11'000);
    EXPECT_EQ(t.f.count(journal::kind::kRoundSettled), 1);
    EXPECT_EQ(t.f.count(journal::kind::kRoundVoided), 0);
    EXPECT_EQ(t.refusedOps(), (std::vector<std::string>{"card", "void_round"}));
}

TEST(TableInFlight, ABetBehindACloseStillCommittingIsRefusedAndAnsweredAfterIt) {
    InFlight t(CardSource::Reader);
    t.f.fund(2, 5'000);
    t.deferFromNow();
    t.openRound();
    t.f.table->placeBet(2, BetType::Banker, 1'000, t.ask("bet1"));
    t.f.table->closeBets(t.ask("close"));
    t.f.table->placeBet(2, BetType::Banker, 500, t.ask("bet2"));
    t.f.table->undoBet(2, t.ask("undo"));
    t.deferred.flush(3);  // shoe, open, bet1: the close is still in flight
    EXPECT_EQ(t.order(), (std::vector<std::string>{"shoe", "open", "bet1"}));
    t.deferred.flush();
    EXPECT_EQ(t.order(), (std::vector<std::string>{"shoe", "open", "bet1", "close", "bet2", "undo"}));
    EXPECT_EQ(t.reply("bet2").error, "betting_closed");
    EXPECT_EQ(t.reply("undo").error, "betting_closed");
    EXPECT_EQ(t.f.credits(2), 4'000);
    EXPECT_EQ(t.f.count(journal::kind::kBetRefused), 1);
    EXPECT_EQ(t.refusedOps(), (std::vector<std::string>{"undo"}));
}

TEST(TableInFlight, ACashOutBehindASettlementStillCommittingTakesTheWinToo) {
    InFlight t(CardSource::Reader);
    t.f.fund(3, 10'000);
    t.deferFromNow();
    t.openRound();
    t.f.table->placeBet(3, BetType::Player, 1'000, t.ask("bet"));
    t.f.table->closeBets(t.ask("close"));
    for (const game::Card c : test::cards(kPlayerNatural)) {
        t.f.table->dealCard(c, t.ask("card"));
    }
    t.f.table->cashOut(3, t.ask("cash_out"));
    t.f.table->cashOut(3, t.ask("again"));
    t.deferred.flush();
    ASSERT_TRUE(t.reply("cash_out").ok);
    EXPECT_EQ(std::get<table::TicketAnswer>(t.reply("cash_out").data).ticket.amount, 11'000);
    EXPECT_EQ(t.reply("again").error, "no_credits");
    EXPECT_EQ(t.f.credits(3), 0);
    EXPECT_EQ(t.order().back(), "again");
}

TEST(TableInFlight, TwoHandpayResetsRacingPayTheHandpayOnce) {
    TableSettings lowLimit;
    lowLimit.ticketLimit = 5'000;
    InFlight t(CardSource::Reader, lowLimit);
    t.f.fund(4, 10'000);
    t.deferFromNow();
    t.f.table->cashOut(4, t.ask("cash_out"));  // above the ticket limit: a hand-pay
    t.f.table->resetHandpay(4, "attendant", t.ask("reset1"));
    t.f.table->resetHandpay(4, "sas host", t.ask("reset2"));
    t.f.table->tip(4, 100, t.ask("tip"));  // the station's credits are on their way out
    t.deferred.flush();
    EXPECT_EQ(t.order(), (std::vector<std::string>{"cash_out", "reset1", "reset2", "tip"}));
    EXPECT_EQ(std::get<table::HandpayAnswer>(t.reply("cash_out").data).amount, 10'000);
    EXPECT_TRUE(t.reply("reset1").ok);
    EXPECT_EQ(t.reply("reset2").error, "no_handpay");
    EXPECT_EQ(t.reply("tip").error, "insufficient_credits");
    EXPECT_EQ(t.f.credits(4), 0);
    EXPECT_EQ(t.f.count(journal::kind::kHandpayReset), 1);
    EXPECT_EQ(t.refusedOps(), (std::vector<std::string>{"handpay_reset", "tip"}));
}

TEST(TableInFlight, AFailedCommitTiltsTheTableAndNothingMoreIsWritten) {
    InFlight t(CardSource::Reader);
    t.f.fund(5, 10'000);
    t.deferFromNow();
    t.f.table->newShoe(t.ask("shoe"));
    t.deferred.flush();
    const std::int64_t before = t.f.count(journal::kind::kShoeStarted) + t.f.count(journal::kind::kRoundOpened);
    t.f.table->openRound(t.ask("open"));
    t.f.table->placeBet(5, BetType::Banker, 1'000, t.ask("bet"));
    t.deferred.failFromNow();
    t.deferred.flush();
    EXPECT_EQ(t.reply("open").error, "journal_failed");
    EXPECT_EQ(t.reply("bet").error, "journal_failed");
    EXPECT_TRUE(t.f.table->tilted());
    EXPECT_TRUE(t.f.journal->failed());
    // Later requests are refused at once, and nothing reaches the disk.
    t.f.table->tip(5, 100, t.ask("tip"));
    t.f.table->openRound(t.ask("open2"));
    EXPECT_EQ(t.reply("tip").error, "journal_failed");
    EXPECT_EQ(t.reply("open2").error, "round_in_progress");  // memory is ahead of the disk, and stays tilted
    EXPECT_EQ(t.f.count(journal::kind::kShoeStarted) + t.f.count(journal::kind::kRoundOpened), before);
    EXPECT_EQ(t.f.credits(5), 10'000);
}

}  // namespace
}  // namespace pitlink::table
