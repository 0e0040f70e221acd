// Replies as the engine link and the control socket send them (protocols/engine/README.md,
// protocols/control/README.md), written out by hand: the typed replies must give exactly these lines.
#include "daemon/io/reply_line.h"

#include <gtest/gtest.h>

namespace pitlink::io {
namespace {

using table::Reply;

std::string line(std::int64_t id, table::ReplyData data) {
    return replyLine(id, Reply::accepted(std::move(data)));
}

TEST(ReplyLine, EachAnswerInTheDocumentedForm) {
    EXPECT_EQ(line(1, table::NoData{}), R"({"data":{},"id":1,"ok":true})");
    EXPECT_EQ(line(1, table::AlreadySo{}), R"({"data":{"already":true},"id":1,"ok":true})");
    EXPECT_EQ(line(2, table::CreditsAnswer{50000}), R"({"data":{"credits":50000},"id":2,"ok":true})");
    game::BetSlip slip;
    slip[game::BetType::Banker] = 1000;
    slip[game::BetType::PlayerPair] = 200;
    EXPECT_EQ(line(3, table::BetsAnswer{17, 49000, slip}),
              R"({"data":{"credits":49000,"round":17,"slip":{"banker":1000,"player_pair":200}},"id":3,"ok":true})");
    EXPECT_EQ(line(4, table::CardAnswer{1}), R"({"data":{"position":1},"id":4,"ok":true})");
    EXPECT_EQ(line(5, table::TicketAnswer{{2, 49950, "020000000000000007", "table-1", {}}}),
              R"({"data":{"ticket":{"amount":49950,"station":2,"table":"table-1","validation":"020000000000000007"}},)"
              R"("id":5,"ok":true})");
    EXPECT_EQ(line(6, table::RescanAnswer{2}), R"({"data":{"rescan":true,"rescans":2},"id":6,"ok":true})");
    EXPECT_EQ(line(7, table::RoundVoidedAnswer{9, 3}), R"({"data":{"bets_returned":3,"round":9},"id":7,"ok":true})");
    EXPECT_EQ(line(8, table::HandpayAnswer{120000, "above the ticket limit"}),
              R"({"data":{"handpay":120000,"why":"above the ticket limit"},"id":8,"ok":true})");
    EXPECT_EQ(line(9, table::HandpayPaidAnswer{120000}), R"({"data":{"amount":120000},"id":9,"ok":true})");
    EXPECT_EQ(line(10, table::ReconfigureAnswer{{"bets"}, {"table.name", "journal.path"}}),
              R"({"data":{"applied":["bets"],"restart_needed":["table.name","journal.path"]},"id":10,"ok":true})");
    EXPECT_EQ(line(11, table::ShoeAnswer{4}), R"({"data":{"shoe":4},"id":11,"ok":true})");
    EXPECT_EQ(line(12, table::ReservedAnswer{true, 1234}),
              R"({"data":{"reserved":true,"until_ms":1234},"id":12,"ok":true})");
    EXPECT_EQ(line(12, table::ReservedAnswer{false, 1234}), R"({"data":{"reserved":false},"id":12,"ok":true})");
}

TEST(ReplyLine, ARefusalCarriesItsCodeAndMessageOnly) {
    EXPECT_EQ(replyLine("a", Reply::refused("betting_closed", "bets can be changed only while betting is open")),
              R"({"error":"betting_closed","id":"a","message":"bets can be changed only while betting is open",)"
              R"("ok":false})");
    EXPECT_EQ(acceptedLine(nullptr, nlohmann::json{{"rounds", nlohmann::json::array()}}),
              R"({"data":{"rounds":[]},"id":null,"ok":true})");
}

TEST(ReplyLine, StatusListsTheTableAndEveryStation) {
    table::TableStatus status;
    status.table = "t1";
    status.rngSource = true;
    status.phase = table::RoundPhase::LastBets;
    status.round = 30;
    status.shoe = 2;
    status.roundInShoe = 5;
    status.cardsLeft = 377;
    status.shoeReason = "restart";
    status.roundsFinished = 29;
    status.paytable = "standard";
    status.tilts = {{"door:main", "main door open"}};
    status.stations.push_back(table::StationStatus{1,
                                                   2500,
                                                   {journal::RoundBet{1, 1, game::BetType::Tie, 100, "bet"}},
                                                   std::nullopt,
                                                   true,
                                                   std::nullopt,
                                                   std::nullopt,
                                                   false,
                                                   1,
                                                   {},
                                                   false,
                                                   false,
                                                   false,
                                                   1,
                                                   {},
                                                   {},
                                                   false});
    status.stations.push_back(table::StationStatus{2,
                                                   0,
                                                   {},
                                                   table::PendingHandpay{120000, "cancelled_credit"},
                                                   false,
                                                   1'800'000,
                                                   journal::DisputeFact{29, "banker had 7"},
                                                   true,
                                                   3,
                                                   game::PersonalLimits{500, std::nullopt},
                                                   true,
                                                   false,
                                                   true,
                                                   25,
                                                   {"live-1", "live-2"},
                                                   journal::PromoParts{400, 0},
                                                   true});
    status.denominations = {1, 25};
    status.limitLevels = 7;
    EXPECT_EQ(
        replyDataJson(status).dump(),
        R"({"cards_left":377,"denominations":[1,25],"limit_levels":7,)"
        R"("paytable":"standard","phase":"last_bets","round":30,"round_in_shoe":5,"rounds_finished":29,)"
        R"("shoe":2,"shoe_reason":"restart","shoe_resumed":false,"source":"rng","stations":[)"
        R"({"attendant":true,"auto_repeat":false,"bets":[{"bet":1,"spot":"tie","stake":100}],"confirmed":false,)"
        R"("credits":2500,"denomination":1,"dispute":null,"handpay":null,)"
        R"("host_disabled":false,"keep_bets":false,"limit_level":1,"personal_limits":{},"reserved":false,"station":1},)"
        R"({"aft_locked":true,"attendant":false,"auto_repeat":true,"bets":[],"confirmed":true,"credits":0,)"
        R"("denomination":25,)"
        R"("dispute":{"round":29,"text":"banker had 7"},"games":["live-1","live-2"],)"
        R"("handpay":{"amount":120000,"kind":"cancelled_credit"},)"
        R"("host_disabled":true,"keep_bets":false,"limit_level":3,"personal_limits":{"min":500},"reserved":true,)"
        R"("reserved_until_ms":1800000,"restricted":400,"station":2}],)"
        R"("table":"t1","tilts":{"door:main":"main door open"}})");
}

}  // namespace
}  // namespace pitlink::io
