// Typed records (daemon/journal/records/typed_record.h): each struct makes the body of before, byte
// for byte (the expected bodies are written here by hand from schema/README.md, canonical: keys
// sorted, no spaces), and reads back what it wrote.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "daemon/journal/journal.h"
#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/station_records.h"
#include "daemon/journal/store/record.h"

namespace pitlink::journal {
namespace {

using nlohmann::json;

template <TypedRecord R>
std::string stored(const R& record) {
    return canonicalJson(toBody(record));
}

TEST(TypedRecords, CashierBodiesAreTheBodiesOfBefore) {
    EXPECT_EQ(stored(CreditRecord{-500, 1500, "bet", "bet 3", {}, {}, {}}),
              R"({"amount":-500,"balance":1500,"reason":"bet","ref":"bet 3"})");
    EXPECT_EQ(stored(CreditRecord{390, 1390, "settlement", {}, 300, {}, {}}),
              R"({"amount":390,"balance":1390,"reason":"settlement","wagered":300})");
    EXPECT_EQ(stored(CreditRecord{-40, 0, "resettlement", "round 7", {}, -50, 10}),
              R"({"amount":-40,"balance":0,"due":-50,"reason":"resettlement","ref":"round 7","shortfall":10})");
    EXPECT_EQ(stored(CreditRecord{-2000, 0, "handpay", {}, {}, {}, {}}),
              R"({"amount":-2000,"balance":0,"reason":"handpay"})");

    EXPECT_EQ(stored(TicketIssuedRecord{"001234567890123456", 2500, {}}),
              R"({"amount":2500,"validation":"001234567890123456"})");
    TicketPrint print;
    print.printedAt = "2026-11-26 23:50:01";
    print.location = "Main floor";
    print.address1 = "";
    print.address2 = "Reno";
    print.expiresDays = 30;
    print.systemId = 0;
    print.machineId = 42;
    print.sequence = 7;
    EXPECT_EQ(stored(TicketIssuedRecord{"001234567890123456", 2500, print}),
              R"({"address1":"","address2":"Reno","amount":2500,"expires_days":30,"location":"Main floor",)"
              R"("machine_id":42,"printed_at":"2026-11-26 23:50:01","sequence":7,"system_id":0,)"
              R"("validation":"001234567890123456"})");
    EXPECT_EQ(stored(TicketRedeemedRecord{"0099", 500, false}), R"({"amount":500,"validation":"0099"})");
    EXPECT_EQ(stored(TicketRedeemedRecord{"0099", 500, true}), R"({"amount":500,"host":true,"validation":"0099"})");
    EXPECT_EQ(stored(HandpayPendingRecord{150000, "cancelled_credit", "above the ticket limit", false}),
              R"({"amount":150000,"kind":"cancelled_credit","why":"above the ticket limit"})");
    EXPECT_EQ(stored(HandpayPendingRecord{120000, "jackpot", {}, true}),
              R"({"amount":120000,"kind":"jackpot","off_credits":true})");
    EXPECT_EQ(stored(HandpayResetRecord{800, "cancelled_credit", "alice", 1000}),
              R"({"amount":800,"by":"alice","kind":"cancelled_credit","locked_amount":1000})");
    EXPECT_EQ(stored(HandpayResetRecord{1000, "jackpot", "alice", {}}),
              R"({"amount":1000,"by":"alice","kind":"jackpot"})");
    EXPECT_EQ(stored(TipRecord{100}), R"({"amount":100})");
}

TEST(TypedRecords, StationBodiesAreTheBodiesOfBefore) {
    EXPECT_EQ(stored(BetAcceptedRecord{2, "banker", 1010, "raise"}),
              R"({"action":"raise","bet":2,"spot":"banker","stake":1010})");
    game::BetSlip slip;
    slip.stakes[static_cast<std::size_t>(game::BetType::Tie)] = 100;
    EXPECT_EQ(stored(BetRefusedRecord{"bet", slip, "above_maximum", "too much"}),
              R"({"action":"bet","message":"too much","rule":"above_maximum","slip":{"tie":100}})");
    EXPECT_EQ(stored(BetWithdrawnRecord{4, "not_confirmed"}), R"({"action":"not_confirmed","bet":4})");
    EXPECT_EQ(stored(BetsConfirmedRecord{slip, "auto_repeat"}), R"({"by":"auto_repeat","slip":{"tie":100}})");
    EXPECT_EQ(stored(RequestRefusedRecord{"tip", "tip_amount", "whole credits", {.amount = 5}, {}}),
              R"({"amount":5,"error":"tip_amount","message":"whole credits","op":"tip"})");
    EXPECT_EQ(stored(RequestRefusedRecord{"station_limits", "bad_limits", "m", {.by = "bob", .min = 10}, {}}),
              R"({"by":"bob","error":"bad_limits","message":"m","min":10,"op":"station_limits"})");
    EXPECT_EQ(stored(RequestRefusedRecord{"burn", "tilted", "m", {.cards = std::vector<std::string>{"9D", "TS"}}, {}}),
              R"({"cards":["9D","TS"],"error":"tilted","message":"m","op":"burn"})");
    EXPECT_EQ(stored(RequestRefusedRecord{"call_attendant", "no_such_station", "m", {}, 9}),
              R"({"error":"no_such_station","message":"m","op":"call_attendant","station":9})");
    EXPECT_EQ(stored(RequestRefusedRecord{"auto_repeat", "host_busy", "m", {.slip = slip, .on = true}, {}}),
              R"({"error":"host_busy","message":"m","on":true,"op":"auto_repeat","slip":{"tie":100}})");
    EXPECT_EQ(stored(AttendantCalledRecord{"station"}), R"({"by":"station"})");
    EXPECT_EQ(stored(AttendantClearedRecord{"alice"}), R"({"by":"alice"})");
    EXPECT_EQ(stored(DoorOpenedRecord{"cash_box"}), R"({"door":"cash_box"})");
    EXPECT_EQ(stored(DoorClosedRecord{"cash_box"}), R"({"door":"cash_box"})");
    EXPECT_EQ(stored(TiltRaisedRecord{"journal", "disk I/O error"}),
              R"({"cause":"journal","message":"disk I/O error"})");
    EXPECT_EQ(stored(TiltClearedRecord{"reader", "alice"}), R"({"by":"alice","cause":"reader"})");
    EXPECT_EQ(stored(StationReservedRecord{{true, 1795000000000, "ab12"}, "station"}),
              R"({"by":"station","pin_sha256":"ab12","reserved":true,"until_ms":1795000000000})");
    EXPECT_EQ(stored(StationReservedRecord{{}, "timeout"}), R"({"by":"timeout","reserved":false})");
}

TEST(TypedRecords, ReadBackWhatTheyWrite) {
    const CreditRecord credit{390, 1390, "settlement", "round 4", 300, {}, {}};
    EXPECT_EQ(readBody<CreditRecord>(toBody(credit)), credit);
    const CreditRecord resettled{-40, 0, "resettlement", {}, {}, -50, 10};
    EXPECT_EQ(readBody<CreditRecord>(toBody(resettled)), resettled);
    TicketPrint print;
    print.printedAt = "2026-11-26 23:50:01";
    print.systemId = 0;
    print.machineId = 42;
    print.sequence = 7;
    const TicketIssuedRecord ticket{"001234567890123456", 2500, print};
    EXPECT_EQ(readBody<TicketIssuedRecord>(toBody(ticket)), ticket);
    const TicketRedeemedRecord redeemed{"0099", 500, true};
    EXPECT_EQ(readBody<TicketRedeemedRecord>(toBody(redeemed)), redeemed);
    const HandpayPendingRecord jackpot{120000, "jackpot", {}, true};
    EXPECT_EQ(readBody<HandpayPendingRecord>(toBody(jackpot)), jackpot);
    const HandpayPendingRecord cancelled{150000, "cancelled_credit", "above the ticket limit", false};
    EXPECT_EQ(readBody<HandpayPendingRecord>(toBody(cancelled)), cancelled);
    const StationReservedRecord reserved{{true, 1795000000000, "ab12"}, "station"};
    EXPECT_EQ(readBody<StationReservedRecord>(toBody(reserved)), reserved);
}

TEST(TypedRecords, ReadersRefuseWhatDoesNotFit) {
    EXPECT_THROW((void)readBody<CreditRecord>(json{{"amount", 5}, {"balance", 5}, {"reason", "settlement"}}),
                 BodyError);  // a settlement without its wager
    EXPECT_THROW((void)readBody<TicketIssuedRecord>(json{{"validation", "1"}, {"system_id", 256}}), BodyError);
    EXPECT_THROW((void)readBody<HandpayPendingRecord>(json{{"amount", 1}, {"kind", "jackpot"}, {"why", 3}}), BodyError);
    EXPECT_THROW((void)readBody<StationReservedRecord>(json::array()), BodyError);
}

// A fact this process wrote is read from its struct; one read back from the journal, from its body.
TEST(TypedRecords, RecordOfAFactIsItsStructOrItsBody) {
    const CreditRecord written{-500, 1500, "bet", "bet 3", {}, {}, {}};
    Fact typed{std::string(kind::kCredit), 1, 2, toBody(written), written};
    typed.body = json::object();  // not read: the struct is
    EXPECT_EQ(recordOf<CreditRecord>(typed), written);

    const Fact stored{std::string(kind::kCredit), 1, 2, toBody(written), {}};
    EXPECT_EQ(recordOf<CreditRecord>(stored), written);

    const Fact other{std::string(kind::kTip), std::nullopt, 2, json{{"amount", 100}}, {}};
    EXPECT_FALSE(recordOf<CreditRecord>(other));
    const Fact broken{std::string(kind::kCredit), 1, 2, json{{"amount", "five"}}, {}};
    EXPECT_THROW((void)recordOf<CreditRecord>(broken), BodyError);
}

}  // namespace
}  // namespace pitlink::journal
