// Table events as the engine link sends them (protocols/engine/README.md "Events"), written out by
// hand: the typed events must give exactly these lines.
#include "daemon/io/event_line.h"

#include <gtest/gtest.h>

namespace pitlink::io {
namespace {

using table::TableEvent;

std::string line(const TableEvent& e) {
    return eventJson(e).dump();
}

TEST(EventLine, EachEventInTheEngineLinksForm) {
    EXPECT_EQ(line(table::RoundOpened{12, 3, 4}),
              R"({"event":"round","phase":"bets_open","round":12,"round_in_shoe":4,"shoe":3})");
    EXPECT_EQ(line(table::LastBets{12}), R"({"event":"round","phase":"last_bets","round":12})");
    EXPECT_EQ(line(table::CardDealt{12, 2, *game::parseCard("QH")}),
              R"({"card":"QH","event":"card","position":2,"round":12})");
    EXPECT_EQ(line(table::RoundVoided{12, "misdeal"}),
              R"({"event":"result","reason":"misdeal","round":12,"voided":true})");
    EXPECT_EQ(line(table::CreditsChanged{5, 2500, std::nullopt, std::nullopt, {}}),
              R"({"credits":2500,"event":"credits","station":5})");
    EXPECT_EQ(line(table::CreditsChanged{5, 2500, 9, std::nullopt, {}}),
              R"({"credits":2500,"event":"credits","resettled_round":9,"station":5})");
    // Credit types and a cashless transfer (issue 36): the promotional parts when there are any.
    EXPECT_EQ(
        line(table::CreditsChanged{5, 2500, std::nullopt, std::pair<std::string, std::string>("T-7", "transfer_in"),
                                   journal::PromoParts{700, 300}}),
        R"({"credits":2500,"event":"credits","nonrestricted":300,"restricted":700,"station":5,)"
        R"("transfer":{"id":"T-7","reason":"transfer_in"}})");
    EXPECT_EQ(line(table::AftLockChanged{4, true}), R"({"event":"aft_lock","locked":true,"station":4})");
    EXPECT_EQ(line(table::TiltChanged{true, "door:main", "main door open"}),
              R"({"cause":"door:main","event":"tilt","message":"main door open","tilted":true})");
    EXPECT_EQ(line(table::TiltChanged{false, std::nullopt, std::nullopt}), R"({"event":"tilt","tilted":false})");
    EXPECT_EQ(line(table::HandpayReset{2}), R"({"event":"handpay","reset":true,"station":2})");
    // A ticket carries what the ticket system printed beside the table's own fields.
    EXPECT_EQ(
        line(table::TicketIssued{3, 1500, "001122334455667788", "t1", journal::TicketPrint{.expiresDays = 30}}),
        R"({"amount":1500,"event":"ticket","expires_days":30,"station":3,"table":"t1","validation":"001122334455667788"})");
}

TEST(EventLine, ASettledRoundWithItsWinsAndTheShoesStatistics) {
    table::RoundSettled e;
    e.round = 40;
    e.shoe = 2;
    e.roundInShoe = 7;
    e.player.add(*game::parseCard("9S"));
    e.player.add(*game::parseCard("KD"));
    e.banker.add(*game::parseCard("4C"));
    e.banker.add(*game::parseCard("3D"));
    e.outcome.winner = game::Winner::Player;
    e.outcome.playerTotal = 9;
    e.outcome.bankerTotal = 7;
    e.wins = {{1, 100}, {4, 0}};
    e.cutCardOut = true;
    e.cardsLeft = 14;
    e.statistics = game::ShoeStatistics{7, 3, 3, 1, 0, 2, 4};
    EXPECT_EQ(
        line(e),
        R"({"banker":["4C","3D"],"banker_total":7,"cards_left":14,"cut_card_out":true,"event":"result",)"
        R"("player":["9S","KD"],"player_total":9,"round":40,"round_in_shoe":7,"shoe":2,)"
        R"("statistics":{"banker":3,"banker_pairs":2,"naturals":4,"player":3,"player_pairs":0,"rounds":7,"tie":1},)"
        R"("winner":"player","wins":{"1":100,"4":0}})");
}

}  // namespace
}  // namespace pitlink::io
